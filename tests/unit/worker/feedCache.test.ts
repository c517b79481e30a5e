import { describe, expect, it } from 'vitest';
import { FeedCache, MemoryCacheDb, type CacheDb } from '../../../worker/feedCache.ts';
import { FeedRegistry } from '../../../worker/feedRegistry.ts';
import { Throttle } from '../../../worker/util/throttle.ts';
import type { CacheReply, FeedSnapshot } from '../../../core/types.ts';
import { keys, note } from '../helpers/feedNotes.ts';
import { FEED_COPY_VERSION } from '../../../core/config.ts';

describe('FeedCache', () => {
  it('keeps the top of each feed per viewer, bounded', async () => {
    const cache = new FeedCache(new MemoryCacheDb(), { limits: { notes: 3 } });
    await cache.savePage('spec-a', 'viewer-1', [note('1'), note('2'), note('3'), note('4')]);
    expect(keys((await cache.loadPage('spec-a', 'viewer-1'))!)).toEqual(['1', '2', '3']);
    expect(await cache.loadPage('spec-a', 'viewer-2')).toBeUndefined();
    expect(await cache.loadPage('spec-b', 'viewer-1')).toBeUndefined();
  });

  it('an empty page is kept (the feed is empty now) but never painted', async () => {
    const cache = new FeedCache(new MemoryCacheDb());
    await cache.savePage('s', undefined, [note('1')]);
    await cache.savePage('s', undefined, []);
    expect(await cache.loadPage('s', undefined)).toBeUndefined();
  });

  it('evicts the least recently used feed; reading a feed counts as use', async () => {
    let clock = 0;
    const db = new MemoryCacheDb();
    const cache = new FeedCache(db, { limits: { feeds: 2 }, now: () => clock++ });
    await cache.savePage('old', 'v', [note('1')]);
    await cache.savePage('newer', 'v', [note('2')]);
    const ids = async (spec: string) => (await cache.loadPage(spec, 'v'))?.map((n) => n.event.id);
    expect(await ids('old')).toEqual(['1']);
    await cache.flush();
    await cache.savePage('newest', 'v', [note('3')]);
    expect(await cache.loadPage('newer', 'v')).toBeUndefined();
    expect(await ids('old')).toEqual(['1']);
    expect(await ids('newest')).toEqual(['3']);
    expect(db.stores.pages.size).toBe(2);
  });

  it('remembers the profiles the pages showed, bounded', async () => {
    const db = new MemoryCacheDb();
    const cache = new FeedCache(db, { limits: { profiles: 2 } });
    await cache.savePage('s', undefined, [note('1', 1, 'alice'), note('2', 1, 'alice'), note('3', 1, 'bob')]);
    expect((await cache.loadProfile('alice'))?.name).toBe('name-alice');
    await cache.savePage('t', undefined, [note('4', 1, 'carol')]);
    expect(db.stores.profiles.size).toBe(2);
    expect((await cache.loadProfile('carol'))?.name).toBe('name-carol');
  });

  it('paints only pages saved with the current copy version (core/config.ts), like the tab-side copies', async () => {
    const db = new MemoryCacheDb();
    const cache = new FeedCache(db);
    await cache.savePage('s', 'v', [note('a')]);
    expect(db.stores.pages.get(FeedCache.pageKey('s', 'v'))?.v).toBe(FEED_COPY_VERSION);
    db.stores.pages.set(FeedCache.pageKey('old', 'v'), { key: FeedCache.pageKey('old', 'v'), usedAt: 1, savedAt: 1, notes: [note('b')] });
    db.stores.pages.set(FeedCache.pageKey('other', 'v'), { key: FeedCache.pageKey('other', 'v'), usedAt: 1, savedAt: 1, v: FEED_COPY_VERSION + 1, notes: [note('c')] });
    expect(keys((await cache.loadPage('s', 'v'))!)).toEqual(['a']);
    expect(await cache.loadPage('old', 'v')).toBeUndefined();
    expect(await cache.loadPage('other', 'v')).toBeUndefined();
  });

  it('keeps the home feed list per viewer', async () => {
    const cache = new FeedCache(new MemoryCacheDb());
    const feeds = [{ name: 'Legújabb', description: '', spec: '{"id":"all-notes"}', enabled: true }];
    await cache.saveHomeFeeds('v', feeds);
    expect(await cache.loadHomeFeeds('v')).toEqual(feeds);
    expect(await cache.loadHomeFeeds('w')).toBeUndefined();
  });

  it('reads the latest pages and lists ahead at start; a newer save wins over what was read ahead', async () => {
    const db = new MemoryCacheDb();
    const before = new FeedCache(db);
    await before.savePage('a', 'v', [note('1')]);
    await before.saveHomeFeeds('v', [{ name: 'A', description: '', spec: 'a', enabled: true }]);
    const started = new FeedCache(db);
    await started.preload();
    db.stores.pages.clear();
    db.stores.lists.clear();
    expect(keys((await started.loadPage('a', 'v'))!)).toEqual(['1']);
    expect((await started.loadHomeFeeds('v'))?.[0].name).toBe('A');

    const again = new FeedCache(db);
    await before.savePage('b', 'v', [note('old')]);
    await again.preload();
    await again.savePage('b', 'v', [note('new')]);
    expect(keys((await again.loadPage('b', 'v'))!)).toEqual(['new']);
  });

  it('a broken store means a cold start, not an error', async () => {
    const broken: CacheDb = {
      get: () => Promise.reject(new Error('quota')),
      put: () => Promise.reject(new Error('quota')),
      delete: () => Promise.reject(new Error('quota')),
      count: () => Promise.reject(new Error('quota')),
      keysByUse: () => Promise.reject(new Error('quota')),
    };
    const cache = new FeedCache(broken);
    await expect(cache.savePage('s', undefined, [note('1')])).resolves.toBeUndefined();
    await expect(cache.loadPage('s', undefined)).resolves.toBeUndefined();
    await expect(cache.loadHomeFeeds(undefined)).resolves.toBeUndefined();
  });
});

describe('Throttle.pushNow', () => {
  it('sends at once inside the window and drops the coalesced value it replaces', async () => {
    const out: number[] = [];
    const t = new Throttle<number>(10_000, (v) => out.push(v));
    t.push(1);
    t.push(2);
    t.pushNow(3);
    expect(out).toEqual([1, 3]);
    t.cancel();
  });
});

describe('FeedRegistry with a cache', () => {
  const page = (ids: string[]): CacheReply => ({
    events: [
      ...ids.map((id, i) => ({ id, pubkey: 'ab'.repeat(32), created_at: 2000 - i, kind: 1, tags: [], content: id, sig: '' })),
      { kind: 10000113, content: JSON.stringify({ since: 1, until: 2000, order_by: 'created_at', elements: ids }) },
    ],
  });

  it('paints the cached page at once, then the network page, and keeps the network page', async () => {
    const cache = new FeedCache(new MemoryCacheDb());
    await cache.savePage('spec', 'viewer', [note('aa'), note('bb')]);
    let answer: (r: CacheReply) => void = () => undefined;
    const request = () => new Promise<CacheReply>((resolve) => (answer = resolve));
    // A long window: the cached paint must still go out at once, not behind the empty loading state.
    const registry = new FeedRegistry({ request, userPubkey: () => 'viewer', cache, throttleMs: 60_000 });
    const seen: FeedSnapshot[] = [];
    const handle = registry.open('tab', 'spec', (s) => seen.push(s));

    await expect.poll(() => seen.some((s) => s.fromCache)).toBe(true);
    const painted = seen.find((s) => s.fromCache)!;
    expect(keys(painted.notes)).toEqual(['aa', 'bb']);
    expect(painted.status).toBe('ready');

    expect(seen.length).toBe(2);
    registry.close(handle);
    const quick = new FeedRegistry({ request, userPubkey: () => 'viewer', cache, throttleMs: 0 });
    seen.length = 0;
    const h2 = quick.open('tab', 'spec', (s) => seen.push(s));
    await expect.poll(() => seen.some((s) => s.fromCache)).toBe(true);
    answer(page(['cc', 'dd']));
    await expect.poll(() => seen.at(-1)?.notes.length).toBe(2);
    const last = seen.at(-1)!;
    expect(last.fromCache).toBeUndefined();
    expect(keys(last.notes)).toEqual(['cc', 'dd']);

    await cache.flush();
    expect(keys((await cache.loadPage('spec', 'viewer'))!)).toEqual(['cc', 'dd']);
    quick.close(h2);
  });
});
