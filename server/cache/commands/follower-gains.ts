/** Daily follower gains (10000157, spec "User stats" followers_increase) from follower_days. */
import type { Queryable } from '../../store/db.ts';
import { followerCounts, inChunks } from '../data.ts';

const DAY = 86_400;

export interface FollowerIncrease {
  increase: number;
  ratio: number;
  count: number;
}

/**
 * The first UTC day of the "daily" gain window: yesterday and today (our decision), so the
 * ranking is not empty for the first hours of every day. A store that saw no follow changes
 * lately (a quiet network, the demo) uses its two latest days with changes instead, so the
 * gains shown are still the most recent ones rather than nothing.
 */
export async function gainWindowStart(db: Queryable, now: number): Promise<number> {
  const today = Math.floor(now / DAY);
  // A gain by an account with no profile (a follow of an unknown key) cannot be listed, so it
  // must not move the window away from the days whose gains can.
  // The newest day first down the (day, pubkey) index, stopping at the first row with a profile: as
  // MAX(day), PostgreSQL hash-joined all of follower_days with every profile (7 ms at 1M events).
  const latest = await db.get<{ d: unknown }>(
    `SELECT f.day AS d FROM follower_days f
     WHERE f.day <= ? AND EXISTS (SELECT 1 FROM replaceable r WHERE r.pubkey = f.pubkey AND r.kind = 0 AND r.d = '')
     ORDER BY f.day DESC LIMIT 1`,
    [today],
  );
  const last = latest?.d == null ? today : Number(latest.d);
  return Math.min(today, last) - 1;
}

export function increaseOf(increase: number, count: number): FollowerIncrease {
  const before = Math.max(1, count - increase);
  return { increase, ratio: Math.round((increase / before) * 10_000) / 10_000, count };
}

/** followers_increase for each pubkey (spec "User stats"); pubkeys with no change get increase 0. */
export async function followerIncreases(db: Queryable, now: number, pubkeys: string[]): Promise<Map<string, FollowerIncrease>> {
  const start = await gainWindowStart(db, now);
  const rows = await inChunks([...new Set(pubkeys)], (chunk, marks) =>
    db.all<{ pubkey: string; inc: unknown }>(
      `SELECT pubkey, SUM(increase) AS inc FROM follower_days WHERE day >= ? AND pubkey IN (${marks}) GROUP BY pubkey`,
      [start, ...chunk],
    ),
  );
  const gains = new Map(rows.map((r) => [r.pubkey, Number(r.inc ?? 0)]));
  const counts = await followerCounts(db, pubkeys);
  return new Map(pubkeys.map((pk) => [pk, increaseOf(gains.get(pk) ?? 0, counts.get(pk) ?? 0)]));
}
