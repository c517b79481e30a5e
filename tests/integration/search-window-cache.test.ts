/**
 * orderby:<count> pages come from ranking windows kept in memory (server/search/window-cache.ts): every page
 * must be the page the plain statement (sql.ts buildSearch) returns at that moment — same ids, same order,
 * same keys — on both stores, after likes, replies, zaps, new notes (newer and older than the window),
 * a contact list and a deletion. A window of 12 notes makes the trimming to the newest matches count too.
 */
import { nip19 } from 'nostr-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedItem } from '../../server/cache/enrich.ts';
import { hotCaches } from '../../server/cache/hot-cache.ts';
import { searchItems } from '../../server/search/engine.ts';
import { parseQuery } from '../../server/search/grammar.ts';
import { buildSearch, type SearchPage } from '../../server/search/sql.ts';
import type { SqlValue } from '../../server/store/db.ts';
import { startCacheServer, watchReads, type CacheTestServer } from './cache-server.ts';
import { person, sign, type Person } from './people.ts';

const PAGES: SearchPage[] = [
  { limit: 20, offset: 0 },
  { limit: 5, offset: 0 },
  { limit: 5, offset: 5 },
  { limit: 7, offset: 3 },
  { limit: 100, offset: 0 },
  { limit: 10, offset: 0, since: 1 },
  { limit: 10, offset: 1, until: 2 },
  { limit: 10, offset: 0, since: 1, until: 3 },
];
/** The server's own window, and one smaller than the notes here. */
const WINDOWS = [undefined, 12];

describe.each(['sqlite', 'postgres'] as const)('orderby windows in memory answer as the plain statement (%s)', (store) => {
  let srv: CacheTestServer;
  let windowReads = 0;
  const fans = Array.from({ length: 6 }, () => person());
  const dave = person();
  const wallet = person();
  let notes: ReturnType<typeof sign>[] = [];
  let now = 0;

  const publish = async (...events: ReturnType<typeof sign>[]) => {
    const results = await srv.ctx.importer.importEvents(events);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  };
  const like = (fan: Person, n: ReturnType<typeof sign>, at = n.created_at + 1) => sign(fan, 7, at, '+', [['e', n.id], ['p', n.pubkey]]);
  const reply = (fan: Person, n: ReturnType<typeof sign>, at = n.created_at + 2) =>
    sign(fan, 1, at, 'Válasz: igen', [['e', n.id, '', 'root'], ['p', n.pubkey]]);

  beforeAll(async () => {
    srv = await startCacheServer(store);
    now = srv.ctx.now();
    const { bob, carol } = srv.net;
    const authors = [bob, carol, dave];
    notes = Array.from({ length: 30 }, (_, i) =>
      sign(authors[i % 3], 1, now - 3000 + i * 20, i % 4 === 3 ? `Tea délután ${i}` : `Reggeli kávé és pogácsa ${i}`),
    );
    const events = [...notes];
    // Uneven counts, so they both differ and tie (ties go by created_at, then id).
    notes.forEach((n, i) => {
      for (let f = 0; f < i % 5; f++) events.push(like(fans[f], n, n.created_at + 1 + f));
      for (let f = 0; f < i % 3; f++) events.push(reply(fans[f + 2], n, n.created_at + 2 + f));
    });
    await publish(...events);
    watchReads(srv, (sql) => {
      // The window's own statement (PostgreSQL reads its counts with a second one, not counted here).
      if (/COUNT\(\*\) AS n, (group_concat|string_agg)/.test(sql)) windowReads++;
    });
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  const QUERIES = () => [
    'kávé orderby:likes',
    'kávé orderby:score',
    'kávé orderby:satszapped',
    'orderby:replies',
    'tea OR pogácsa orderby:replies',
    'kávé scope:myfollows orderby:likes',
    `from:${srv.net.bob.pk} orderby:likes`,
    'kind:1 orderby:score',
  ];

  const plain = async (query: string, page: SearchPage, rankWindow?: number): Promise<FeedItem[]> => {
    const db = srv.ctx.db;
    const b = buildSearch(parseQuery(query, now), { dialect: db.dialect, viewer: srv.net.alice.pk, defaultKinds: [1], page, rankWindow });
    return (await db.all<{ id: string; k: number | string | null }>(b.sql, b.params)).map((r) => ({ id: r.id, key: Number(r.k ?? 0) }));
  };
  const cached = (query: string, page: SearchPage, rankWindow?: number) =>
    searchItems(srv.ctx.db, parseQuery(query, now), { viewer: srv.net.alice.pk, defaultKinds: [1], page, rankWindow });

  /** Every query, page and window size, cached against plain; returns how many window statements ran. */
  const compareAll = async () => {
    const before = windowReads;
    for (const query of QUERIES()) {
      for (const rankWindow of WINDOWS) {
        for (const page of PAGES) {
          expect(await cached(query, page, rankWindow), `${query} window ${rankWindow ?? 'default'} ${JSON.stringify(page)}`).toEqual(
            await plain(query, page, rankWindow),
          );
        }
      }
    }
    return windowReads - before;
  };

  it('builds each window once and pages it from memory', async () => {
    // kávé orderby:likes / score / satszapped share one window.
    expect(await compareAll()).toBe(2 * (QUERIES().length - 2));
    expect(await compareAll()).toBe(0);
    expect(hotCaches(srv.ctx.db)!.searchWindows.stats.windows).toBe(2 * (QUERIES().length - 2));
    const top = (await plain('kávé orderby:likes', { limit: 100, offset: 0 })).map((r) => r.key);
    expect(new Set(top).size).toBeGreaterThan(2);
  });

  it('follows likes and replies on notes it holds', async () => {
    const newest = notes[notes.length - 1];
    await publish(like(fans[0], notes[2]), like(fans[1], notes[2]), like(fans[2], notes[2]), like(fans[3], newest), reply(fans[4], notes[5]));
    await compareAll();
  });

  it('follows zaps on the notes it holds', async () => {
    const request = sign(fans[5], 9734, notes[8].created_at + 50, 'Köszi!', [['p', notes[8].pubkey], ['e', notes[8].id], ['amount', '21000']]);
    await publish(
      sign(wallet, 9735, notes[8].created_at + 51, '', [
        ['p', notes[8].pubkey],
        ['e', notes[8].id],
        ['bolt11', 'lnbc210n1pjtestpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypq'],
        ['description', JSON.stringify(request)],
      ]),
    );
    expect((await plain('kávé orderby:satszapped', { limit: 1, offset: 0 }))[0]).toEqual({ id: notes[8].id, key: 21 });
    await compareAll();
  });

  it('follows quotes named only in the text, which the hot cache cannot name either', async () => {
    const before = await plain('kávé orderby:score', { limit: 100, offset: 0 });
    await publish(sign(fans[4], 1, now - 200, `Nézd: nostr:${nip19.noteEncode(notes[9].id)}`));
    expect(await plain('kávé orderby:score', { limit: 100, offset: 0 })).not.toEqual(before);
    await compareAll();
  });

  it('takes in new notes, newer and older than the window, and reads only their time span again', async () => {
    const { bob } = srv.net;
    const newer = sign(bob, 1, now - 100, 'Kávé és még több kávé');
    const middle = sign(dave, 1, notes[20].created_at + 5, 'Délutáni kávé');
    const older = sign(bob, 1, notes[0].created_at - 500, 'Régi kávé pogácsa');
    await publish(newer, middle, older, like(fans[0], newer), like(fans[1], newer), like(fans[0], older), like(fans[1], older), like(fans[2], older));
    await compareAll();
    const ids = (await cached('kávé orderby:likes', { limit: 100, offset: 0 })).map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining([newer.id, middle.id, older.id]));
    expect((await cached('kávé orderby:likes', { limit: 100, offset: 0 }, 12)).map((r) => r.id)).not.toContain(older.id);
  });

  it('is exact when a like and a new note commit while a window is being read, and shares one read among concurrent requests', async () => {
    const { bob } = srv.net;
    const hot = hotCaches(srv.ctx.db)!.searchWindows;
    hot.clear();
    const db = srv.ctx.db;
    const get = db.get.bind(db);
    const fresh = sign(bob, 1, now - 50, 'Friss kávé');
    let interleaved = false;
    // Right after the window's rows come back (before PostgreSQL's counts statement), the events commit.
    (db as { get: typeof db.get }).get = async <T,>(sql: string, params?: SqlValue[]) => {
      const row = await get<T>(sql, params);
      if (!interleaved && /COUNT\(\*\) AS n, (group_concat|string_agg)/.test(sql)) {
        interleaved = true;
        await publish(like(fans[3], notes[1]), like(fans[4], notes[1]), fresh);
      }
      return row;
    };
    try {
      const before = windowReads;
      const page = { limit: 100, offset: 0 };
      const answers = await Promise.all(Array.from({ length: 5 }, () => cached('kávé orderby:likes', page)));
      expect(interleaved).toBe(true);
      // The window once for all five, then the new note's time span once.
      expect(windowReads - before).toBe(2);
      // Each answer is the plain statement's of a moment during the read; the next is today's.
      for (const a of answers) expect(a).toEqual(answers[0]);
      expect(await cached('kávé orderby:likes', page)).toEqual(await plain('kávé orderby:likes', page));
      expect((await cached('kávé orderby:likes', page)).map((r) => r.id)).toContain(fresh.id);
    } finally {
      (db as { get: typeof db.get }).get = get;
    }
    await compareAll();
  });

  it('drops the windows a contact list or a deletion changes', async () => {
    const { alice, bob, carol } = srv.net;
    const scoped = async () => (await cached('kávé scope:myfollows orderby:likes', { limit: 100, offset: 0 })).map((r) => r.id);
    expect((await scoped()).some((id) => notes.find((n) => n.id === id)?.pubkey === dave.pk)).toBe(false);
    await publish(sign(alice, 3, now - 10, '', [['p', bob.pk], ['p', carol.pk], ['p', dave.pk]]));
    expect((await scoped()).some((id) => notes.find((n) => n.id === id)?.pubkey === dave.pk)).toBe(true);
    await compareAll();
    await publish(sign(dave, 5, now - 5, '', [['e', notes[29].id], ['e', notes[26].id]]));
    await compareAll();
    expect((await cached('kávé orderby:likes', { limit: 100, offset: 0 })).map((r) => r.id)).not.toContain(notes[26].id);
  });
});
