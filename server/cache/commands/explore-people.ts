/**
 * The people and topic panels of Explore (S §3.3–3.4): rising accounts, trending authors,
 * hashtags and the legend counts.
 */
import { hiddenFor } from '../../moderation/hidden.ts';
import type { Queryable, SqlValue } from '../../store/db.ts';
import { CommandError, type Args } from '../args.ts';
import { followerCounts, profilesOf, type CacheObject } from '../data.ts';
import { range, synthetic } from '../enrich.ts';
import type { Command } from '../registry.ts';
import { MIN_FOLLOWERS } from './explore.ts';
import { gainWindowStart, increaseOf, type FollowerIncrease } from './follower-gains.ts';
import { userInfos } from './users.ts';
import { CacheKind } from '../../../core/kinds.ts';

const HOUR = 3600;
const DAY = 86_400;
const MAX_SCAN = 5000;
/** S §3.3: the inner network counts at most this many followers, the outer one walks at most this many follows. */
const MAX_INNER_FOLLOWERS = 10_000;
const MAX_OUTER_FOLLOWS = 5000;

function hasAbout(content: string): boolean {
  try {
    const about = (JSON.parse(content) as { about?: unknown } | null)?.about;
    return typeof about === 'string' && about.trim().length > 0;
  } catch {
    return false;
  }
}

/** Accounts the viewer does not follow, by follower gain; since/until bound the gain (S §3.4). */
const explorePeople: Command = async (args, { ctx }) => {
  const viewer = args.optHex('user_pubkey');
  const since = args.optBound('since');
  const until = args.optBound('until');
  const limit = args.limit(10, 50);
  const offset = args.offset();
  const params: SqlValue[] = [await gainWindowStart(ctx.db, ctx.now())];
  let where = 'day >= ?';
  if (viewer) {
    where += ' AND pubkey <> ? AND pubkey NOT IN (SELECT follows FROM follows WHERE pubkey = ?)';
    params.push(viewer, viewer);
  }
  let having = 'SUM(increase) > 0';
  if (until !== undefined) {
    having += ' AND SUM(increase) <= ?';
    params.push(until);
  }
  if (since !== undefined) {
    having += ' AND SUM(increase) >= ?';
    params.push(since);
  }
  const hidden = await hiddenFor(ctx.db, viewer, 'trending');
  const picked: { pk: string; inc: number }[] = [];
  let skip = offset;
  const batch = Math.min(500, Math.max(50, (limit + offset) * 2));
  for (let scanned = 0; picked.length < limit && scanned < MAX_SCAN; scanned += batch) {
    const rows = await ctx.db.all<{ pubkey: string; inc: unknown }>(
      `SELECT pubkey, SUM(increase) AS inc FROM follower_days WHERE ${where} GROUP BY pubkey HAVING ${having}
       ORDER BY SUM(increase) DESC, pubkey ASC LIMIT ? OFFSET ?`,
      [...params, batch, scanned],
    );
    const profiles = await profilesOf(ctx.db, rows.map((r) => r.pubkey));
    for (const r of rows) {
      if (picked.length >= limit) break;
      const prof = profiles.get(r.pubkey);
      if (!prof || !hasAbout(prof.content) || hidden.pubkeys.has(r.pubkey)) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      picked.push({ pk: r.pubkey, inc: Number(r.inc) });
    }
    if (rows.length < batch) break;
  }
  const pks = picked.map((p) => p.pk);
  const counts = await followerCounts(ctx.db, pks);
  const increases: Record<string, FollowerIncrease> = {};
  for (const p of picked) increases[p.pk] = increaseOf(p.inc, counts.get(p.pk) ?? 0);
  const out: CacheObject[] = [synthetic(CacheKind.FOLLOWER_INCREASES, increases)];
  if (pks.length) out.push(...(await userInfos(ctx.db, pks)));
  out.push(range('increase', picked.map((p) => ({ id: p.pk, key: p.inc }))));
  return out;
};

/**
 * Authors ranked by their best post since `since`, at least MIN_FOLLOWERS followers each:
 * kind 0s, then USER_SCORES holding the ranking values instead of follower counts.
 */
async function scoredUsers(db: Queryable, args: Args, since: number, field: 'score' | 'score24h', limit: number): Promise<CacheObject[]> {
  const viewer = args.optHex('user_pubkey');
  const rows = await db.all<{ pubkey: string; best: unknown }>(
    `SELECT author AS pubkey, MAX(${field}) AS best FROM event_stats WHERE kind = 1 AND created_at >= ? AND ${field} > 0
     GROUP BY author ORDER BY MAX(${field}) DESC, author ASC LIMIT ?`,
    [since, Math.min(1000, limit * 10)],
  );
  const hidden = await hiddenFor(db, viewer, 'trending');
  const counts = await followerCounts(db, rows.map((r) => r.pubkey));
  const ranked = rows.filter((r) => (counts.get(r.pubkey) ?? 0) >= MIN_FOLLOWERS && !hidden.pubkeys.has(r.pubkey));
  const profiles = await profilesOf(db, ranked.map((r) => r.pubkey));
  const out: CacheObject[] = [];
  const scores: Record<string, number> = {};
  for (const r of ranked) {
    const prof = profiles.get(r.pubkey);
    if (!prof || out.length >= limit) continue;
    out.push(prof as unknown as CacheObject);
    scores[r.pubkey] = Number(r.best);
  }
  out.push(synthetic(CacheKind.USER_SCORES, scores));
  return out;
}

/** Explore's topic cloud: the 200 most used hashtags of the last 24 h, always answered (S C.4 pitfall). */
const exploreTopics: Command = async (_args, { ctx }) => {
  const rows = await ctx.db.all<{ hashtag: string; n: unknown }>(
    `SELECT hashtag, COUNT(*) AS n FROM hashtag_uses WHERE created_at >= ? GROUP BY hashtag ORDER BY COUNT(*) DESC, hashtag ASC LIMIT 200`,
    [ctx.now() - DAY],
  );
  const topics: Record<string, number> = {};
  for (const r of rows) topics[r.hashtag] = Number(r.n);
  return [synthetic(CacheKind.TOPICS, topics)];
};

/** [[tag, score]] over a window; each use weighs its author's followers per post (S §3.4). */
const trendingHashtags =
  (hours: number): Command =>
  async (args, { ctx }) => {
    const rows = await ctx.db.all<{ hashtag: string; w: unknown }>(
      `SELECT hashtag, SUM(weight) AS w FROM hashtag_uses WHERE created_at >= ? GROUP BY hashtag
       ORDER BY SUM(weight) DESC, hashtag ASC LIMIT ?`,
      [ctx.now() - hours * HOUR, args.limit(100, 200)],
    );
    return [synthetic(CacheKind.HASHTAGS, rows.map((r) => [r.hashtag, Math.round(Number(r.w) * 1000) / 1000]))];
  };

async function countOf(db: Queryable, sql: string, params: SqlValue[]): Promise<number> {
  return Number((await db.get<{ n: unknown }>(sql, params))?.n ?? 0);
}

const exploreLegendCounts: Command = async (args, { ctx }) => {
  const pubkey = args.hex('pubkey');
  const db = ctx.db;
  const [follows, inner, outer, all] = await Promise.all([
    countOf(db, 'SELECT COUNT(*) AS n FROM follows WHERE pubkey = ?', [pubkey]),
    countOf(
      db,
      `SELECT COUNT(*) AS n FROM (SELECT follows AS pk FROM follows WHERE pubkey = ?
         UNION SELECT pk FROM (SELECT pubkey AS pk FROM follows WHERE follows = ? LIMIT ?) f) t`,
      [pubkey, pubkey, MAX_INNER_FOLLOWERS],
    ),
    countOf(
      db,
      `SELECT COUNT(*) AS n FROM (SELECT follows AS pk FROM follows WHERE pubkey = ?
         UNION SELECT f2.follows AS pk FROM follows f2 WHERE f2.pubkey IN (SELECT follows FROM follows WHERE pubkey = ? LIMIT ?)) t`,
      [pubkey, pubkey, MAX_OUTER_FOLLOWS],
    ),
    countOf(db, 'SELECT COUNT(*) AS n FROM replaceable WHERE kind = 0', []),
  ]);
  return [
    synthetic(
      CacheKind.LEGEND_COUNTS,
      { your_follows: follows, your_inner_network: inner, your_outer_network: outer, all_users: all },
      { pubkey },
    ),
  ];
};

export const explorePeopleCommands: [string, Command][] = [
  ['explore_people', explorePeople],
  ['explore_topics', exploreTopics],
  ['trending_hashtags', trendingHashtags(24)],
  ['trending_hashtags_4h', trendingHashtags(4)],
  ['trending_hashtags_7d', trendingHashtags(24 * 7)],
  ['explore_legend_counts', exploreLegendCounts],
  ['scored_users_24h', async (args, { ctx }) => scoredUsers(ctx.db, args, ctx.now() - DAY, 'score24h', 24)],
  [
    'scored_users',
    async (args, { ctx }) => {
      const now = ctx.now();
      const since = args.optBound('since') ?? now - DAY;
      if (since < now - 7 * DAY) throw new CommandError('since too old: at most 7 days back');
      // Over a window longer than a day score24h has forgotten part of it, so the total score ranks.
      return scoredUsers(ctx.db, args, since, 'score', args.limit(24, 100));
    },
  ],
];
