/**
 * What the worker has seen, kept between sessions so a revisit paints before the network answers
 * (issue 5 "Fast"): per feed spec and viewer the top of the last feed page, the home feed list, and
 * the profiles those pages showed. IndexedDB ('strucc-cache') in the browser, memory in Node tests,
 * behind the small CacheDb interface. Everything here is best effort: a failing store (quota, private
 * mode, a blocked upgrade) only means a cold start, never an error in the feed.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { FeedDefinition, FeedNote, Profile } from '../core/types.ts';
import { FEED_COPY_VERSION } from '../core/config.ts';

/** Notes kept per feed: the first page plus a little more, so a quick scroll still finds cards. */
export const CACHED_NOTES_PER_FEED = 50;
export const CACHED_FEEDS = 30;
export const CACHED_PROFILES = 500;
export const CACHED_LISTS = 10;

export interface CachedPage {
  key: string;
  usedAt: number;
  savedAt: number;
  /** FEED_COPY_VERSION when it was saved: a page of another version is never painted. */
  v?: number;
  notes: FeedNote[];
}

export interface CachedProfile {
  key: string;
  usedAt: number;
  profile: Profile;
}

export interface CachedList {
  key: string;
  usedAt: number;
  feeds: FeedDefinition[];
}

export interface CacheStores {
  pages: CachedPage;
  profiles: CachedProfile;
  lists: CachedList;
}

export type CacheStoreName = keyof CacheStores;

/** The part of IndexedDB the cache uses: keyed rows (keyPath 'key') with a usedAt index for eviction. */
export interface CacheDb {
  get<S extends CacheStoreName>(store: S, key: string): Promise<CacheStores[S] | undefined>;
  put<S extends CacheStoreName>(store: S, rows: CacheStores[S][]): Promise<void>;
  delete(store: CacheStoreName, keys: string[]): Promise<void>;
  count(store: CacheStoreName): Promise<number>;
  /** Keys, least recently used first. */
  keysByUse(store: CacheStoreName): Promise<string[]>;
}

interface StruccCacheSchema extends DBSchema {
  pages: { key: string; value: CachedPage; indexes: { usedAt: number } };
  profiles: { key: string; value: CachedProfile; indexes: { usedAt: number } };
  lists: { key: string; value: CachedList; indexes: { usedAt: number } };
}

const DB_NAME = 'strucc-cache';
const STORES: CacheStoreName[] = ['pages', 'profiles', 'lists'];

export class IdbCacheDb implements CacheDb {
  private db: Promise<IDBPDatabase<StruccCacheSchema>> | undefined;

  private open(): Promise<IDBPDatabase<StruccCacheSchema>> {
    this.db ??= openDB<StruccCacheSchema>(DB_NAME, 1, {
      upgrade(db) {
        for (const name of STORES) db.createObjectStore(name, { keyPath: 'key' }).createIndex('usedAt', 'usedAt');
      },
    });
    return this.db;
  }

  async get<S extends CacheStoreName>(store: S, key: string): Promise<CacheStores[S] | undefined> {
    return (await this.open()).get(store, key) as Promise<CacheStores[S] | undefined>;
  }

  async put<S extends CacheStoreName>(store: S, rows: CacheStores[S][]): Promise<void> {
    const tx = (await this.open()).transaction(store, 'readwrite');
    for (const row of rows) void tx.store.put(row as never);
    await tx.done;
  }

  async delete(store: CacheStoreName, keys: string[]): Promise<void> {
    const tx = (await this.open()).transaction(store, 'readwrite');
    for (const key of keys) void tx.store.delete(key);
    await tx.done;
  }

  async count(store: CacheStoreName): Promise<number> {
    return (await this.open()).count(store);
  }

  async keysByUse(store: CacheStoreName): Promise<string[]> {
    return (await this.open()).getAllKeysFromIndex(store, 'usedAt');
  }
}

/** Same contract in memory; rows are structured-cloned in and out like IndexedDB does. */
export class MemoryCacheDb implements CacheDb {
  readonly stores: { [S in CacheStoreName]: Map<string, CacheStores[S]> } = {
    pages: new Map(),
    profiles: new Map(),
    lists: new Map(),
  };

  async get<S extends CacheStoreName>(store: S, key: string): Promise<CacheStores[S] | undefined> {
    const row = this.stores[store].get(key);
    return row && structuredClone(row);
  }

  async put<S extends CacheStoreName>(store: S, rows: CacheStores[S][]): Promise<void> {
    const map = this.stores[store] as Map<string, CacheStores[S]>;
    for (const row of rows) map.set(row.key, structuredClone(row));
  }

  async delete(store: CacheStoreName, keys: string[]): Promise<void> {
    for (const key of keys) this.stores[store].delete(key);
  }

  async count(store: CacheStoreName): Promise<number> {
    return this.stores[store].size;
  }

  async keysByUse(store: CacheStoreName): Promise<string[]> {
    const rows: { key: string; usedAt: number }[] = [...this.stores[store].values()];
    return rows.sort((a, b) => a.usedAt - b.usedAt).map((r) => r.key);
  }
}

export interface FeedCacheOptions {
  limits?: Partial<{ notes: number; feeds: number; profiles: number; lists: number }>;
  now?: () => number;
}

export class FeedCache {
  private readonly limits: { notes: number; feeds: number; profiles: number; lists: number };
  private readonly now: () => number;
  /** Writes run one after another so eviction never races a put. */
  private queue: Promise<unknown> = Promise.resolve();
  private lastUsedAt = 0;
  /** Rows read ahead at worker start, by key: the first openFeed and feed list then need no disk read. */
  private readonly ahead = new Map<string, CachedPage | CachedList>();
  private preloading: Promise<void> | undefined;
  private preloadingLists: Promise<void> | undefined;

  constructor(
    private readonly db: CacheDb,
    options: FeedCacheOptions = {},
  ) {
    this.limits = {
      notes: CACHED_NOTES_PER_FEED,
      feeds: CACHED_FEEDS,
      profiles: CACHED_PROFILES,
      lists: CACHED_LISTS,
      ...options.limits,
    };
    this.now = options.now ?? Date.now;
  }

  static pageKey(spec: string, viewer: string | undefined): string {
    return `${viewer ?? ''}\n${spec}`;
  }

  /**
   * Reads every feed list and the most recently used page while the worker is still starting. Opening
   * IndexedDB in a new worker costs more than the reads; done here it overlaps the tab's own start.
   * The lists are small and asked first (the tab needs the home feed list before it opens a feed), so
   * they do not wait for the pages, whose structured clone is the slow part.
   */
  preload(pages = 1): Promise<void> {
    this.preloadingLists ??= this.safely(async () => {
      const listKeys = await this.db.keysByUse('lists');
      const rows = await Promise.all(listKeys.map((key) => this.db.get('lists', key)));
      for (const row of rows) if (row && !this.ahead.has(row.key)) this.ahead.set(row.key, row);
    }).then(() => undefined);
    this.preloading ??= this.safely(async () => {
      const pageKeys = await this.db.keysByUse('pages');
      const rows = await Promise.all(pageKeys.slice(-pages).map((key) => this.db.get('pages', key)));
      for (const row of rows) if (row && !this.ahead.has(row.key)) this.ahead.set(row.key, row);
    }).then(() => undefined);
    return Promise.all([this.preloadingLists, this.preloading]).then(() => undefined);
  }

  private async read<S extends 'pages' | 'lists'>(store: S, key: string): Promise<CacheStores[S] | undefined> {
    await (store === 'lists' ? this.preloadingLists : this.preloading);
    const early = this.ahead.get(key);
    if (early) {
      this.ahead.delete(key);
      return early as CacheStores[S];
    }
    return this.safely(() => this.db.get(store, key));
  }

  /** The cached top of a feed, or undefined; a hit counts as a use for eviction. */
  async loadPage(spec: string, viewer: string | undefined): Promise<FeedNote[] | undefined> {
    const key = FeedCache.pageKey(spec, viewer);
    const row = await this.read('pages', key);
    if (!row || row.v !== FEED_COPY_VERSION || row.notes.length === 0) return undefined;
    this.write(() => this.db.put('pages', [{ ...row, usedAt: this.stamp() }]));
    return row.notes;
  }

  /** Keeps the top of the feed as the network last showed it; resolves once written. */
  savePage(spec: string, viewer: string | undefined, notes: FeedNote[]): Promise<void> {
    const top = notes.slice(0, this.limits.notes);
    const usedAt = this.stamp();
    this.ahead.delete(FeedCache.pageKey(spec, viewer));
    return this.write(async () => {
      await this.db.put('pages', [{ key: FeedCache.pageKey(spec, viewer), usedAt, savedAt: usedAt, v: FEED_COPY_VERSION, notes: top }]);
      await this.evict('pages', this.limits.feeds);
      await this.db.put('profiles', profilesOf(top).map((profile) => ({ key: profile.pubkey, usedAt, profile })));
      await this.evict('profiles', this.limits.profiles);
    });
  }

  async loadProfile(pubkey: string): Promise<Profile | undefined> {
    return (await this.safely(() => this.db.get('profiles', pubkey)))?.profile;
  }

  async loadHomeFeeds(viewer: string | undefined): Promise<FeedDefinition[] | undefined> {
    return (await this.read('lists', `home\n${viewer ?? ''}`))?.feeds;
  }

  saveHomeFeeds(viewer: string | undefined, feeds: FeedDefinition[]): Promise<void> {
    const usedAt = this.stamp();
    this.ahead.delete(`home\n${viewer ?? ''}`);
    return this.write(async () => {
      await this.db.put('lists', [{ key: `home\n${viewer ?? ''}`, usedAt, feeds }]);
      await this.evict('lists', this.limits.lists);
    });
  }

  /** Waits for every queued write; for tests and for callers that must see their write land. */
  flush(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  private async evict(store: CacheStoreName, max: number): Promise<void> {
    const count = await this.db.count(store);
    if (count <= max) return;
    const keys = await this.db.keysByUse(store);
    await this.db.delete(store, keys.slice(0, count - max));
  }

  /** Strictly increasing use stamps: two uses in the same millisecond still order. */
  private stamp(): number {
    this.lastUsedAt = Math.max(this.now(), this.lastUsedAt + 1);
    return this.lastUsedAt;
  }

  private write(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task).catch(() => undefined);
    this.queue = run;
    return run;
  }

  private async safely<T>(task: () => Promise<T>): Promise<T | undefined> {
    try {
      return await task();
    } catch {
      return undefined;
    }
  }
}

/** Authors, reposters and reply parents of these cards, each once. */
function profilesOf(notes: FeedNote[]): Profile[] {
  const out = new Map<string, Profile>();
  for (const n of notes) {
    for (const p of [n.author, n.repostedBy, n.replyTo?.author]) if (p) out.set(p.pubkey, p);
  }
  return [...out.values()];
}

/** IndexedDB where the worker has it, nothing (no cache) where it has not. */
export function defaultFeedCache(): FeedCache | undefined {
  return typeof indexedDB === 'undefined' ? undefined : new FeedCache(new IdbCacheDb());
}
