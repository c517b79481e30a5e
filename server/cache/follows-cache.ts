/**
 * The memory side of the "latest from follows" page (follows-feed.ts). Under load every feed
 * request re-read the viewer's follow list and each followed author's newest posts, yet both
 * change only when that one person publishes (a contact list, a note, a deletion: the follows
 * and posts rows of a pubkey are written only by that pubkey's own events). So both are kept
 * per pubkey in hot-cache.ts's LRUs, which forget a pubkey on every committed event of it.
 */
import type { Queryable, SqlValue } from '../store/db.ts';
import type { FeedItem } from './enrich.ts';
import { hotCaches } from './hot-cache.ts';

/** Newest posts kept per author and kind of page: a feed page takes 20 (limit + offset); deeper pages go to SQL. */
export const CACHED_POSTS = 50;
/** Authors per statement, padded like follows-feed.ts's so the statement text stays fixed. */
const AUTHORS_PER_QUERY = 32;

export interface AuthorPosts {
  /** Newest first (created_at DESC, event_id DESC, the feed's own order). */
  rows: FeedItem[];
  /** The author has no posts of this kind of page beyond `rows`. */
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

/**
 * Kinds of page (kinds, replies or not) whose rows are cached, each under `variant:pubkey`, so a
 * reply-heavy author still has a full page of top-level notes in memory. Few in practice (the web
 * client asks for notes, or notes and reposts); beyond the cap a new kind of page goes to SQL.
 */
const MAX_VARIANTS = 16;
const variantOf = (page: PostsPage) => `${page.kinds.join(',')}${page.includeReplies ? '+r' : ''}`;

async function loadFollows(db: Queryable, viewer: string, max: number): Promise<string[]> {
  return (await db.all<{ follows: string }>('SELECT follows FROM follows WHERE pubkey = ? LIMIT ?', [viewer, max])).map((r) => r.follows);
}

/** Whom `viewer` follows (at most `max`), from memory on a running server. */
export async function followsOf(db: Queryable, viewer: string, max: number): Promise<string[]> {
  const cache = hotCaches(db)?.follows;
  return cache ? cache.get(viewer, () => loadFollows(db, viewer, max)) : loadFollows(db, viewer, max);
}

async function loadAuthorPosts(db: Queryable, authors: string[], page: PostsPage): Promise<Map<string, AuthorPosts>> {
  const filter = `kind IN (${page.kinds.map(() => '?').join(', ')})${page.includeReplies ? '' : ' AND is_reply = 0'}`;
  const one = (i: number) =>
    `SELECT * FROM (SELECT pubkey AS a, event_id AS id, created_at AS k FROM posts WHERE pubkey = ? AND ${filter}
      ORDER BY created_at DESC, event_id DESC LIMIT ${CACHED_POSTS + 1}) AS c${i}`;
  const sql = Array.from({ length: AUTHORS_PER_QUERY }, (_, i) => one(i)).join('\nUNION ALL\n');
  const out = new Map<string, AuthorPosts>();
  for (const a of authors) out.set(a, { rows: [], complete: true });
  for (let i = 0; i < authors.length; i += AUTHORS_PER_QUERY) {
    const params: SqlValue[] = [];
    for (let j = 0; j < AUTHORS_PER_QUERY; j++) params.push(authors[i + j] ?? '', ...page.kinds);
    for (const r of await db.all<{ a: string; id: string; k: number | string }>(sql, params)) {
      const posts = out.get(r.a)!;
      if (posts.rows.length === CACHED_POSTS) posts.complete = false;
      else posts.rows.push({ id: r.id, key: Number(r.k) });
    }
  }
  return out;
}

/**
 * One author's candidates for the page from the cached rows: the same rows the per-author SQL of
 * follows-feed.ts would return, or undefined when the cached rows cannot tell (a deep page).
 */
function pageOf(posts: AuthorPosts, page: PostsPage): FeedItem[] | undefined {
  const asc = page.since !== undefined && page.until === undefined;
  const out: FeedItem[] = [];
  for (const r of posts.rows) {
    if (page.until !== undefined && r.key > page.until) continue;
    if (page.since !== undefined && r.key < page.since) break;
    out.push(r);
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
  const caches = hotCaches(db);
  const variant = variantOf(page);
  if (!caches || (!caches.postVariants.has(variant) && caches.postVariants.size >= MAX_VARIANTS)) return { found: [], rest: authors };
  caches.postVariants.add(variant);
  const keys = authors.map((a) => `${variant}:${a}`);
  const all = await caches.authorPosts.getMany(keys, { rows: [], complete: true }, async (missing) => {
    const loaded = await loadAuthorPosts(db, missing.map((k) => k.slice(variant.length + 1)), page);
    return new Map([...loaded].map(([a, posts]) => [`${variant}:${a}`, posts]));
  });
  const found: FeedItem[] = [];
  const rest: string[] = [];
  for (let i = 0; i < authors.length; i++) {
    const items = pageOf(all.get(keys[i])!, page);
    if (items) found.push(...items);
    else rest.push(authors[i]);
  }
  return { found, rest };
}
