/**
 * Rankings computed on the fly from event_stats: explore trending / most zapped / latest
 * (S §3.4) and the `scored` lists. Everyone is trusted, so no follower floor applies.
 */
import type { Queryable, SqlValue } from '../../store/db.ts';
import { CommandError, type Args } from '../args.ts';
import type { CacheObject } from '../data.ts';
import { enrich, range, type FeedItem } from '../enrich.ts';
import type { Command } from '../registry.ts';
import { CacheKind } from '../../../core/kinds.ts';

const HOUR = 3600;
/** Explore never looks further back than a week (S §3.4). */
const MAX_HOURS = 24 * 7;
const GM = /(^|[^\p{L}])(gm|good morning|jó reggelt)([^\p{L}]|$)/iu;

export interface RankQuery {
  field: 'score' | 'satszapped';
  hours: number;
  kind: number;
  since?: number;
  until?: number;
  limit: number;
  offset: number;
  /** One post per author, the author's best. */
  groupByAuthor?: boolean;
  gm?: 'exclude' | 'only';
}

export function clampHours(v: unknown, fallback: number): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new CommandError('invalid hours');
  return Math.min(v, MAX_HOURS);
}

export async function rankedItems(db: Queryable, now: number, q: RankQuery): Promise<FeedItem[]> {
  const params: SqlValue[] = [q.kind, Math.floor(now - q.hours * HOUR)];
  let where = `s.kind = ? AND s.created_at >= ? AND s.${q.field} > 0 AND COALESCE(p.is_reply, 0) = 0`;
  if (q.until !== undefined) {
    where += ` AND s.${q.field} <= ?`;
    params.push(q.until);
  }
  if (q.since !== undefined) {
    where += ` AND s.${q.field} >= ?`;
    params.push(q.since);
  }
  // Grouping and the gm filter drop rows after the query, so read ahead enough to fill the page.
  const filtered = q.groupByAuthor || q.gm;
  const take = filtered ? Math.min(1000, (q.limit + q.offset) * 5 + 50) : q.limit;
  params.push(take, filtered ? 0 : q.offset);
  const rows = await db.all<{ id: string; k: number | string; author: string; content: string }>(
    `SELECT s.event_id AS id, s.${q.field} AS k, s.author AS author, e.content AS content
     FROM event_stats s JOIN events e ON e.id = s.event_id LEFT JOIN posts p ON p.event_id = s.event_id
     WHERE ${where} ORDER BY s.${q.field} DESC, s.created_at DESC, s.event_id ASC LIMIT ? OFFSET ?`,
    params,
  );
  let items = rows.map((r) => ({ id: r.id, key: Number(r.k), author: r.author, content: r.content }));
  if (!filtered) return items.map(({ id, key }) => ({ id, key }));
  if (q.gm) items = items.filter((r) => GM.test(r.content) === (q.gm === 'only'));
  if (q.groupByAuthor) {
    const seen = new Set<string>();
    items = items.filter((r) => (seen.has(r.author) ? false : (seen.add(r.author), true)));
  }
  return items.slice(q.offset, q.offset + q.limit).map(({ id, key }) => ({ id, key }));
}

/** Every author's newest notes (explore "latest"), paged by created_at. */
export async function latestItems(
  db: Queryable,
  q: { kind: number; since?: number; until?: number; limit: number; offset: number },
): Promise<FeedItem[]> {
  const params: SqlValue[] = [q.kind];
  let where = 'p.kind = ? AND p.is_reply = 0';
  if (q.until !== undefined) {
    where += ' AND p.created_at <= ?';
    params.push(q.until);
  }
  if (q.since !== undefined) {
    where += ' AND p.created_at >= ?';
    params.push(q.since);
  }
  const dir = q.since !== undefined && q.until === undefined ? 'ASC' : 'DESC';
  params.push(q.limit, q.offset);
  const rows = await db.all<{ id: string; k: number | string }>(
    `SELECT p.event_id AS id, p.created_at AS k FROM posts p
     WHERE ${where} ORDER BY p.created_at ${dir}, p.event_id ${dir} LIMIT ? OFFSET ?`,
    params,
  );
  return rows.map((r) => ({ id: r.id, key: Number(r.k) }));
}

const SELECTOR = /^(trending|gm_trending|classic_trending|mostzapped)_(24h|12h|4h|1h)$/;
/** The precomputed lists in Primal carry no stats: only notes, references and profiles. */
const SCORED_KINDS = new Set([0, 1, CacheKind.REFERENCED_EVENT]);

const scored: Command = async (args: Args, { ctx }) => {
  const selector = args.str('selector', '');
  const m = SELECTOR.exec(selector);
  if (!m) throw new CommandError('unknown selector');
  const hours = Number(m[2].slice(0, -1));
  const mostzapped = m[1] === 'mostzapped';
  const items = await rankedItems(ctx.db, ctx.now(), {
    field: mostzapped ? 'satszapped' : 'score',
    hours,
    kind: 1,
    limit: args.limit(20, 100),
    offset: 0,
    groupByAuthor: !mostzapped,
    gm: m[1] === 'trending' ? 'exclude' : m[1] === 'gm_trending' ? 'only' : undefined,
  });
  if (!items.length) return [range(mostzapped ? 'satszapped' : 'score', [])];
  const out = await enrich(ctx.db, items, { viewer: args.optHex('user_pubkey'), orderBy: 'score', noRange: true });
  return out.objects.filter((o) => SCORED_KINDS.has(Number(o.kind)));
};

async function exploreBundle(
  db: Queryable,
  now: number,
  args: Args,
  field: 'score' | 'satszapped',
  hours: number,
  groupByAuthor: boolean,
): Promise<CacheObject[]> {
  const items = await rankedItems(db, now, {
    field,
    hours,
    kind: 1,
    since: args.optBound('since'),
    until: args.optBound('until'),
    limit: args.limit(100, 1000),
    offset: args.offset(),
    groupByAuthor,
  });
  return (await enrich(db, items, { viewer: args.optHex('user_pubkey'), orderBy: field })).objects;
}

export const scoredCommands: [string, Command][] = [
  ['scored', scored],
  ['explore_global_trending_24h', async (args, { ctx }) => exploreBundle(ctx.db, ctx.now(), args, 'score', 24, true)],
  ['explore_global_mostzapped_4h', async (args, { ctx }) => exploreBundle(ctx.db, ctx.now(), args, 'satszapped', 4, false)],
];
