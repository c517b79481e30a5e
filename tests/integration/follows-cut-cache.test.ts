/**
 * The follows page from memory (server/cache/follows-cache.ts, filled by the page's own per-author cut
 * statements) must answer exactly what the plain statements answer: the same posts, in the same order,
 * for every follow set, page size, offset, until/since and kind of page, with the cache empty, warm from
 * other viewers' cuts, and after new notes (some in a second that already has posts) and deletions.
 * Three answers are compared on every page: the running server's (cached), the same code on a handle
 * that has no caches, and a join of follows and posts; and for some pages the whole reply over the socket
 * against the bundle enriched from the uncached answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheKind } from '../../core/kinds.ts';
import { enrich, type FeedItem } from '../../server/cache/enrich.ts';
import { followsFeedItems, type FollowsPage } from '../../server/cache/follows-feed.ts';
import type { Queryable } from '../../server/store/db.ts';
import { startCacheServer, watchReads, type CacheTestServer, type StoreKind } from './cache-server.ts';
import type { CacheClient } from './cache-client.ts';
import { person, sign, type Person } from './people.ts';

type Signed = ReturnType<typeof sign>;

/** A fixed sequence, so a failure repeats. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Kind {
  kinds: number[];
  includeReplies: boolean;
}
const PAGE_KINDS: Kind[] = [
  { kinds: [1, 6], includeReplies: false },
  { kinds: [1], includeReplies: false },
  { kinds: [1, 6], includeReplies: true },
];

describe.each(['sqlite', 'postgres'] as const)('follows page from the cut cache equals the uncached page (%s)', (store: StoreKind) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  let bare: Queryable;
  const rand = rng(store === 'sqlite' ? 18 : 81);
  const authors: Person[] = Array.from({ length: 24 }, () => person());
  const viewers: Person[] = Array.from({ length: 10 }, () => person());
  const posted: Signed[] = [];
  let base = 0;
  let seq = 0;

  const publish = async (events: Signed[]) => {
    const results = await srv.ctx.importer.importEvents(events);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  };
  /** Posts of `who` in a narrow window, so many share a second with others. */
  const postsOf = (who: Person, n: number, from: number, span: number): Signed[] => {
    const out: Signed[] = [];
    for (let i = 0; i < n; i++) {
      const at = from + Math.floor(rand() * span);
      const r = rand();
      const target = posted.length ? posted[Math.floor(rand() * posted.length)] : undefined;
      if (r < 0.2 && target) out.push(sign(who, 1, at, `válasz ${i}`, [['e', target.id, '', 'root'], ['p', target.pubkey]]));
      else if (r < 0.3 && target) out.push(sign(who, 6, at, '', [['e', target.id], ['p', target.pubkey]]));
      else out.push(sign(who, 1, at, `jegyzet ${i}`));
    }
    posted.push(...out);
    return out;
  };

  /** The meaning of the page: a join of follows and posts, sorted, cut. */
  const joined = async (viewer: string, k: Kind, p: FollowsPage): Promise<FeedItem[]> => {
    const asc = p.since !== undefined && p.until === undefined;
    const dir = asc ? 'ASC' : 'DESC';
    const params: (string | number)[] = [viewer, ...k.kinds];
    let where = `f.pubkey = ? AND p.kind IN (${k.kinds.map(() => '?').join(', ')})${k.includeReplies ? '' : ' AND p.is_reply = 0'}`;
    if (p.until !== undefined) (where += ' AND p.created_at <= ?'), params.push(p.until);
    if (p.since !== undefined) (where += ' AND p.created_at >= ?'), params.push(p.since);
    const rows = await bare.all<{ id: string; k: number | string }>(
      `SELECT p.event_id AS id, p.created_at AS k FROM follows f JOIN posts p ON p.pubkey = f.follows WHERE ${where}
       ORDER BY p.created_at ${dir}, p.event_id ${dir} LIMIT ? OFFSET ?`,
      [...params, p.limit, p.offset],
    );
    return rows.map((r) => ({ id: r.id, key: Number(r.k) }));
  };

  /** A random page: sizes, offsets and bounds around where the posts are. */
  const randomPage = (): FollowsPage => {
    const limit = [1, 5, 20, 20, 20, 40, 60][Math.floor(rand() * 7)];
    const offset = rand() < 0.7 ? 0 : Math.floor(rand() * 30);
    const at = () => base + Math.floor(rand() * 1_300);
    const r = rand();
    if (r < 0.5) return { limit, offset };
    if (r < 0.75) return { limit, offset, until: at() };
    if (r < 0.9) return { limit, offset, since: at() };
    const since = at();
    return { limit, offset, since, until: since + Math.floor(rand() * 400) };
  };

  let compared = 0;
  /** Every viewer's first page, then `n` random pages of random viewers, each compared three ways. */
  const compareMany = async (n: number) => {
    const pages: [Person, Kind, FollowsPage][] = [];
    for (const v of viewers) for (const k of PAGE_KINDS) pages.push([v, k, { limit: 20, offset: 0 }]);
    for (let i = 0; i < n; i++) pages.push([viewers[Math.floor(rand() * viewers.length)], PAGE_KINDS[Math.floor(rand() * PAGE_KINDS.length)], randomPage()]);
    for (const [v, k, p] of pages) {
      const cached = await followsFeedItems(srv.ctx.db, v.pk, k.kinds, k.includeReplies, p);
      const uncached = await followsFeedItems(bare, v.pk, k.kinds, k.includeReplies, p);
      const what = JSON.stringify({ viewer: viewers.indexOf(v), ...k, ...p });
      expect(uncached, what).toEqual(await joined(v.pk, k, p));
      expect(cached, what).toEqual(uncached);
      compared++;
    }
  };

  beforeAll(async () => {
    srv = await startCacheServer(store);
    const db = srv.ctx.db;
    // The same store without the server's caches (hot-cache.ts keys them by the handle).
    bare = { dialect: db.dialect, all: (sql, params) => db.all(sql, params), get: (sql, params) => db.get(sql, params), run: (sql, params) => db.run(sql, params) };
    c = await srv.connect();
    base = srv.ctx.now() - 100_000;
    // Busy authors (more posts than a page and than the cache keeps) and quiet ones, within ~1,000 s.
    const events: Signed[] = [];
    // Two of the busy ones post ~70 notes within a minute: many seconds hold several, also where a page or an entry ends.
    for (let i = 0; i < authors.length; i++) events.push(...postsOf(authors[i], i < 6 ? 70 : Math.floor(rand() * 15), i < 2 ? base + 500 : base, i < 2 ? 60 : 1_000));
    for (let i = 0; i < viewers.length; i++) {
      const follows = authors.filter(() => rand() < (i === 0 ? 1 : 0.1 + rand() * 0.5));
      // One viewer follows nobody at all.
      if (i !== viewers.length - 1) events.push(sign(viewers[i], 3, base, '', follows.map((a) => ['p', a.pk])));
    }
    await publish(events);
  }, 120_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it('with the cache empty and then warm, every page equals the uncached one', async () => {
    await compareMany(150);
    await compareMany(150);
  }, 120_000);

  it('after new notes (some in a second that has posts) and deletions, every page still does', async () => {
    const fresh: Signed[] = [];
    for (const a of authors.slice(0, 8)) fresh.push(...postsOf(a, 4, base + 900, 300));
    await publish(fresh);
    await compareMany(100);
    const doomed = [...posted.slice(0, 40).filter((_, i) => i % 3 === 0), ...fresh.filter((_, i) => i % 4 === 0)];
    const byAuthor = new Map<string, string[]>();
    for (const e of doomed) byAuthor.set(e.pubkey, [...(byAuthor.get(e.pubkey) ?? []), e.id]);
    await publish(
      [...byAuthor].map(([pk, ids]) => sign(authors.find((a) => a.pk === pk)!, 5, base + 2_000, '', ids.map((id) => ['e', id]))),
    );
    await compareMany(150);
    expect(compared).toBeGreaterThan(600);
  }, 120_000);

  it('an entry cut inside a second does not stand for the rest of that second', async () => {
    const writer = person();
    const reader = person();
    const second = base + 5_000;
    await publish([sign(writer, 1, second, 'egy'), sign(writer, 1, second, 'kettő'), sign(writer, 1, second, 'három'), sign(reader, 3, base, '', [['p', writer.pk]])]);
    const pages: FollowsPage[] = [{ limit: 2, offset: 0 }, { limit: 20, offset: 0, since: second }, { limit: 3, offset: 0 }, { limit: 20, offset: 0, since: second, until: second }];
    for (const p of pages) {
      const cached = await followsFeedItems(srv.ctx.db, reader.pk, [1, 6], false, p);
      expect(cached, JSON.stringify(p)).toEqual(await followsFeedItems(bare, reader.pk, [1, 6], false, p));
      expect(cached).toHaveLength(Math.min(3, p.limit));
    }
  });

  it('the whole reply over the socket equals the bundle of the uncached page', async () => {
    for (let i = 0; i < 40; i++) {
      const v = viewers[i % viewers.length];
      const p = i < viewers.length ? { limit: 20, offset: 0 } : randomPage();
      const reply = await c.req(`p${seq++}`, 'mega_feed_directive', { spec: JSON.stringify({ id: 'latest', kind: 'notes' }), user_pubkey: v.pk, ...p });
      expect(reply.notices).toEqual([]);
      const items = await followsFeedItems(bare, v.pk, [1, 6], false, p);
      const expected = (await enrich(bare, items, { viewer: v.pk, orderBy: 'created_at' })).objects;
      const got = JSON.parse(JSON.stringify(reply.events)) as unknown[];
      const want = JSON.parse(JSON.stringify(expected)) as unknown[];
      if (store === 'sqlite') expect(got, JSON.stringify(p)).toEqual(want);
      else {
        // PostgreSQL returns an IN list's rows in no set order, so referenced events and their counters come
        // in an order the server's events cache decides (data.ts inQueryOrder follows SQLite's): same objects, same page.
        const sorted = (xs: unknown[]) => xs.map((x) => JSON.stringify(x)).sort();
        expect(sorted(got), JSON.stringify(p)).toEqual(sorted(want));
        expect(got.at(-1), JSON.stringify(p)).toEqual(want.at(-1));
      }
    }
  }, 120_000);

  it.runIf(store === 'sqlite')('a batch of authors past the cut seeks each author in the feed index', async () => {
    const batches: [string, unknown[]][] = [];
    watchReads(srv, (sql, params) => {
      if (/pubkey IN \(/.test(sql) && /FROM posts/.test(sql)) batches.push([sql, params]);
    });
    // A viewer following everyone, with a page deeper than the cache holds: once the cut is known, the rest go in batches.
    await followsFeedItems(srv.ctx.db, viewers[0].pk, [1, 6], false, { limit: 20, offset: 0, until: base + 400 });
    expect(batches.length).toBeGreaterThan(0);
    const [sql, params] = batches[0];
    const plan = await bare.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params as never[]);
    expect(plan.map((r) => r.detail).join(' | ')).toMatch(/^SEARCH posts USING (COVERING )?INDEX posts_author_\w+ \(pubkey=\?/);
  });

  it('limit 0 is an empty page, not a NOTICE', async () => {
    // A reader whose author is not in memory yet: the page goes through the statements.
    const writer = person();
    const reader = person();
    await publish([sign(writer, 1, base + 6_000, 'még senki sem olvasta'), sign(reader, 3, base, '', [['p', writer.pk]])]);
    const reply = await c.req(`z${seq++}`, 'mega_feed_directive', { spec: JSON.stringify({ id: 'latest', kind: 'notes' }), user_pubkey: reader.pk, limit: 0 });
    expect(reply.notices).toEqual([]);
    const ranges = reply.events.filter((e) => e.kind === CacheKind.RANGE);
    expect(ranges).toHaveLength(1);
    expect(JSON.parse(String(ranges[0].content)).elements).toEqual([]);
    for (const offset of [0, 3]) {
      const feed = await c.req(`z${seq++}`, 'feed', { pubkey: reader.pk, notes: 'follows', limit: 0, offset });
      expect(feed.notices).toEqual([]);
      expect(JSON.parse(String(feed.events.find((e) => e.kind === CacheKind.RANGE)!.content)).elements).toEqual([]);
      // Where an author's posts come from a statement (no cache here), the page must not need a `limit`-th post.
      expect(await followsFeedItems(bare, reader.pk, [1, 6], false, { limit: 0, offset })).toEqual([]);
    }
  });
});
