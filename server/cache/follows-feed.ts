/**
 * The "latest from follows" page, the hottest feed query. Joining follows to posts and sorting
 * reads every post of every followed author (tens of thousands of rows on a big store, tens of ms);
 * instead each author's newest `limit + offset` posts come from the (pubkey, created_at) index and
 * the short lists are merged here, so the cost grows with the follow count, not with history.
 */
import type { Queryable, SqlValue } from '../store/db.ts';
import type { FeedItem } from './enrich.ts';
import { authorPostsMemo, candidatesOf, compareBounds, entryOf, followsOf, type CachedCandidates, type PostsPage } from './follows-cache.ts';

/**
 * Authors per statement: a fixed count (padded) keeps the set of statement texts small for the statement cache.
 * PostgreSQL pays a round trip per statement, so it takes 32 at once. SQLite runs in this process, where a
 * statement costs microseconds, so it takes one author at a time until the page has its cut, which then
 * tightens after every author instead of every 32nd (a 70-follow page read ~80 index rows instead of ~500,
 * bench/RESULTS.md 2026-11-26 12:05); past the cut it takes CUT_BATCH authors at once (s10-feed, 2026-11-27).
 */
const authorsPerQuery = (db: Queryable) => (db.dialect === 'sqlite' ? 1 : 32);
/** Authors per batched cut statement on SQLite (padded, so the statement text stays fixed). */
const CUT_BATCH = 32;
/** Follow lists beyond this are cut: a feed page never needs more sources. */
const MAX_AUTHORS = 5_000;

export interface FollowsPage {
  since?: number;
  until?: number;
  limit: number;
  offset: number;
}

/**
 * The best `take` posts seen so far in the page's order. Each author's posts arrive in that order,
 * so an author's run stops at the first post below the current `take`-th one.
 */
class TopPosts {
  private items: FeedItem[] = [];
  /** The `take`-th post once there are `take`; everything below it is out. */
  private last: FeedItem | undefined;

  constructor(
    private readonly take: number,
    private readonly asc: boolean,
  ) {}

  /** The page's order: negative when `a` comes first. */
  readonly order = (a: FeedItem, b: FeedItem) =>
    this.asc ? a.key - b.key || (a.id < b.id ? -1 : 1) : b.key - a.key || (a.id < b.id ? 1 : -1);

  /** `run` is one author's posts in the page's order. */
  add(run: FeedItem[]): void {
    for (const it of run) {
      if (this.last && this.order(it, this.last) > 0) break;
      this.items.push(it);
    }
    if (this.items.length >= 2 * this.take) this.settle();
  }

  private settle(): void {
    this.items.sort(this.order);
    if (this.items.length >= this.take) {
      this.items.length = this.take;
      this.last = this.items[this.take - 1];
    }
  }

  /** The `take`-th post, once there are that many. */
  cut(): FeedItem | undefined {
    if (this.items.length >= this.take) this.settle();
    return this.last;
  }

  result(): FeedItem[] {
    this.settle();
    return this.items;
  }
}

export async function followsFeedItems(
  db: Queryable,
  viewer: string,
  kinds: number[],
  includeReplies: boolean,
  page: FollowsPage,
): Promise<FeedItem[]> {
  // No posts asked for: an empty page, like every other feed's LIMIT 0.
  if (page.limit === 0) return [];
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
      `SELECT * FROM (SELECT pubkey AS a, event_id AS id, created_at AS k FROM posts WHERE pubkey = ? AND ${where}
      ORDER BY created_at ${dir}, event_id ${dir} LIMIT ?) AS a${i}`;
    return Array.from({ length: perQuery }, (_, i) => one(i)).join('\nUNION ALL\n');
  };
  // SQLite, once the page has its cut: every post at or past the cut of CUT_BATCH authors in one statement, a
  // seek per author in one walk of the IN list (~2 µs an author at 1M events, against ~15 µs a statement).
  const batchSql = `SELECT pubkey AS a, event_id AS id, created_at AS k FROM posts
    WHERE pubkey IN (${Array.from({ length: CUT_BATCH }, () => '?').join(', ')}) AND ${filter} AND created_at ${asc ? '<=' : '>='} ?`;

  const top = new TopPosts(take, asc);
  const postsPage: PostsPage = { kinds, includeReplies, since: page.since, until: page.until, take };
  // Authors whose rows are in memory (follows-cache.ts) need no statement when those rows answer the page.
  const memo = authorPostsMemo(db, postsPage);
  const started = memo?.stamp() ?? 0;
  const entries = memo?.peek(follows) ?? [];
  const partial: [string, CachedCandidates][] = [];
  const authors: string[] = [];
  for (let i = 0; i < follows.length; i++) {
    const entry = entries[i];
    const c = entry && candidatesOf(entry, postsPage);
    if (c?.exact) top.add(c.items);
    else if (c && !asc) partial.push([follows[i], c]);
    else authors.push(follows[i]);
  }
  // Rows an author lacks are all below its `from`; once that is below the page's cut they cannot be on it.
  partial.sort((x, y) => compareBounds(x[1].from, y[1].from));
  for (const [author, c] of partial) {
    const cut = top.cut();
    if (cut && compareBounds(c.from, cut) <= 0) top.add(c.items);
    else authors.push(author);
  }

  // A statement of a first page (no bounds) reads an author's newest posts: kept for the next page.
  const fills = memo && page.until === undefined && page.since === undefined ? memo : undefined;
  const open = statement(false);
  const cutSql = statement(true);
  for (let i = 0; i < authors.length; ) {
    // Once `take` posts are in hand, a later author's post counts only if it is at least as new (as old,
    // polling forward) as the last of them: asking for just those leaves most authors' ranges empty,
    // so a viewer following hundreds reads a few rows per author instead of `take`.
    const cut = top.cut()?.key;
    const batch = db.dialect === 'sqlite' && cut !== undefined;
    const group = authors.slice(i, (i += batch ? CUT_BATCH : perQuery));
    const params: SqlValue[] = [];
    if (batch) {
      for (let j = 0; j < CUT_BATCH; j++) params.push(group[j] ?? '');
      params.push(...bounds, cut);
    } else {
      for (let j = 0; j < perQuery; j++) {
        params.push(group[j] ?? '', ...bounds);
        if (cut !== undefined) params.push(cut);
        params.push(take);
      }
    }
    const rows = await db.all<{ a: string; id: string; k: number | string }>(batch ? batchSql : cut === undefined ? open : cutSql, params);
    const byAuthor = new Map<string, FeedItem[]>(group.map((a) => [a, []]));
    for (const r of rows) byAuthor.get(r.a)?.push({ id: r.id, key: Number(r.k) });
    for (const [author, run] of byAuthor) {
      // A batch has no order; a sub-select has one, but neither SQL nor a UNION ALL promises the outer rows keep it.
      run.sort(top.order);
      top.add(run);
      // A batch has no LIMIT: it saw every post of the author down to the cut.
      fills?.keep(author, entryOf(run, cut, batch ? Infinity : take), started);
    }
  }
  return top.result().slice(page.offset, page.offset + page.limit);
}
