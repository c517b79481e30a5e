/**
 * The statements of the orderby window cache (window-cache.ts): a query's whole ranking window (on SQLite
 * with every count an orderby metric reads), packed into one text value, and the counts of a list of notes.
 * SQLite hands a single packed value over far more cheaply than 5,000 rows (each row is a step of the
 * statement and an object in JS); PostgreSQL saves the per-row protocol overhead the same way.
 */
import type { Database } from '../store/db.ts';
import { leaves, mentionsKind, type OrderBy, type ParsedQuery } from './grammar.ts';
import { queryParts, RANK_WINDOW, thresholdOnStats, type BuiltQuery, type SearchOptions } from './sql.ts';

/** The orderby metrics a window answers: counts of event_stats, which the window keeps per note. */
export const WINDOW_METRICS = ['likes', 'replies', 'score', 'satszapped'] as const;
export type WindowMetric = (typeof WINDOW_METRICS)[number];

export const isWindowMetric = (o: OrderBy): o is WindowMetric => (WINDOW_METRICS as readonly string[]).includes(o);

/** What besides a note's own row decides whether it is in a query's window. */
export interface WindowShape {
  /** The kinds a matching note can have; null: any (the query names kinds itself). */
  kinds: ReadonlySet<number> | null;
  /** Whether it reads the follows table (a contact list can change the matches). */
  follows: boolean;
}

/**
 * The shape of a query the cache can keep exact, or null to leave it to the plain statement: ordered by
 * a count, with matches that depend only on the note's own indexed row and tags (and the follows table).
 * Left out: count thresholds (a like moves a note in or out of the window), minlongreplies (a reply
 * changes its parent's row), interactions scopes, bookmarks, zappedby: and repliestokind: (other
 * people's events decide), and relative dates (a new key every second, so never a hit).
 */
export function windowShape(q: ParsedQuery, defaultKinds: number[]): WindowShape | null {
  if (!isWindowMetric(q.orderBy) || thresholdOnStats(q) || q.minLongReplies !== undefined || q.relative !== undefined) return null;
  if (q.scope === 'myfollowsinteractions' || q.scope === 'mynetworkinteractions') return null;
  if (q.features.includes('bookmarked-by-follows')) return null;
  let follows = q.scope === 'myfollows' || q.scope === 'mynetwork' || q.scope === 'notmyfollows';
  for (const { node } of leaves(q.expr)) {
    if (node.type === 'repliestokind') return null;
    if (node.type === 'person' && node.role === 'zappedby') return null;
    if (node.type === 'person' && node.role === 'following') follows = true;
  }
  return { kinds: mentionsKind(q.expr) ? null : new Set(defaultKinds), follows };
}

/**
 * Per row of a packed window, in this order: event id, created_at, the window's order key, then (where
 * `counts` is set) WINDOW_METRICS.
 */
export const PACKED_FIELDS = 7;
const COUNTS = WINDOW_METRICS.map((m) => `COALESCE(s.${m}, 0)`);

export type WindowQueryOptions = Pick<SearchOptions, 'viewer' | 'dialect' | 'defaultKinds' | 'rankWindow'>;

/**
 * One row (n: rows packed; packed: `id,t,o[,likes,replies,score,satszapped]` joined by ';', or null) of the
 * window the plain statement ranks (sql.ts buildSearch): the query's newest matches in its own order, up
 * to RANK_WINDOW. `slice` narrows it to notes created in [since, until], for the notes a cached window missed.
 * `counts`: whether the rows carry their counts (SQLite); without them (PostgreSQL) buildCounts reads them.
 */
export function buildWindowRows(
  q: ParsedQuery,
  opts: WindowQueryOptions,
  slice?: { since: number; until: number },
): BuiltQuery & { counts: boolean } {
  const narrowed = slice
    ? { ...q, since: Math.max(q.since ?? slice.since, slice.since), until: Math.min(q.until ?? slice.until, slice.until) }
    : q;
  const { sqlite, b, from, where, order } = queryParts(narrowed, opts);
  const size = opts.rankWindow ?? RANK_WINDOW;
  const cond = where.join(' AND ') || '1 = 1';
  if (sqlite) {
    // As the two-step statement of sql.ts: the window without counts, then the counts in event_id order
    // through the covering event_stats_metrics.
    const fields = ['w1.id', 'w1.t', 'w1.o', ...COUNTS].join(" || ',' || ");
    const sql = `WITH w0 AS MATERIALIZED (
        SELECT d.event_id AS id, d.created_at AS t, ${order} AS o FROM ${from} WHERE ${cond} ORDER BY ${order} DESC LIMIT ${size}),
      w1 AS MATERIALIZED (SELECT id, t, o FROM w0 ORDER BY id)
      SELECT COUNT(*) AS n, group_concat(${fields}, ';') AS packed
      FROM w1 LEFT JOIN event_stats s INDEXED BY event_stats_metrics ON s.event_id = w1.id`;
    return { sql, params: b.params, counts: true };
  }
  // The counts come from a second statement (buildCounts). Joined in this one, PostgreSQL joins them to every
  // match below the LIMIT: for a word of 5,000–15,000 matches it estimates a hash join over the whole of
  // event_stats cheaper than that many lookups (a sequential scan of 500,000 rows at 1M events: 100–250 ms a
  // window against 40–70 for the two statements, bench/RESULTS.md s11-pgob); with the window's rows as a
  // list of ids, it looks up only those 5,000, through the primary key.
  // In id order, which buildCounts wants and JavaScript's sort of 5,000 ids takes 4 ms to give.
  const sql = `SELECT COUNT(*) AS n, string_agg(concat_ws(',', w.id, w.t, w.o), ';' ORDER BY w.id) AS packed
    FROM (SELECT d.event_id AS id, d.created_at AS t, ${order} AS o
      FROM ${from} WHERE ${cond} ORDER BY ${order} DESC LIMIT ${size}) w`;
  return { sql, params: b.params, counts: false };
}

/** The counts of `ids` (packed `id,likes,replies,score,satszapped`; a note without a stats row has zeros). */
export function buildCounts(dialect: Database['dialect'], ids: string[]): BuiltQuery {
  // Sorted: the lookups then walk the index in its own order.
  const sorted = [...ids].sort();
  if (dialect === 'sqlite') {
    const fields = ['j.value', ...COUNTS].join(" || ',' || ");
    return {
      sql: `SELECT group_concat(${fields}, ';') AS packed
        FROM json_each(?) j LEFT JOIN event_stats s INDEXED BY event_stats_metrics ON s.event_id = j.value`,
      params: [JSON.stringify(sorted)],
    };
  }
  // A lookup per id, whatever the estimates: a window's 5,000 ids are near the size at which PostgreSQL
  // would rather hash the whole of event_stats (see buildWindowRows); OFFSET 0 keeps the subquery a subquery.
  return {
    sql: `SELECT string_agg(concat_ws(',', u.id, ${COUNTS.join(', ')}), ';') AS packed
      FROM unnest(string_to_array(?, ',')) AS u(id)
      LEFT JOIN LATERAL (SELECT * FROM event_stats e WHERE e.event_id = u.id OFFSET 0) s ON true`,
    params: [sorted.join(',')],
  };
}
