/**
 * The mint's keysets: made from a random seed stored in the database (so a restart keeps them),
 * held in memory once derived, and rotated: a new keyset becomes the only active one (new
 * outputs are signed with it) while the old ones stay valid for inputs, so no ecash is lost.
 */
import { randomBytes } from 'node:crypto';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { keysetFromSeed, type Keyset } from './crypto.ts';
import { ERR, MintError } from './errors.ts';

export const UNIT = 'sat';
/** Another process of a cluster may rotate: the keyset list is read again this often (derived keys are kept). */
const REFRESH_MS = 60_000;
const cache = new WeakMap<object, { map: Map<string, Keyset>; at: number }>();

async function loadAll(db: Queryable, known?: Map<string, Keyset>): Promise<Map<string, Keyset>> {
  const rows = await db.all<{ id: string; seed: string; unit: string; active: number | string; created_at: number | string }>(
    'SELECT id, seed, unit, active, created_at FROM mint_keysets ORDER BY created_at, id',
  );
  const map = new Map<string, Keyset>();
  for (const r of rows) {
    const had = known?.get(r.id);
    const ks = had ? { ...had, active: Number(r.active) === 1 } : keysetFromSeed(r.seed, r.unit, Number(r.active) === 1, Number(r.created_at));
    map.set(ks.id, ks);
    map.set(ks.legacyId, ks);
  }
  return map;
}

async function keysetMap(ctx: ServerContext, force = false): Promise<Map<string, Keyset>> {
  const entry = cache.get(ctx);
  if (entry && !force && Date.now() - entry.at < REFRESH_MS) return entry.map;
  const map = await loadAll(ctx.db, entry?.map);
  cache.set(ctx, { map, at: Date.now() });
  return map;
}

/** Every keyset once (the map holds each under both of its ids), oldest first. */
export async function allKeysets(ctx: ServerContext): Promise<Keyset[]> {
  return [...new Set((await keysetMap(ctx)).values())];
}

export async function activeKeyset(ctx: ServerContext): Promise<Keyset> {
  const active = (await allKeysets(ctx)).filter((k) => k.active);
  const ks = active[active.length - 1];
  if (!ks) return rotateKeyset(ctx);
  return ks;
}

/** A keyset by its v1 or legacy id (the legacy one also in its URL-safe form). */
export async function keysetById(ctx: ServerContext, id: unknown): Promise<Keyset> {
  const raw = typeof id === 'string' ? id : '';
  const find = (map: Map<string, Keyset>) => map.get(raw) ?? map.get(raw.replace(/_/g, '/').replace(/-/g, '+'));
  // An id made by another process since the last read is looked up again before it is refused.
  const ks = find(await keysetMap(ctx)) ?? (raw.length >= 12 && raw.length <= 66 ? find(await keysetMap(ctx, true)) : undefined);
  if (!ks) throw new MintError(ERR.keysetUnknown, `Ismeretlen kulcskészlet: ${raw.slice(0, 40)}.`);
  return ks;
}

/** Makes a new active keyset and deactivates the others. */
export async function rotateKeyset(ctx: ServerContext): Promise<Keyset> {
  const seed = randomBytes(32).toString('hex');
  const now = ctx.now();
  const fresh = keysetFromSeed(seed, UNIT, true, now);
  await ctx.db.transaction(async (tx) => {
    await tx.run('UPDATE mint_keysets SET active = 0 WHERE active = 1', []);
    await tx.run('INSERT INTO mint_keysets (id, legacy_id, seed, unit, active, created_at) VALUES (?, ?, ?, ?, 1, ?)', [
      fresh.id,
      fresh.legacyId,
      seed,
      UNIT,
      now,
    ]);
  });
  await keysetMap(ctx, true);
  return fresh;
}

/** Rotates when the active keyset is older than maxAgeSeconds (0 = never). */
export async function rotateIfDue(ctx: ServerContext, maxAgeSeconds: number): Promise<boolean> {
  const ks = await activeKeyset(ctx);
  if (maxAgeSeconds <= 0 || ctx.now() - ks.createdAt < maxAgeSeconds) return false;
  await rotateKeyset(ctx);
  return true;
}
