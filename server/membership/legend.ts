/**
 * Legend customization (10000168) and cohort info (10000169): what a legend member chose for
 * their badge and avatar, and the labels the client shows under a member's name.
 */
import { CommandError } from '../cache/args.ts';
import { synthetic } from '../cache/enrich.ts';
import type { CacheObject } from '../cache/data.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { isPremium, membershipOf, type Membership } from './store.ts';
import { CacheKind } from '../../core/kinds.ts';

export const LEGEND_STYLES = ['', 'GOLD', 'AQUA', 'SILVER', 'PURPLE', 'PURPLEHAZE', 'TEAL', 'BROWN', 'BLUE', 'SUNFIRE'] as const;
const MAX_SHOUTOUT = 140;

export interface Customization {
  style: string;
  custom_badge: boolean;
  avatar_glow: boolean;
  in_leaderboard: boolean;
  current_shoutout: string;
}

const DEFAULTS: Customization = { style: '', custom_badge: false, avatar_glow: false, in_leaderboard: true, current_shoutout: '' };

export async function customizationOf(db: Queryable, pubkey: string): Promise<Customization> {
  const r = await db.get<{ style: string; custom_badge: number | string; avatar_glow: number | string; in_leaderboard: number | string; current_shoutout: string }>(
    'SELECT style, custom_badge, avatar_glow, in_leaderboard, current_shoutout FROM membership_legend_customization WHERE pubkey = ?',
    [pubkey],
  );
  if (!r) return { ...DEFAULTS };
  return {
    style: r.style,
    custom_badge: Number(r.custom_badge) === 1,
    avatar_glow: Number(r.avatar_glow) === 1,
    in_leaderboard: Number(r.in_leaderboard) === 1,
    current_shoutout: r.current_shoutout,
  };
}

function bool(v: unknown, name: string, fallback: boolean): boolean {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw new CommandError(`invalid ${name}: expected true or false`);
  return v;
}

/** True when the params ask for a change (anything beyond a plain read). */
export function isCustomizationChange(params: Record<string, unknown>): boolean {
  return ['style', 'custom_badge', 'avatar_glow', 'in_leaderboard', 'current_shoutout', 'edited_shoutout'].some((k) => params[k] !== undefined);
}

/** Applies a legend's choices; only legends may set them (spec §6). */
export async function setCustomization(ctx: ServerContext, pubkey: string, params: Record<string, unknown>): Promise<void> {
  const cur = await customizationOf(ctx.db, pubkey);
  const style = params.style ?? cur.style;
  if (typeof style !== 'string' || !(LEGEND_STYLES as readonly string[]).includes(style)) {
    throw new CommandError(`invalid style: one of ${LEGEND_STYLES.filter(Boolean).join(', ')} or ""`);
  }
  const shoutout = params.edited_shoutout ?? params.current_shoutout ?? cur.current_shoutout;
  if (typeof shoutout !== 'string' || [...shoutout].length > MAX_SHOUTOUT) throw new CommandError(`invalid shoutout: at most ${MAX_SHOUTOUT} characters`);
  const next: Customization = {
    style,
    custom_badge: bool(params.custom_badge, 'custom_badge', cur.custom_badge),
    avatar_glow: bool(params.avatar_glow, 'avatar_glow', cur.avatar_glow),
    in_leaderboard: bool(params.in_leaderboard, 'in_leaderboard', cur.in_leaderboard),
    current_shoutout: shoutout,
  };
  await ctx.db.run(
    `INSERT INTO membership_legend_customization (pubkey, style, custom_badge, avatar_glow, in_leaderboard, current_shoutout, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (pubkey) DO UPDATE SET style = excluded.style, custom_badge = excluded.custom_badge, avatar_glow = excluded.avatar_glow,
       in_leaderboard = excluded.in_leaderboard, current_shoutout = excluded.current_shoutout, updated_at = excluded.updated_at`,
    [pubkey, next.style, next.custom_badge ? 1 : 0, next.avatar_glow ? 1 : 0, next.in_leaderboard ? 1 : 0, next.current_shoutout, ctx.now()],
  );
}

const year = (t: number | null) => (t === null ? '' : String(new Date(t * 1000).getUTCFullYear()));

export function cohortOf(m: Membership): Record<string, unknown> {
  const legend = m.tier === 'premium-legend';
  return {
    cohort_1: legend ? 'Legend' : isPremium(m) ? 'Premium' : '',
    cohort_2: year(legend ? m.legend_since : m.premium_since),
    tier: m.tier,
    expires_on: m.expires_on,
    legend_since: m.legend_since,
    premium_since: m.premium_since,
  };
}

/** The 10000168 and 10000169 objects for one member (nothing for a non-member). */
export async function membershipDecorations(ctx: ServerContext, pubkey: string): Promise<CacheObject[]> {
  const m = await membershipOf(ctx.db, pubkey, ctx.now());
  if (!isPremium(m)) return [];
  const out: CacheObject[] = [];
  if (m.tier === 'premium-legend') out.push(synthetic(CacheKind.LEGEND_CUSTOMIZATION, { [pubkey]: await customizationOf(ctx.db, pubkey) }));
  out.push(synthetic(CacheKind.MEMBERSHIP_COHORTS, { [pubkey]: cohortOf(m) }));
  return out;
}
