/**
 * The "latest from follows" page, the hottest feed query. Joining follows to posts and sorting
 * reads every post of every followed author (tens of thousands of rows on a big store, tens of ms);
 * instead each author's newest `limit + offset` posts come from the (pubkey, created_at) index and
 * the short lists are merged here, so the cost grows with the follow count, not with history.
 */
import type { Queryable, SqlValue } from '../store/db.ts';
import type { FeedItem } from './enrich.ts';
import { cachedFollowsPosts, followsOf } from './follows-cache.ts';

/**
 * Authors per statement: a fixed count (padded) keeps the set of statement texts small for the statement cache.
 * PostgreSQL pays a round trip per statement, so it takes 32 at once. SQLite runs in this process, where a
 * statement costs microseconds, so it takes one author at a time: the cut below then tightens after every
 * author instead of every 32nd, and a 70-follow page reads ~80 index rows instead of ~500 (CPU per page
 * 3.3-3.9 → 1.4-1.8 ms at 1M events, bench/RESULTS.md 2026-11-26 12:05).
 */
const authorsPerQuery = (db: Queryable) => (db.dialect === 'sqlite' ? 1 : 32);
/** Follow lists beyond this are cut: a feed page never needs more sources. */
const MAX_AUTHORS = 5_000;

export interface FollowsPage {
  since?: number;
  until?: number;
  limit: number;
  offset: number;
}

export async function followsFeedItems(
  db: Queryable,
  viewer: string,
  kinds: number[],
  includeReplies: boolean,
  page: FollowsPage,
): Promise<FeedItem[]> {
  const follows = await followsOf(db, viewer, MAX_AUTHORS);
  if (follows.length === 0) return [];
  // Newest first when paging back (or with no bound); oldest first when polling forward from `since`.
  const asc = page.since !== undefined && page.until === undefined;
  const dir = asc ? 'ASC' : 'DESC';
  const take = page.limit + page.offset;
  let filter = `kind IN (${kinds.map(() => '?').join(', ')})${includeReplies ? '' : ' AND is_reply = 0'}`;
  const bounds: SqlValue[] = [...kinds];
  if (page.until !== undefined) {
    filter += ' AND created_at <= ?';
    bounds.push(page.until);
  }
  if (page.since !== undefined) {
    filter += ' AND created_at >= ?';
    bounds.push(page.since);
  }
  // One sub-select per author, each a short range of the (pubkey, created_at) index; portable (SQLite and PostgreSQL).
  const perQuery = authorsPerQuery(db);
  const statement = (cut: boolean) => {
    const where = cut ? `${filter} AND created_at ${asc ? '<=' : '>='} ?` : filter;
    const one = (i: number) =>
      `SELECT * FROM (SELECT event_id AS id, created_at AS k FROM posts WHERE pubkey = ? AND ${where}
      ORDER BY created_at ${dir}, event_id ${dir} LIMIT ?) AS a${i}`;
    return Array.from({ length: perQuery }, (_, i) => one(i)).join('\nUNION ALL\n');
  };
  const open = statement(false);
  const cutSql = statement(true);
  const order = (a: FeedItem, b: FeedItem) => (asc ? a.key - b.key || (a.id < b.id ? -1 : 1) : b.key - a.key || (a.id < b.id ? 1 : -1));

  // Authors whose newest posts are in memory (follows-cache.ts) need no statement; the rest go through SQL.
  const cached = await cachedFollowsPosts(db, follows, { kinds, includeReplies, since: page.since, until: page.until, take });
  const authors = cached.rest;
  let found = cached.found.sort(order).slice(0, take);
  for (let i = 0; i < authors.length; i += perQuery) {
    // Once `take` posts are in hand, a later author's post counts only if it is at least as new (as old,
    // polling forward) as the last of them: asking for just those leaves most authors' ranges empty,
    // so a viewer following hundreds reads a few rows per author instead of `take`.
    const cut = found.length >= take ? found[take - 1].key : undefined;
    const params: SqlValue[] = [];
    for (let j = 0; j < perQuery; j++) {
      params.push(authors[i + j] ?? '', ...bounds);
      if (cut !== undefined) params.push(cut);
      params.push(take);
    }
    for (const r of await db.all<{ id: string; k: number | string }>(cut === undefined ? open : cutSql, params)) found.push({ id: r.id, key: Number(r.k) });
    found.sort(order);
    if (found.length > take) found = found.slice(0, take);
  }
  return found.slice(page.offset, page.offset + page.limit);
}
