/**
 * Explore rankings (S §3.4, spec "Ordering modes"): one query shape for every timeframe and
 * scope, read ahead in batches because some exclusions (follower floor, mutes, one post per
 * author) can only be checked after the rows are fetched.
 */
import type { Queryable, SqlValue } from '../../store/db.ts';
import { Args, CommandError } from '../args.ts';
import { hiddenFor, isEventHidden, type HiddenSet } from '../../moderation/hidden.ts';
import { eventsByIds, followerCounts, type CacheObject } from '../data.ts';
import { enrich, range, type FeedItem } from '../enrich.ts';
import type { Command, SpecFeed } from '../registry.ts';
import { exploreZaps } from './zaps.ts';

const HOUR = 3600;
const WEEK = 7 * 24 * HOUR;
/** S §3.4: authors with fewer followers are left out of explore (our decision: kept, everyone is trusted). */
export const MIN_FOLLOWERS = 5;
/** However sparse the matches, one request reads at most this many candidate rows. */
const MAX_SCAN = 5000;

export const TIMEFRAMES = ['latest', 'popular', 'trending', 'mostzapped', 'mostzapped4h'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];
export const SCOPES = ['global', 'network', 'tribe', 'follows'] as const;
export type Scope = (typeof SCOPES)[number];

/** Sort field per timeframe, as the product spec's ordering modes define it. */
export const FIELD: Record<Timeframe, 'created_at' | 'score' | 'score24h' | 'satszapped'> = {
  latest: 'created_at',
  popular: 'score',
  trending: 'score24h',
  mostzapped: 'satszapped',
  mostzapped4h: 'satszapped',
};

export interface ExploreQuery {
  timeframe: Timeframe;
  scope: Scope;
  viewer?: string;
  createdAfter: number;
  /** Bounds on the sort value, which is how clients page. */
  since?: number;
  until?: number;
  limit: number;
  offset: number;
  groupByPubkey: boolean;
  kinds: number[];
  minFollowers: number;
  mediaOnly?: boolean;
}

interface Candidate {
  id: string;
  author: string;
  key: number;
}

/** The SQL that lists candidates for one query, best first; `LIMIT ? OFFSET ?` is left for the batch loop. */
function candidateSql(q: ExploreQuery): { sql: string; params: SqlValue[] } {
  const field = FIELD[q.timeframe];
  const latest = field === 'created_at';
  const col = latest ? 'p.created_at' : `s.${field}`;
  const params: SqlValue[] = [...q.kinds, q.createdAfter];
  let where = `p.kind IN (${q.kinds.map(() => '?').join(',')}) AND p.is_reply = 0 AND p.created_at >= ?`;
  if (!latest) where += ` AND s.${field} > 0`;
  if (q.mediaOnly) where += ' AND p.has_media <> 0';
  if (q.scope === 'follows') {
    where += ' AND p.pubkey IN (SELECT follows FROM follows WHERE pubkey = ?)';
    params.push(q.viewer!);
  } else if (q.scope === 'tribe') {
    where += ' AND (p.pubkey IN (SELECT follows FROM follows WHERE pubkey = ?) OR p.pubkey IN (SELECT pubkey FROM follows WHERE follows = ?))';
    params.push(q.viewer!, q.viewer!);
  }
  if (q.until !== undefined) {
    where += ` AND ${col} <= ?`;
    params.push(q.until);
  }
  if (q.since !== undefined) {
    where += ` AND ${col} >= ?`;
    params.push(q.since);
  }
  const from = latest ? 'posts p' : 'event_stats s JOIN posts p ON p.event_id = s.event_id';
  const order = latest ? 'p.created_at DESC, p.event_id DESC' : `s.${field} DESC, p.created_at DESC, p.event_id ASC`;
  return { sql: `SELECT p.event_id AS id, p.pubkey AS author, ${col} AS k FROM ${from} WHERE ${where} ORDER BY ${order}`, params };
}

function hidesAnything(h: HiddenSet): boolean {
  return h.pubkeys.size > 0 || h.ids.size > 0 || h.threads.size > 0 || h.hashtags.size > 0 || h.words.length > 0;
}

/** A post that tags someone the viewer muted for trending is muted with them (S §3.4). */
function tagsHidden(h: HiddenSet, tags: string[][]): boolean {
  return tags.some((t) => t[0] === 'p' && h.pubkeys.has(t[1]) && t[1] !== h.self);
}

/** The page of a ranking after every exclusion of S §3.4, keyed by the sort value. */
export async function exploreItems(db: Queryable, q: ExploreQuery): Promise<FeedItem[]> {
  if ((q.scope === 'follows' || q.scope === 'tribe' || q.scope === 'network') && !q.viewer) return [];
  const { sql, params } = candidateSql(q);
  const hidden = await hiddenFor(db, q.viewer, 'trending');
  const checkEvents = hidesAnything(hidden);
  const seenAuthors = new Set<string>();
  const out: FeedItem[] = [];
  let skip = q.offset;
  const batch = Math.min(500, Math.max(50, (q.limit + q.offset) * 2));
  for (let scanned = 0; out.length < q.limit && scanned < MAX_SCAN; scanned += batch) {
    const rows = await db.all<{ id: string; author: string; k: number | string }>(`${sql} LIMIT ? OFFSET ?`, [...params, batch, scanned]);
    const cands: Candidate[] = rows.map((r) => ({ id: r.id, author: r.author, key: Number(r.k) }));
    const counts = q.minFollowers > 0 ? await followerCounts(db, cands.map((c) => c.author)) : new Map<string, number>();
    const events = checkEvents ? await eventsByIds(db, cands.map((c) => c.id)) : undefined;
    for (const c of cands) {
      if (out.length >= q.limit) break;
      if (q.minFollowers > 0 && (counts.get(c.author) ?? 0) < q.minFollowers) continue;
      const ev = events?.get(c.id);
      if (ev && (isEventHidden(hidden, ev) || tagsHidden(hidden, ev.tags))) continue;
      if (q.groupByPubkey) {
        if (seenAuthors.has(c.author)) continue;
        seenAuthors.add(c.author);
      }
      if (skip > 0) {
        skip--;
        continue;
      }
      out.push({ id: c.id, key: c.key });
    }
    if (rows.length < batch) break;
  }
  return out;
}

function oneOf<T extends string>(args: Args, name: string, allowed: readonly T[], fallback: T): T {
  const v = args.str(name, fallback);
  if (!(allowed as readonly string[]).includes(v)) throw new CommandError(`invalid ${name}: expected one of ${allowed.join(', ')}`);
  return v as T;
}

/** The time floor of S §3.4: a week for every timeframe but popular, four hours for mostzapped4h. */
export function floorFor(timeframe: Timeframe, now: number, requested: number | undefined): number {
  const asked = requested ?? 0;
  if (timeframe === 'popular') return asked;
  if (timeframe === 'mostzapped4h') return Math.max(asked, now - 4 * HOUR);
  return Math.max(asked, now - WEEK);
}

/** Reads explore's arguments; `fixed` pins the timeframe and scope of the feeds built on explore. */
export function readExplore(
  args: Args,
  now: number,
  defaults: Partial<ExploreQuery> = {},
  fixed?: { timeframe: Timeframe; scope: Scope },
): ExploreQuery {
  const timeframe = fixed?.timeframe ?? oneOf(args, 'timeframe', TIMEFRAMES, defaults.timeframe ?? 'latest');
  return {
    timeframe,
    scope: fixed?.scope ?? oneOf(args, 'scope', SCOPES, defaults.scope ?? 'global'),
    viewer: args.optHex('user_pubkey'),
    createdAfter: floorFor(timeframe, now, args.optBound('created_after') ?? defaults.createdAfter),
    since: args.optBound('since'),
    until: args.optBound('until'),
    limit: args.limit(defaults.limit ?? 20, 50),
    offset: args.offset(),
    groupByPubkey: args.bool('group_by_pubkey', defaults.groupByPubkey ?? false),
    kinds: args.optKinds()?.slice(0, 1) ?? defaults.kinds ?? [1],
    minFollowers: defaults.minFollowers ?? MIN_FOLLOWERS,
    mediaOnly: defaults.mediaOnly,
  };
}

export async function exploreBundle(db: Queryable, q: ExploreQuery): Promise<CacheObject[]> {
  const orderBy = FIELD[q.timeframe];
  const items = await exploreItems(db, q);
  if (!items.length) return [range(orderBy, [])];
  return (await enrich(db, items, { viewer: q.viewer, orderBy })).objects;
}

const explore: Command = async (args, { ctx }) => exploreBundle(ctx.db, readExplore(args, ctx.now()));

/**
 * Notes with an image or video, newest first, from everyone. mega_feed_directive's
 * "explore-media" runs the advanced search of S §3.1 instead (commands/search.ts).
 */
const exploreMedia: Command = async (args, { ctx }) =>
  exploreBundle(ctx.db, readExplore(args, ctx.now(), { minFollowers: 0, mediaOnly: true }, { timeframe: 'latest', scope: 'global' }));

/** Most engaged notes of all time (mega_feed_directive "hall-of-fame-notes"). */
const hallOfFame: Command = async (args, { ctx }) =>
  exploreBundle(ctx.db, readExplore(args, ctx.now(), { minFollowers: 0 }, { timeframe: 'popular', scope: 'global' }));

export const exploreCommands: [string, Command][] = [
  ['explore', explore],
  ['explore_media', exploreMedia],
];

/** The spec's own keys over the outer request's (paging and all): the spec wins where both are given. */
function specArgs(args: Args, spec: Record<string, unknown>): Args {
  const { id: _id, kind: _kind, ...rest } = spec;
  return new Args({ ...args.raw, ...rest });
}

/** mega_feed_directive "hall-of-fame-notes" (S §3.1). */
export const hallOfFameSpecFeed: SpecFeed = (args, spec, env) => hallOfFame(specArgs(args, spec), env);

/** mega_feed_directive "explore-zaps" (S §3.1). */
export const exploreZapsSpecFeed: SpecFeed = (args, spec, env) => exploreZaps(specArgs(args, spec), env);
