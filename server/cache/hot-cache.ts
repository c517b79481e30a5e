/**
 * Small in-memory caches of per-pubkey figures that are costly to count at a million events (a
 * busy author's post counts read tens of thousands of index entries) yet change only when that
 * pubkey publishes. An entry is forgotten when an event of its key is committed: the importer
 * announces every stored event on the live 'event' feed after its transaction, and the PostgreSQL
 * live bridge announces there the events other processes stored, so every process forgets the same
 * keys. A figure whose computation overlapped such an announcement is used once and not kept.
 */
import type { NostrEvent, ServerContext } from '../context.ts';
import type { AuthorPosts } from './follows-cache.ts';
import { POST_KINDS } from '../ingest/kinds.ts';
import type { CacheObject, StatsRow, ZapRow } from './data.ts';
import { WindowCache } from '../search/window-cache.ts';

/**
 * The live feed's name for "rows that no event announces changed": ROWS_CHANGED with an area,
 * 'media' (a media or link-preview row, server/media store.ts and preview.ts) or 'stats' (the 24-hour
 * scores expired, ingest/scores.ts). The PostgreSQL live bridge carries it to the other processes;
 * its second argument is true when it came from a peer, so the bridge does not send it back.
 */
export const ROWS_CHANGED = 'rows-changed';
export type ChangedArea = 'media' | 'stats';
export const CHANGED_AREAS: readonly ChangedArea[] = ['media', 'stats'];

/** Bumped by every invalidation; a value computed across a bump of its key is used once, not kept. */
let generation = 0;

/**
 * Least-recently-used over one Map (insertion order = use order), but a hit re-inserts its entry
 * only when it sits in the older half of that order: re-inserting every hit (delete + set) kept V8's
 * ordered hash table rehashing, and under `npm run load` getMany alone was ~11 % of the main thread
 * (bench/RESULTS.md, s8-load). The bound and which entries are held up to it are unchanged; only
 * the order among the newer half is approximate, which matters for nothing but the choice of eviction.
 */
export class KeyedLru<V> {
  private readonly entries = new Map<string, { value: V; tick: number }>();
  /** Counts insertions; an entry's tick is the count when it was last (re-)inserted. */
  private tick = 0;
  /** key → generation of its last invalidation, bounded like the entries. */
  private readonly changedAt = new Map<string, number>();
  /** Computations started before this are never kept (the per-key memory was dropped). */
  private floor = 0;
  private readonly half: number;

  constructor(private readonly max: number) {
    this.half = Math.max(1, Math.floor(max / 2));
  }

  get size(): number {
    return this.entries.size;
  }

  private lookup(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    if (this.tick - hit.tick >= this.half) {
      this.entries.delete(key);
      hit.tick = ++this.tick;
      this.entries.set(key, hit);
    }
    return hit.value;
  }

  private keep(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, tick: ++this.tick });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The cached value, or `load()`'s, kept only if no invalidation of `key` happened meanwhile. */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.lookup(key);
    if (hit !== undefined) return hit;
    const started = generation;
    const value = await load();
    if (started < this.floor || (this.changedAt.get(key) ?? 0) > started) return value;
    this.keep(key, value);
    return value;
  }

  /** The cached value, or undefined; for callers that read on a miss in their own way (see offer). */
  peek(key: string): V | undefined {
    return this.lookup(key);
  }

  /** The moment to pass to offer() for a value read from now on. */
  stamp(): number {
    return generation;
  }

  /** Keeps `value`, read since `started` (stamp()), unless its key was invalidated meanwhile. */
  offer(key: string, value: V, started: number): void {
    if (started < this.floor || (this.changedAt.get(key) ?? 0) > started) return;
    this.keep(key, value);
  }

  /**
   * The values of `keys`: cached ones from memory, the rest from one `load(missing)` call. A key
   * `load` leaves out gets `absent` (a count of nothing is 0, and is worth keeping too), unless `absent` is undefined.
   */
  async getMany(keys: Iterable<string>, absent: V | undefined, load: (missing: string[]) => Promise<Map<string, V>>): Promise<Map<string, V>> {
    const out = new Map<string, V>();
    const absentKeys = new Set<string>();
    for (const k of keys) {
      if (out.has(k)) continue;
      const hit = this.lookup(k);
      if (hit === undefined) absentKeys.add(k);
      else out.set(k, hit);
    }
    if (!absentKeys.size) return out;
    const missing = [...absentKeys];
    const started = generation;
    const loaded = await load(missing);
    const keep = started >= this.floor;
    for (const k of missing) {
      const v = loaded.get(k) ?? absent;
      // An undefined `absent`: a key `load` did not find is neither answered nor kept (it may appear any time).
      if (v === undefined) continue;
      out.set(k, v);
      if (keep && (this.changedAt.get(k) ?? 0) <= started) this.keep(k, v);
    }
    return out;
  }

  invalidate(key: string): void {
    generation++;
    if (this.changedAt.size >= this.max * 4) {
      this.changedAt.clear();
      this.floor = generation;
    }
    this.changedAt.set(key, generation);
    this.entries.delete(key);
  }

  clear(): void {
    this.floor = ++generation;
    this.changedAt.clear();
    this.entries.clear();
  }
}

/** Caches per database handle: tests run several stores in one process. */
const perDb = new WeakMap<object, HotCaches>();

export interface HotCaches {
  /** user_profile's counts over the author's own posts, articles and lists (commands/users.ts). */
  authorStats: KeyedLru<Record<string, unknown>>;
  /**
   * Followers per pubkey (data.ts followerCounts): every page of notes shows its authors', and a
   * popular author's count reads thousands of index entries. A contact list names whom it follows
   * now, not whom it stopped following, so any committed contact list or deletion forgets them all.
   */
  followerCounts: KeyedLru<number>;
  /** Whom a viewer follows (follows-cache.ts): only the viewer's own contact lists and deletions change it. */
  follows: KeyedLru<string[]>;
  /** An author's newest posts as a feed page last read them (follows-cache.ts), merged into every follower's page; keyed `variant:pubkey`. */
  authorPosts: KeyedLru<AuthorPosts>;
  /** The variants (kinds, replies) authorPosts holds, so an author's event forgets each. */
  postVariants: Set<string>;
  /** Current replaceable events of CACHED_REPLACEABLE_KINDS (data.ts replaceableOf), keyed `kind:pubkey`; null: none. */
  replaceable: KeyedLru<NostrEvent | null>;
  /**
   * Stored events of regular kinds by id (data.ts eventsByIds). Such an event never changes; only a
   * deletion naming its id removes it. Replaceable and addressable ones, which a newer version removes
   * without naming them, are not kept.
   */
  events: KeyedLru<NostrEvent>;
  /**
   * The media and link-preview objects of a bundle per event id (media/info.ts), frozen. An event's
   * URL rows are written only by its own import and removed only with it; the media and preview rows
   * they point at change when a picture is fetched or a preview fetched or evicted, in any process,
   * and those forget every entry (rowsChanged 'media').
   */
  bundleMedia: KeyedLru<readonly CacheObject[]>;
  /**
   * Each note's counters (data.ts statsByIds; null: no row) and biggest zaps (topZaps), by event id,
   * frozen. An event that acts on notes forgets the ids its tags name; one whose target the importer
   * finds some other way (an address, a reference in the text, a zap receipt, a deletion) forgets
   * all of them (forgetEngagement), and so does the expiry of 24-hour scores (rowsChanged 'stats').
   */
  stats: KeyedLru<StatsRow | null>;
  zaps: KeyedLru<readonly ZapRow[]>;
  /**
   * orderby:<count> searches' ranking windows (search/window-cache.ts), told of every change the stats
   * caches above are, and of new, replaced and deleted notes.
   */
  searchWindows: WindowCache;
  /** Announces a change of `area`'s rows on the live feed (ROWS_CHANGED), of the rows of `ids` only when given. */
  announce: (area: ChangedArea, ids?: readonly string[]) => void;
}

/** Profiles, contact lists, mute lists, relay lists, media-server lists: every page reads some of them. */
export const CACHED_REPLACEABLE_KINDS = [0, 3, 10000, 10002, 10063];

const MAX_AUTHORS = 20_000;
const MAX_FOLLOWER_COUNTS = 50_000;
const MAX_FOLLOWS = 5_000;
/**
 * Followed authors whose newest posts are kept (at most CACHED_POSTS rows of ~150 bytes, ~20 on a first
 * page's entry). SQLite holds the posts of every active author of a 1M-event store (10,000 bench users
 * and their followed real authors); PostgreSQL, whose processes each hold their own, keeps fewer.
 */
const MAX_AUTHOR_POSTS = { sqlite: 20_000, postgres: 5_000 } as const;
const MAX_REPLACEABLE = 20_000;
/** Notes of a few pages per active viewer; about 1 KB each. */
const MAX_EVENTS = 50_000;
/** Most notes have no media: an empty list, or one or two small objects. */
const MAX_BUNDLE_MEDIA = 50_000;
/** A stats row is ~200 bytes; most notes have no zaps (an empty list). */
const MAX_STATS = 50_000;

/**
 * The caches of a running server's store, or undefined for a store no server attached (a
 * script, a test's bare store): nothing would tell those caches about new events.
 */
export function hotCaches(db: object): HotCaches | undefined {
  return perDb.get(db);
}

/**
 * Called after a write to the media or preview table ('media') or an expiry of 24-hour scores
 * ('stats') commits: every process forgets what it kept of them. `ids`: the notes whose rows changed,
 * when known (the expiry knows them); this process then forgets only those, other processes (the
 * live bridge carries only the area) the whole area. An expiry commits about once a minute on a
 * network with 24-hour scores, and forgetting every note's counters each time made every page read
 * them again (bench/RESULTS.md, s11-load). A no-op for a store no server attached.
 */
export function rowsChanged(db: object, area: ChangedArea, ids?: readonly string[]): void {
  perDb.get(db)?.announce(area, ids);
}

function forgetArea(c: HotCaches, area: ChangedArea): void {
  if (area === 'media') c.bundleMedia.clear();
  else {
    // Not the search windows: they hold no 24-hour scores, the only counts an expiry changes (forgetAll tells them).
    c.stats.clear();
    c.zaps.clear();
  }
}

/** Any note's counters may have changed. */
function forgetAll(c: HotCaches): void {
  forgetArea(c, 'stats');
  c.searchWindows.allStatsChanged();
}

/** Kinds the importer counts on other notes (ingest/apply.ts recordAction): posts (replies, quotes, reposts) and reactions. */
const ACTING_KINDS = new Set([...POST_KINDS, 7]);

/**
 * Forgets the counters and zaps `event` can change. Its own id always (a new note's row, an edited
 * article's carried-over counters). A reply, quote, repost or reaction changes the notes its e and
 * q tags name, unless it names one by address or in its text only, which the importer resolves; a
 * zap receipt may count for an edited article's current version; a deletion undoes actions on
 * anything: those forget every note's.
 */
function forgetEngagement(c: HotCaches, event: NostrEvent): void {
  c.stats.invalidate(event.id);
  c.zaps.invalidate(event.id);
  c.searchWindows.statsChanged(event.id);
  // The search windows take deletions and zap receipts more narrowly themselves (search/window-cache.ts onEvent).
  if (event.kind === 5 || event.kind === 9735) return forgetArea(c, 'stats');
  if (!ACTING_KINDS.has(event.kind)) return;
  if (event.content.includes('nostr:')) return forgetAll(c);
  for (const t of event.tags) {
    if (t[0] === 'a') return forgetAll(c);
    if ((t[0] === 'e' || t[0] === 'q') && typeof t[1] === 'string') {
      const id = t[1];
      if (t[0] === 'q' && !/^[0-9a-f]{64}$/.test(id)) return forgetAll(c);
      c.stats.invalidate(id);
      c.zaps.invalidate(id);
      c.searchWindows.statsChanged(id);
    }
  }
}

/** Every cached figure `event` can change. */
function forget(c: HotCaches, event: NostrEvent): void {
  c.authorStats.invalidate(event.pubkey);
  // The follows and posts rows of a pubkey are written only by its own events (ingest/apply.ts, delete.ts).
  c.follows.invalidate(event.pubkey);
  for (const variant of c.postVariants) c.authorPosts.invalidate(`${variant}:${event.pubkey}`);
  // Only an author's own events replace or delete its replaceable events (ingest/apply.ts, delete.ts).
  for (const kind of CACHED_REPLACEABLE_KINDS) c.replaceable.invalidate(`${kind}:${event.pubkey}`);
  // Only contact lists and deletions (of a contact list) write the follows table (ingest/apply.ts, delete.ts).
  if (event.kind === 3 || event.kind === 5) c.followerCounts.clear();
  forgetEngagement(c, event);
  c.searchWindows.onEvent(event);
  // An event's media and link rows are written by its own import (ingest/index-media.ts) and removed with it.
  c.bundleMedia.invalidate(event.id);
  if (event.kind === 5) {
    for (const t of event.tags) {
      if (t[0] !== 'e' || typeof t[1] !== 'string') continue;
      c.events.invalidate(t[1].toLowerCase());
      c.bundleMedia.invalidate(t[1].toLowerCase());
    }
  }
}

/** Connects a running server: its caches forget on every committed event, local or from a peer process. */
export function attachHotCaches(ctx: ServerContext): () => void {
  const c: HotCaches = perDb.get(ctx.db) ?? {
    authorStats: new KeyedLru(MAX_AUTHORS),
    followerCounts: new KeyedLru(MAX_FOLLOWER_COUNTS),
    follows: new KeyedLru(MAX_FOLLOWS),
    authorPosts: new KeyedLru(MAX_AUTHOR_POSTS[ctx.db.dialect]),
    postVariants: new Set(),
    replaceable: new KeyedLru(MAX_REPLACEABLE),
    events: new KeyedLru(MAX_EVENTS),
    bundleMedia: new KeyedLru(MAX_BUNDLE_MEDIA),
    stats: new KeyedLru(MAX_STATS),
    zaps: new KeyedLru(MAX_STATS),
    searchWindows: new WindowCache(),
    announce: (area, ids) => ctx.live.emit(ROWS_CHANGED, area, false, ids),
  };
  perDb.set(ctx.db, c);
  const onEvent = (ev: NostrEvent) => forget(c, ev);
  const onRows = (area: ChangedArea, _fromAPeer?: boolean, ids?: readonly string[]) => {
    if (!ids || area !== 'stats') return forgetArea(c, area);
    for (const id of ids) {
      c.stats.invalidate(id);
      c.zaps.invalidate(id);
    }
  };
  ctx.live.on('event', onEvent);
  ctx.live.on(ROWS_CHANGED, onRows);
  return () => {
    ctx.live.off('event', onEvent);
    ctx.live.off(ROWS_CHANGED, onRows);
    perDb.delete(ctx.db);
  };
}
