/**
 * The memberships table: who is premium or legend, until when, under which name. Every read
 * goes through membershipOf, which settles an expired premium plan back to tier none, so the
 * leaderboards, the NIP-05 names and the upload limit all see the same state.
 */
import { CommandError } from '../cache/args.ts';
import { STORAGE_QUOTA_BYTES } from '../config.ts';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../store/db.ts';

export type Tier = 'none' | 'premium' | 'premium-legend';

export interface Membership {
  pubkey: string;
  tier: Tier;
  name: string | null;
  premium_since: number | null;
  legend_since: number | null;
  expires_on: number | null;
  donated_sats: number;
  last_donation: number | null;
}

/** The per-pubkey upload quota (STORAGE_QUOTA_BYTES, spec §6: 100 GB). */
export const storageQuota = (ctx: ServerContext) => ctx.config.storageQuotaBytes ?? STORAGE_QUOTA_BYTES;

interface Row {
  pubkey: string;
  tier: string;
  name: string | null;
  premium_since: number | string | null;
  legend_since: number | string | null;
  expires_on: number | string | null;
  donated_sats: number | string;
  last_donation: number | string | null;
}

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

function fromRow(r: Row): Membership {
  const tier: Tier = r.tier === 'premium' || r.tier === 'premium-legend' ? r.tier : 'none';
  return {
    pubkey: r.pubkey,
    tier,
    name: r.name,
    premium_since: num(r.premium_since),
    legend_since: num(r.legend_since),
    expires_on: num(r.expires_on),
    donated_sats: Number(r.donated_sats),
    last_donation: num(r.last_donation),
  };
}

export function noMembership(pubkey: string): Membership {
  return { pubkey, tier: 'none', name: null, premium_since: null, legend_since: null, expires_on: null, donated_sats: 0, last_donation: null };
}

const COLS = 'pubkey, tier, name, premium_since, legend_since, expires_on, donated_sats, last_donation';

/** The stored row as it is, without settling expiry (for writers inside a transaction). */
export async function membershipRow(db: Queryable, pubkey: string): Promise<Membership | undefined> {
  const row = await db.get<Row>(`SELECT ${COLS} FROM memberships WHERE pubkey = ?`, [pubkey]);
  return row && fromRow(row);
}

/** The user's membership now; a premium plan past its end is demoted to none (legend never expires). */
export async function membershipOf(db: Queryable, pubkey: string, now: number): Promise<Membership> {
  const m = await membershipRow(db, pubkey);
  if (!m) return noMembership(pubkey);
  if (m.tier === 'premium' && m.expires_on !== null && m.expires_on <= now) {
    await db.run(`UPDATE memberships SET tier = 'none' WHERE pubkey = ? AND tier = 'premium' AND expires_on <= ?`, [pubkey, now]);
    return { ...m, tier: 'none' };
  }
  return m;
}

export const isPremium = (m: Membership) => m.tier === 'premium' || m.tier === 'premium-legend';

export async function requirePremium(ctx: ServerContext, pubkey: string): Promise<Membership> {
  const m = await membershipOf(ctx.db, pubkey, ctx.now());
  if (!isPremium(m)) throw new CommandError('Ez a funkció csak prémium tagoknak érhető el.');
  return m;
}

export async function requireLegend(ctx: ServerContext, pubkey: string): Promise<Membership> {
  const m = await membershipOf(ctx.db, pubkey, ctx.now());
  if (m.tier !== 'premium-legend') throw new CommandError('Ez a funkció csak legenda tagoknak érhető el.');
  return m;
}

/** Bytes of every blob the user owns (a blob shared with others counts for each owner). */
export async function usedStorage(db: Queryable, pubkey: string): Promise<number> {
  const row = await db.get<{ total: number | string | null }>(
    'SELECT SUM(b.size) AS total FROM blob_owners o JOIN blobs b ON b.sha256 = o.sha256 WHERE o.pubkey = ?',
    [pubkey],
  );
  return Number(row?.total ?? 0);
}

/** Who holds `name` as an active premium name (names are stored lower-case). */
export async function activeNameOwner(db: Queryable, name: string, now: number): Promise<string | undefined> {
  const row = await db.get<{ pubkey: string }>(
    `SELECT pubkey FROM memberships WHERE name = ? AND tier <> 'none' AND (expires_on IS NULL OR expires_on > ?)`,
    [name.toLowerCase(), now],
  );
  return row?.pubkey;
}

/**
 * The membership_status reply fields (C.3). rename is true while an active member has no name,
 * e.g. when the name chosen at purchase was taken by someone else before the payment arrived.
 */
export async function statusFields(ctx: ServerContext, m: Membership): Promise<Record<string, unknown>> {
  const domain = ctx.config.nip05Domain;
  const active = isPremium(m);
  const name = active ? m.name : null;
  return {
    pubkey: m.pubkey,
    tier: m.tier,
    name: name ?? '',
    rename: active && !m.name,
    nostr_address: name ? `${name}@${domain}` : '',
    lightning_address: name ? `${name}@${domain}` : '',
    primal_vip_profile: name ? `https://${domain}/${name}` : '',
    used_storage: await usedStorage(ctx.db, m.pubkey),
    expires_on: active ? m.expires_on : null,
    premium_since: m.premium_since,
    legend_since: m.legend_since,
    donated_sats: m.donated_sats,
  };
}
