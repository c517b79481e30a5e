/**
 * The follows feed keeps each viewer's follow list and each author's newest posts in memory
 * (server/cache/follows-cache.ts, issue 18's load test): a repeated page must not read the posts
 * again, pages past the cached rows must still be exact, and a new note, a deletion, a follow, an
 * unfollow and a mute must show in the very next page, on SQLite and PostgreSQL, and a note stored
 * through another process on the same PostgreSQL must reach this process's page (the live bridge).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheKind } from '../../core/kinds.ts';
import type { RunningServer } from '../support/server-process.ts';
import { twoProcessesOnPostgres } from '../support/two-processes.ts';
import { until } from '../support/until.ts';
import { CacheClient as Client } from './cache-client.ts';
import { CACHED_POSTS } from '../../server/cache/follows-cache.ts';
import { startCacheServer, watchReads, type CacheTestServer, type StoreKind } from './cache-server.ts';
import type { CacheClient } from './cache-client.ts';
import { person, sign, type Person } from './people.ts';

type Signed = ReturnType<typeof sign>;

describe.each(['sqlite', 'postgres'] as const)('follows feed from memory (%s)', (store: StoreKind) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  let authorReads = 0;
  let seq = 0;
  const vera = person();
  const writer = person();
  /** writer's top-level notes, newest first. */
  let notes: Signed[] = [];
  let base = 0;

  const publish = async (...events: Signed[]) => {
    const results = await srv.ctx.importer.importEvents(events);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  };
  /** The ids of vera's follows page, in reply order. */
  const page = async (command: 'feed' | 'mega_feed_directive', extra: Record<string, unknown> = {}) => {
    const kwargs =
      command === 'feed'
        ? { pubkey: vera.pk, notes: 'follows', limit: 20, user_pubkey: vera.pk, ...extra }
        : { spec: JSON.stringify({ id: 'latest', kind: 'notes' }), user_pubkey: vera.pk, limit: 20, ...extra };
    const r = await c.req(`f${seq++}`, command, kwargs);
    expect(r.notices).toEqual([]);
    const rangeObj = r.events.find((e) => e.kind === CacheKind.RANGE)!;
    return (JSON.parse(String(rangeObj.content)) as { elements: string[] }).elements;
  };
  const ids = (events: Signed[]) => events.map((e) => e.id);

  beforeAll(async () => {
    srv = await startCacheServer(store);
    watchReads(srv, (sql) => {
      if (/FROM posts WHERE pubkey = \?/.test(sql)) authorReads++;
    });
    c = await srv.connect();
    base = srv.ctx.now() - 10_000;
    // More notes than the cache keeps per author, with replies among them that the page leaves out.
    const all: Signed[] = [];
    for (let i = 0; i < CACHED_POSTS + 30; i++) {
      all.push(sign(writer, 1, base + i * 10, `Jegyzet ${i}`));
      if (i % 4 === 0) all.push(sign(writer, 1, base + i * 10 + 1, `Válasz ${i}`, [['e', srv.net.n1.id, '', 'root'], ['p', srv.net.bob.pk]]));
    }
    await publish(...all, sign(vera, 3, base, '', [['p', writer.pk]]));
    notes = all.filter((e) => !e.tags.length).sort((a, b) => b.created_at - a.created_at);
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it('a repeated first page is served from memory with the same answer', async () => {
    authorReads = 0;
    const first = await page('feed');
    expect(first).toEqual(ids(notes.slice(0, 20)));
    const reads = authorReads;
    expect(reads).toBeGreaterThan(0);
    expect(await page('feed')).toEqual(first);
    expect(await page('mega_feed_directive')).toEqual(first);
    expect(authorReads).toBe(reads);
  });

  it('pages further back, beyond the cached rows, and forward from `since` are exact', async () => {
    const older = (until: number) => notes.filter((e) => e.created_at <= until);
    const until2 = notes[19].created_at - 1;
    expect(await page('feed', { until: until2 })).toEqual(ids(older(until2).slice(0, 20)));
    // Past the CACHED_POSTS newest rows the page comes from SQL.
    const until3 = notes[CACHED_POSTS - 5].created_at - 1;
    expect(await page('feed', { until: until3 })).toEqual(ids(older(until3).slice(0, 20)));
    const since = notes[10].created_at;
    const forward = await page('feed', { since });
    expect([...forward].sort()).toEqual(ids(notes.slice(0, 11)).sort());
    // From far back the page is the oldest 20 from `since` on, which only SQL has.
    const sinceOld = notes[notes.length - 3].created_at;
    const oldest = await page('feed', { since: sinceOld });
    expect([...oldest].sort()).toEqual(ids(notes.slice(0, -2).reverse().slice(0, 20)).sort());
  });

  it('a new note, a deletion, a follow, an unfollow and a mute show in the next page', async () => {
    await page('feed');
    const fresh = sign(writer, 1, base + 9_000, 'Friss jegyzet');
    await publish(fresh);
    expect((await page('feed'))[0]).toBe(fresh.id);
    expect((await page('mega_feed_directive'))[0]).toBe(fresh.id);

    await publish(sign(writer, 5, base + 9_001, '', [['e', fresh.id]]));
    expect(await page('feed')).toEqual(ids(notes.slice(0, 20)));

    const other = person();
    const theirs = sign(other, 1, base + 9_002, 'Egy másik szerző jegyzete');
    await publish(theirs);
    expect((await page('feed'))[0]).toBe(notes[0].id);
    await publish(sign(vera, 3, base + 1, '', [['p', writer.pk], ['p', other.pk]]));
    expect((await page('feed'))[0]).toBe(theirs.id);

    await publish(sign(vera, 10000, base + 2, '', [['p', other.pk]]));
    expect((await page('feed'))[0]).toBe(notes[0].id);

    await publish(sign(vera, 10000, base + 3, '', []), sign(vera, 3, base + 4, '', [['p', other.pk]]));
    expect(await page('feed')).toEqual([theirs.id]);
  });

  it('a repost by a followed author shows in the next page', async () => {
    const reposter: Person = person();
    await publish(sign(vera, 3, base + 5, '', [['p', reposter.pk]]));
    expect(await page('feed')).toEqual([]);
    const repost = sign(reposter, 6, base + 9_100, JSON.stringify(notes[0]), [['e', notes[0].id], ['p', writer.pk]]);
    await publish(repost);
    expect(await page('feed')).toEqual([repost.id]);
  });
});

describe('two processes on one PostgreSQL: a note published through one shows in the other’s cached feed', () => {
  const procs = twoProcessesOnPostgres();
  let a: RunningServer;
  let b: RunningServer;
  beforeAll(() => {
    ({ a, b } = procs);
  });

  it('the follows page on B shows the note stored through A', async () => {
    const reader = person();
    const author = person();
    const at = Math.floor(Date.now() / 1000) - 60;
    const relayA = await Client.connect(`${a.url.replace(/^http/, 'ws')}/relay`);
    const send = async (ev: Signed) => {
      relayA.send(JSON.stringify(['EVENT', ev]));
      await relayA.until(() => relayA.frames.some((f) => f.msg[0] === 'OK' && f.msg[1] === ev.id), `OK for ${ev.id}`);
      expect(relayA.frames.find((f) => f.msg[0] === 'OK' && f.msg[1] === ev.id)!.msg[2]).toBe(true);
    };
    const first = sign(author, 1, at, 'Az első jegyzet');
    await send(first);
    await send(sign(reader, 3, at, '', [['p', author.pk]]));

    const cacheB = await Client.connect(`${b.url.replace(/^http/, 'ws')}/v1`);
    let n = 0;
    const newest = async () => {
      const r = await cacheB.req(`f${n++}`, 'feed', { pubkey: reader.pk, notes: 'follows', limit: 20, user_pubkey: reader.pk });
      expect(r.notices).toEqual([]);
      return (JSON.parse(String(r.events.find((e) => e.kind === CacheKind.RANGE)!.content)) as { elements: string[] }).elements[0];
    };
    // B's store sees what A committed; from now on the page is in B's memory.
    await until(async () => (await newest()) === first.id, 'the first note on B', 20_000, 100);
    expect(await newest()).toBe(first.id);

    const second = sign(author, 1, at + 1, 'A második jegyzet, a másik folyamaton át');
    await send(second);
    await until(async () => (await newest()) === second.id, 'the second note on B', 20_000, 100);
    expect(await newest()).toBe(second.id);
    await relayA.close();
    await cacheB.close();
  });
});
