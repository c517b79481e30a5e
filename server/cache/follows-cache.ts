/**
 * The memory side of the "latest from follows" page (follows-feed.ts). Under load every feed
 * request re-read the viewer's follow list and each followed author's newest posts, yet both
 * change only when that one person publishes (a contact list, a note, a deletion: the follows
 * and posts rows of a pubkey are written only by that pubkey's own events). So both are kept
 * per pubkey in hot-cache.ts's LRUs, which forget a pubkey on every committed event of it.
 */
import type { Queryable } from '../store/db.ts';
import type { FeedItem } from './enrich.ts';
import { hotCaches } from './hot-cache.ts';

/** Newest posts kept per author: a feed page takes 20 (limit + offset); deeper pages go to SQL. */
export const CACHED_POSTS = 50;
/** Authors per statement, padded like follows-feed.ts's so the statement text stays fixed. */
const AUTHORS_PER_QUERY = 32;

interface PostRow {
  id: string;
  key: number;
  kind: number;
  reply: boolean;
}

export interface AuthorPosts {
  /** Newest first (created_at DESC, event_id DESC, the feed's own order). */
  rows: PostRow[];
  /** The author has no posts beyond `rows`. */
  complete: boolean;
}

export interface PostsPage {
  kinds: number[];
  includeReplies: boolean;
  since?: number;
  until?: number;
  /** limit + offset: how many of each author's posts the page may need. */
  take: number;
}

async function loadFollows(db: Queryable, viewer: string, max: number): Promise<string[]> {
  return (await db.all<{ follows: string }>('SELECT follows FROM follows WHERE pubkey = ? LIMIT ?', [viewer, max])).map((r) => r.follows);
}

/** Whom `viewer` follows (at most `max`), from memory on a running server. */
export async function followsOf(db: Queryable, viewer: string, max: number): Promise<string[]> {
  const cache = hotCaches(db)?.follows;
  return cache ? cache.get(viewer, () => loadFollows(db, viewer, max)) : loadFollows(db, viewer, max);
}

async function loadAuthorPosts(db: Queryable, authors: string[]): Promise<Map<string, AuthorPosts>> {
  const one = (i: number) =>
    `SELECT * FROM (SELECT pubkey AS a, event_id AS id, created_at AS k, kind, is_reply AS r FROM posts WHERE pubkey = ?
      ORDER BY created_at DESC, event_id DESC LIMIT ${CACHED_POSTS + 1}) AS c${i}`;
  const sql = Array.from({ length: AUTHORS_PER_QUERY }, (_, i) => one(i)).join('\nUNION ALL\n');
  const out = new Map<string, AuthorPosts>();
  for (const a of authors) out.set(a, { rows: [], complete: true });
  for (let i = 0; i < authors.length; i += AUTHORS_PER_QUERY) {
    const params = Array.from({ length: AUTHORS_PER_QUERY }, (_, j) => authors[i + j] ?? '');
    const rows = await db.all<{ a: string; id: string; k: number | string; kind: number | string; r: number | string | boolean }>(sql, params);
    for (const r of rows) {
      const posts = out.get(r.a)!;
      if (posts.rows.length === CACHED_POSTS) posts.complete = false;
      else posts.rows.push({ id: r.id, key: Number(r.k), kind: Number(r.kind), reply: Number(r.r) !== 0 });
    }
  }
  return out;
}

/**
 * One author's candidates for the page from the cached rows: the same rows the per-author SQL of
 * follows-feed.ts would return, or undefined when the cached rows cannot tell (a deep page).
 */
function pageOf(posts: AuthorPosts, kinds: Set<number>, page: PostsPage): FeedItem[] | undefined {
  const asc = page.since !== undefined && page.until === undefined;
  const out: FeedItem[] = [];
  for (const r of posts.rows) {
    if (page.until !== undefined && r.key > page.until) continue;
    if (page.since !== undefined && r.key < page.since) break;
    if (!kinds.has(r.kind) || (!page.includeReplies && r.reply)) continue;
    out.push({ id: r.id, key: r.key });
    // Any row not cached is older than every cached one, so newest-first the first `take` are final.
    if (!asc && out.length >= page.take) return out;
  }
  const last = posts.rows[posts.rows.length - 1];
  const sawAll = posts.complete || (page.since !== undefined && last !== undefined && last.key < page.since);
  if (!sawAll) return undefined;
  // Oldest first when polling forward: reversed, the rows are in (created_at, event_id) ascending order.
  return asc ? out.reverse().slice(0, page.take) : out;
}

/**
 * The candidates of every author the cache can answer for, and the authors left for SQL. Without a
 * running server's caches (a script, a bare store) every author is left for SQL.
 */
export async function cachedFollowsPosts(db: Queryable, authors: string[], page: PostsPage): Promise<{ found: FeedItem[]; rest: string[] }> {
  const cache = hotCaches(db)?.authorPosts;
  if (!cache) return { found: [], rest: authors };
  const kinds = new Set(page.kinds);
  const found: FeedItem[] = [];
  const rest: string[] = [];
  const all = await cache.getMany(authors, { rows: [], complete: true }, (missing) => loadAuthorPosts(db, missing));
  for (const a of authors) {
    const items = pageOf(all.get(a)!, kinds, page);
    if (items) found.push(...items);
    else rest.push(a);
  }
  return { found, rest };
}
