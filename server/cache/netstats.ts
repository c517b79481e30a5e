/**
 * NET_STATS (10000101), pushed to `net_stats` subscribers five times a second (S §1.5).
 * The counts are shared by every connection and refreshed at most every few seconds, so
 * the push rate costs socket writes, not queries.
 */
import type { ServerContext } from '../context.ts';
import type { CacheObject } from './data.ts';
import { synthetic } from './enrich.ts';
import { CacheKind } from '../../core/kinds.ts';

const REFRESH_MS = 5000;

interface Cached {
  at: number;
  value: CacheObject;
  pending?: Promise<CacheObject>;
}
const cache = new WeakMap<ServerContext, Cached>();

async function compute(ctx: ServerContext): Promise<CacheObject> {
  const one = async (sql: string) => Number(Object.values((await ctx.db.get<Record<string, unknown>>(sql)) ?? {})[0] ?? 0);
  const [users, pubkeys, pubnotes, reactions, reposts, any, zaps, satszapped] = await Promise.all([
    one(`SELECT COUNT(*) AS n FROM replaceable WHERE kind = 0`),
    one(`SELECT COUNT(DISTINCT pubkey) AS n FROM events`),
    one(`SELECT COUNT(*) AS n FROM events WHERE kind = 1`),
    one(`SELECT COUNT(*) AS n FROM events WHERE kind = 7`),
    one(`SELECT COUNT(*) AS n FROM events WHERE kind = 6`),
    one(`SELECT COUNT(*) AS n FROM events`),
    one(`SELECT COUNT(*) AS n FROM zaps`),
    one(`SELECT COALESCE(SUM(amount_sats), 0) AS n FROM zaps`),
  ]);
  return synthetic(CacheKind.NET_STATS, { users, pubkeys, pubnotes, reactions, reposts, any, zaps, satszapped });
}

export async function netStats(ctx: ServerContext): Promise<CacheObject> {
  const hit = cache.get(ctx);
  if (hit && Date.now() - hit.at < REFRESH_MS) return hit.value;
  if (hit?.pending) return hit.pending;
  const pending = compute(ctx);
  const entry: Cached = hit ?? { at: 0, value: synthetic(CacheKind.NET_STATS, {}) };
  entry.pending = pending;
  cache.set(ctx, entry);
  try {
    entry.value = await pending;
    entry.at = Date.now();
    return entry.value;
  } finally {
    entry.pending = undefined;
  }
}
