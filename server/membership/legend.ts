/**
 * Legend customization (10000168) and cohort info (10000169): what a legend member chose for
 * their badge and avatar, and the labels the client shows under a member's name.
 */
import { CommandError } from '../cache/args.ts';
import { synthetic } from '../cache/enrich.ts';
import { inChunks, type CacheObject } from '../cache/data.ts';
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

interface BulkRow {
  pubkey: string;
  tier: string;
  premium_since: number | string | null;
  legend_since: number | string | null;
  expires_on: number | string | null;
  style: string | null;
  custom_badge: number | string | null;
  avatar_glow: number | string | null;
  in_leaderboard: number | string | null;
  current_shoutout: string | null;
}

/**
 * The 10000168/10000169 objects for every active member among `pubkeys`, in one query per chunk:
 * replies that carry profiles (feeds, threads, search, reactions, DMs) get them alongside, so a
 * client never asks per card. Expired plans are left out here without settling them (a read path).
 */
export async function bulkDecorations(ctx: ServerContext, pubkeys: Iterable<string>): Promise<CacheObject[]> {
  const keys = [...new Set(pubkeys)];
  if (!keys.length) return [];
  const now = ctx.now();
  const rows = await inChunks(keys, (chunk, marks) =>
    ctx.db.all<BulkRow>(
      `SELECT m.pubkey, m.tier, m.premium_since, m.legend_since, m.expires_on, c.style, c.custom_badge, c.avatar_glow, c.in_leaderboard, c.current_shoutout
       FROM memberships m LEFT JOIN membership_legend_customization c ON c.pubkey = m.pubkey
       WHERE m.pubkey IN (${marks}) AND m.tier IN ('premium', 'premium-legend') AND (m.expires_on IS NULL OR m.expires_on > ?)`,
      [...chunk, now],
    ),
  );
  if (!rows.length) return [];
  const legends: Record<string, Customization> = {};
  const cohorts: Record<string, unknown> = {};
  const n = (v: number | string | null) => (v === null ? null : Number(v));
  for (const r of rows) {
    const m: Membership = {
      pubkey: r.pubkey,
      tier: r.tier === 'premium-legend' ? 'premium-legend' : 'premium',
      name: null,
      premium_since: n(r.premium_since),
      legend_since: n(r.legend_since),
      expires_on: n(r.expires_on),
      donated_sats: 0,
      last_donation: null,
    };
    cohorts[r.pubkey] = cohortOf(m);
    if (m.tier === 'premium-legend') {
      legends[r.pubkey] = {
        style: r.style ?? DEFAULTS.style,
        custom_badge: r.custom_badge === null ? DEFAULTS.custom_badge : Number(r.custom_badge) === 1,
        avatar_glow: r.avatar_glow === null ? DEFAULTS.avatar_glow : Number(r.avatar_glow) === 1,
        in_leaderboard: r.in_leaderboard === null ? DEFAULTS.in_leaderboard : Number(r.in_leaderboard) === 1,
        current_shoutout: r.current_shoutout ?? '',
      };
    }
  }
  const out: CacheObject[] = [];
  if (Object.keys(legends).length) out.push(synthetic(CacheKind.LEGEND_CUSTOMIZATION, legends));
  out.push(synthetic(CacheKind.MEMBERSHIP_COHORTS, cohorts));
  return out;
}

/** The authors of the profiles (kind 0) in a reply, which bulkDecorations decorates. */
export function profileAuthors(objects: CacheObject[]): string[] {
  const out: string[] = [];
  for (const o of objects) if (o.kind === 0 && typeof o.pubkey === 'string') out.push(o.pubkey);
  return out;
}
