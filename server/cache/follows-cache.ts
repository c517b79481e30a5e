/**
 * The memory side of the "latest from follows" page (follows-feed.ts). Under load every feed
 * request re-read the viewer's follow list and each followed author's newest posts, yet both
 * change only when that one person publishes (a contact list, a note, a deletion: the follows
 * and posts rows of a pubkey are written only by that pubkey's own events). So both are kept
 * per pubkey in hot-cache.ts's LRUs, which forget a pubkey on every committed event of it.
 *
 * An author's entry is whatever the page's own per-author statement read last time (follows-feed.ts
 * keeps it), with the bound that statement reached: loading every author's 50 newest posts up front
 * read ~50 index rows per author where the cut statement reads a few.
 */
import type { Queryable } from '../store/db.ts';
import type { FeedItem } from './enrich.ts';
import { hotCaches, type KeyedLru } from './hot-cache.ts';

/** Most posts kept per author and kind of page: a first page takes 20 (limit + offset); deeper ones go to SQL. */
export const CACHED_POSTS = 50;

/** A place in the feed's order (created_at DESC, event_id DESC). */
export interface FeedBound {
  key: number;
  /** '' with a key: every post of that second is above the bound. */
  id: string;
}

export interface AuthorPosts {
  /**
   * Newest first, in the feed's order: exactly the author's posts of this kind of page that come
   * before or at `from` (all that are newer, or of the same second with an id not below it).
   */
  rows: FeedItem[];
  /** key -Infinity: the author has no other posts of this kind of page. */
  from: FeedBound;
}

/** Compares two places in the feed's order, oldest first: negative when `a` is older than `b`. */
export function compareBounds(a: FeedBound, b: FeedBound): number {
  if (a.key !== b.key) return a.key - b.key;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export interface PostsPage {
  kinds: number[];
  includeReplies: boolean;
  since?: number;
  until?: number;
  /** limit + offset: how many of each author's posts the page may need. */
  take: number;
}

/** What an author's cached rows can say about a page. */
export interface CachedCandidates {
  /** The author's posts on the page's side of its bounds, in the page's order, at most `take`. */
  items: FeedItem[];
  /** `items` is what the author's statement would return whatever the page's cut. */
  exact: boolean;
  /** Not exact: `items` is right for posts above `from`; posts below it are unknown. */
  from: FeedBound;
}

/**
 * Kinds of page (kinds, replies or not) whose rows are cached, each under `variant:pubkey`, so a
 * reply-heavy author still has a full page of top-level notes in memory. Few in practice (the web
 * client asks for notes, or notes and reposts); beyond the cap a new kind of page goes to SQL.
 */
const MAX_VARIANTS = 16;
const variantOf = (page: Pick<PostsPage, 'kinds' | 'includeReplies'>) => `${page.kinds.join(',')}${page.includeReplies ? '+r' : ''}`;

async function loadFollows(db: Queryable, viewer: string, max: number): Promise<string[]> {
  return (await db.all<{ follows: string }>('SELECT follows FROM follows WHERE pubkey = ? LIMIT ?', [viewer, max])).map((r) => r.follows);
}

/** Whom `viewer` follows (at most `max`), from memory on a running server. */
export async function followsOf(db: Queryable, viewer: string, max: number): Promise<string[]> {
  const cache = hotCaches(db)?.follows;
  return cache ? cache.get(viewer, () => loadFollows(db, viewer, max)) : loadFollows(db, viewer, max);
}

/**
 * One author's cached rows for the page. Newest first (no `since`, or an `until`), the first `take`
 * rows within the bounds are final once there are `take` of them, since every post not cached is
 * older than every cached one; so are all of them when the cached rows reach back past `since`.
 * Oldest first (polling forward from `since`), only the latter holds.
 */
export function candidatesOf(posts: AuthorPosts, page: PostsPage): CachedCandidates {
  const asc = page.since !== undefined && page.until === undefined;
  const reachesSince = page.since !== undefined && compareBounds(posts.from, { key: page.since, id: '' }) <= 0;
  const items: FeedItem[] = [];
  for (const r of posts.rows) {
    if (page.until !== undefined && r.key > page.until) continue;
    if (page.since !== undefined && r.key < page.since) break;
    items.push(r);
    if (!asc && items.length >= page.take) return { items, exact: true, from: posts.from };
  }
  if (asc) return { items: reachesSince ? items.reverse().slice(0, page.take) : [], exact: reachesSince, from: posts.from };
  return { items, exact: reachesSince || posts.from.key === -Infinity, from: posts.from };
}

/**
 * What one statement read of an author, newest first: at most `limit` posts at or above `cut`
 * (a created_at; undefined: no lower bound) with no upper bound, as an entry. Fewer than `limit`
 * rows means the statement saw all down to `cut`; `limit` rows, all down to the last of them.
 */
export function entryOf(rows: FeedItem[], cut: number | undefined, limit: number): AuthorPosts {
  let from: FeedBound = rows.length < limit ? { key: cut ?? -Infinity, id: '' } : { key: rows[rows.length - 1].key, id: rows[rows.length - 1].id };
  if (rows.length > CACHED_POSTS) {
    rows = rows.slice(0, CACHED_POSTS);
    from = { key: rows[CACHED_POSTS - 1].key, id: rows[CACHED_POSTS - 1].id };
  }
  return { rows, from };
}

/** The authors' posts cache for one kind of page on a running server, or undefined (a bare store, or too many kinds of page). */
export interface AuthorPostsMemo {
  /** Each author's entry, or undefined where none is kept. */
  peek(authors: string[]): (AuthorPosts | undefined)[];
  /** The moment to pass to keep() for what is read from now on. */
  stamp(): number;
  /** Keeps what was read since `started`, unless the author published meanwhile or a wider entry is kept. */
  keep(author: string, posts: AuthorPosts, started: number): void;
}

export function authorPostsMemo(db: Queryable, page: Pick<PostsPage, 'kinds' | 'includeReplies'>): AuthorPostsMemo | undefined {
  const caches = hotCaches(db);
  const variant = variantOf(page);
  if (!caches || (!caches.postVariants.has(variant) && caches.postVariants.size >= MAX_VARIANTS)) return undefined;
  caches.postVariants.add(variant);
  const lru: KeyedLru<AuthorPosts> = caches.authorPosts;
  const prefix = `${variant}:`;
  return {
    peek: (authors) => authors.map((a) => lru.peek(prefix + a)),
    stamp: () => lru.stamp(),
    keep(author, posts, started) {
      const key = prefix + author;
      const held = lru.peek(key);
      if (held && compareBounds(held.from, posts.from) <= 0) return;
      lru.offer(key, posts, started);
    },
  };
}
