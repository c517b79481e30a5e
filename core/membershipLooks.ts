/**
 * Membership looks from a cache reply: the server sends 10000168 (legend customization) and
 * 10000169 (cohorts) beside the profiles of every reply, so each parser attaches them to the
 * profiles it made, without a request per card.
 */
import type { CacheObject, LegendStyle, Profile, ProfileMembership } from './types.ts';
import { CacheKind } from './kinds.ts';

const STYLES = new Set<string>(['', 'GOLD', 'AQUA', 'SILVER', 'PURPLE', 'PURPLEHAZE', 'TEAL', 'BROWN', 'BLUE', 'SUNFIRE']);

function contentOf(o: CacheObject): Record<string, unknown> | undefined {
  if (typeof o.content !== 'string') return undefined;
  try {
    const v: unknown = JSON.parse(o.content);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** pubkey → membership, for the members the reply names. */
export function membershipLooks(objects: Iterable<CacheObject>): Map<string, ProfileMembership> {
  const cohorts = new Map<string, Record<string, unknown>>();
  const legends = new Map<string, Record<string, unknown>>();
  for (const o of objects) {
    if (o.kind !== CacheKind.MEMBERSHIP_COHORTS && o.kind !== CacheKind.LEGEND_CUSTOMIZATION) continue;
    const c = contentOf(o);
    if (!c) continue;
    const into = o.kind === CacheKind.MEMBERSHIP_COHORTS ? cohorts : legends;
    for (const [pk, v] of Object.entries(c)) if (typeof v === 'object' && v !== null) into.set(pk, v as Record<string, unknown>);
  }
  const out = new Map<string, ProfileMembership>();
  for (const [pk, c] of cohorts) {
    const tier = c.tier === 'premium-legend' || c.tier === 'legend' ? 'premium-legend' : c.tier === 'premium' ? 'premium' : null;
    if (!tier) continue;
    const l = tier === 'premium-legend' ? legends.get(pk) : undefined;
    const style = typeof l?.style === 'string' && STYLES.has(l.style) ? (l.style as LegendStyle) : '';
    out.set(pk, { tier, style, badge: l?.custom_badge === true, glow: l?.avatar_glow === true, since: typeof c.cohort_2 === 'string' ? c.cohort_2 : '' });
  }
  return out;
}

/** Sets `membership` on the profiles the looks name (in place: the profiles are the parser's own). */
export function attachLooks(profiles: Iterable<Profile>, looks: Map<string, ProfileMembership>): void {
  if (!looks.size) return;
  for (const p of profiles) {
    const m = looks.get(p.pubkey);
    if (m) p.membership = m;
  }
}
