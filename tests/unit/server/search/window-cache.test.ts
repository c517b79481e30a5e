/**
 * The orderby window cache (server/search/window-cache.ts) against a fake store that answers its two
 * statements from a list of notes: the plain statement's order and paging, which statements a hit, a
 * change of counts and a new note cost, what each kind of event drops, the bound on memory, and the
 * queries it leaves to the plain statement. tests/integration/search-window-cache.test.ts checks it
 * against the real statements on both stores.
 */
import { describe, expect, it } from 'vitest';
import type { NostrEvent } from '../../../../server/context.ts';
import { parseQuery } from '../../../../server/search/grammar.ts';
import type { SearchPage } from '../../../../server/search/sql.ts';
import { BUILDS_AT_ONCE, WindowCache } from '../../../../server/search/window-cache.ts';
import type { Queryable, SqlValue } from '../../../../server/store/db.ts';

const NOW = 1_700_000_000;

interface Note {
  id: string;
  t: number;
  likes: number;
  replies?: number;
}

const id = (n: number) => n.toString(16).padStart(64, '0');

/**
 * A store of notes for `orderby:<count>` with no text (params: the default kind, then created_at bounds):
 * newest first, up to the window's LIMIT; and the counts statement (json_each of ids).
 */
function fakeStore(notes: Note[]) {
  const statements: { sql: string; params: SqlValue[] }[] = [];
  const counts = (n: Note) => `${n.likes},${n.replies ?? 0},0,0`;
  const db: Queryable = {
    dialect: 'sqlite',
    all: () => Promise.reject(new Error('not used')),
    run: () => Promise.reject(new Error('not used')),
    async get<T>(sql: string, params: SqlValue[] = []) {
      statements.push({ sql, params });
      if (sql.includes('json_each')) {
        const ids = JSON.parse(String(params[0])) as string[];
        const found = ids.flatMap((x) => notes.filter((n) => n.id === x)).map((n) => `${n.id},${counts(n)}`);
        return { packed: found.length ? found.join(';') : null } as T;
      }
      const [, since, until] = params.map(Number);
      const limit = Number(/LIMIT (\d+)/.exec(sql)![1]);
      const rows = notes
        .filter((n) => (params.length < 3 || (n.t >= since && n.t <= until)))
        .sort((a, b) => b.t - a.t)
        .slice(0, limit);
      return { n: rows.length, packed: rows.length ? rows.map((n) => `${n.id},${n.t},${n.t},${counts(n)}`).join(';') : null } as T;
    },
  };
  return { db, statements };
}

const note = (kind: number, created_at: number, tags: string[][] = []): NostrEvent =>
  ({ id: id(created_at + 1_000_000), pubkey: 'f'.repeat(64), kind, created_at, tags, content: '', sig: '' }) as NostrEvent;

async function page(cache: WindowCache, db: Queryable, query: string, p: Partial<SearchPage> = {}, rankWindow?: number) {
  const items = await cache.page(db, parseQuery(query, NOW), { defaultKinds: [1], dialect: 'sqlite', page: { limit: 20, offset: 0, ...p }, rankWindow });
  return items?.map((i) => `${i.id.replace(/^0+/, '')}:${i.key}`) ?? null;
}

describe('orderby window cache', () => {
  const notes = (): Note[] => [
    { id: id(1), t: 100, likes: 3 },
    { id: id(2), t: 200, likes: 5 },
    { id: id(3), t: 200, likes: 3 },
    { id: id(4), t: 300, likes: 3 },
    { id: id(5), t: 400, likes: 0, replies: 2 },
    { id: id(6), t: 200, likes: 3 },
  ];

  it("pages as the plain statement: count, then newest, then id; RANGE bounds on the count; offset and limit", async () => {
    const { db } = fakeStore(notes());
    const cache = new WindowCache();
    expect(await page(cache, db, 'orderby:likes')).toEqual(['2:5', '4:3', '3:3', '6:3', '1:3', '5:0']);
    expect(await page(cache, db, 'orderby:likes', { limit: 2, offset: 2 })).toEqual(['3:3', '6:3']);
    expect(await page(cache, db, 'orderby:likes', { until: 4, since: 1 })).toEqual(['4:3', '3:3', '6:3', '1:3']);
    expect(await page(cache, db, 'orderby:likes', { until: 4, offset: 3 })).toEqual(['1:3', '5:0']);
    expect(await page(cache, db, 'orderby:likes', { limit: 0 })).toEqual([]);
    expect(await page(cache, db, 'orderby:replies', { limit: 2 })).toEqual(['5:2', '4:0']);
  });

  it('reads a window once for every metric and page', async () => {
    const { db, statements } = fakeStore(notes());
    const cache = new WindowCache();
    await page(cache, db, 'orderby:likes');
    await page(cache, db, 'orderby:replies', { offset: 3 });
    await page(cache, db, 'orderby:score', { since: 1 });
    expect(statements).toHaveLength(1);
    expect(cache.stats).toEqual({ windows: 1, rows: 6 });
  });

  it('shares one read among concurrent requests of a window, and reads at most BUILDS_AT_ONCE windows at once', async () => {
    const { db, statements } = fakeStore(notes());
    let inFlight = 0;
    let most = 0;
    const get = db.get.bind(db);
    db.get = async (sql, params) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return get(sql, params);
    };
    const cache = new WindowCache();
    const queries = Array.from({ length: BUILDS_AT_ONCE + 2 }, (_, i) => `orderby:likes since:2020-01-${String(i + 1).padStart(2, '0')}`);
    const pages = await Promise.all(queries.flatMap((q) => [page(cache, db, q), page(cache, db, q, { limit: 2 })]));
    expect(statements).toHaveLength(queries.length);
    expect(most).toBe(BUILDS_AT_ONCE);
    for (let i = 0; i < pages.length; i += 2) {
      expect(pages[i]).toEqual(['2:5', '4:3', '3:3', '6:3', '1:3', '5:0']);
      expect(pages[i + 1]).toEqual(['2:5', '4:3']);
    }
  });

  it('reads again the counts of the notes it holds that changed, and of nothing else', async () => {
    const store = notes();
    const { db, statements } = fakeStore(store);
    const cache = new WindowCache();
    await page(cache, db, 'orderby:likes');
    cache.statsChanged(id(99));
    await page(cache, db, 'orderby:likes');
    expect(statements).toHaveLength(1);
    store[0].likes = 9;
    cache.statsChanged(id(1));
    expect(await page(cache, db, 'orderby:likes', { limit: 2 })).toEqual(['1:9', '2:5']);
    expect(statements).toHaveLength(2);
    expect(JSON.parse(String(statements[1].params[0]))).toEqual([id(1)]);
    store[1].likes = 0;
    cache.allStatsChanged();
    expect(await page(cache, db, 'orderby:likes', { limit: 2 })).toEqual(['1:9', '4:3']);
    expect(JSON.parse(String(statements[2].params[0]))).toHaveLength(6);
  });

  it("merges a new note by reading its time span only, and keeps to the window's size", async () => {
    const store = notes();
    const { db, statements } = fakeStore(store);
    const cache = new WindowCache();
    expect(await page(cache, db, 'orderby:likes', {}, 4)).toEqual(['2:5', '4:3', '3:3', '5:0']);
    store.push({ id: id(7), t: 250, likes: 4 });
    cache.onEvent(note(1, 250));
    expect(await page(cache, db, 'orderby:likes', {}, 4)).toEqual(['2:5', '7:4', '4:3', '5:0']);
    expect(statements[1].params).toEqual([1, 250, 251]);
    // Two seconds or more older than the oldest note of a full window: it cannot enter, nothing is read.
    store.push({ id: id(8), t: 50, likes: 50 });
    cache.onEvent(note(1, 50));
    expect(await page(cache, db, 'orderby:likes', {}, 4)).toEqual(['2:5', '7:4', '4:3', '5:0']);
    expect(statements).toHaveLength(2);
    // A kind the query does not cover changes nothing.
    cache.onEvent(note(20, 260));
    await page(cache, db, 'orderby:likes', {}, 4);
    expect(statements).toHaveLength(2);
  });

  it('drops windows on deletions, on contact lists when it reads follows, on new versions of replaceable notes it covers', async () => {
    const { db, statements } = fakeStore(notes());
    const cache = new WindowCache();
    const queries = ['orderby:likes', 'orderby:likes scope:notmyfollows', 'orderby:likes kind:30023'];
    const all = async () => {
      for (const q of queries) await cache.page(db, parseQuery(q, NOW), { defaultKinds: [1], dialect: 'sqlite', viewer: 'a'.repeat(64), page: { limit: 5, offset: 0 } });
      return statements.length;
    };
    expect(await all()).toBe(3);
    cache.onEvent(note(3, 500));
    expect(await all()).toBe(4);
    cache.onEvent(note(30023, 500, [['d', 'x']]));
    expect(await all()).toBe(5);
    cache.onEvent(note(5, 500, [['e', id(1)]]));
    expect(await all()).toBe(8);
  });

  it('keeps its rows within the bound, dropping the least recently used windows', async () => {
    const { db } = fakeStore(notes());
    const cache = new WindowCache(13);
    await page(cache, db, 'orderby:likes');
    await page(cache, db, 'orderby:likes since:2020-01-01');
    await page(cache, db, 'orderby:likes');
    await page(cache, db, 'orderby:likes until:2030-01-01');
    expect(cache.stats).toEqual({ windows: 2, rows: 12 });
  });

  it('leaves queries that other events can change, or that are not ranked by a count, to the plain statement', async () => {
    const { db, statements } = fakeStore(notes());
    const cache = new WindowCache();
    for (const q of ['orderby:likes minlikes:2', 'orderby:relevance kávé', 'kávé', 'orderby:likes scope:myfollowsinteractions',
      'orderby:likes since:lastweek', 'orderby:likes minlongreplies:1', `orderby:likes zappedby:${'b'.repeat(64)}`, 'orderby:likes repliestokind:1',
      'orderby:likes features:bookmarked-by-follows']) {
      expect(await page(cache, db, q), q).toBeNull();
    }
    expect(statements).toEqual([]);
  });
});
