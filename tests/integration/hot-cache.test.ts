/**
 * user_profile keeps an author's own counts in memory (server/cache/hot-cache.ts, issue 18): the
 * second request must not count the author's posts again, and every kind of event that changes a
 * count (a note, a reply, an article, a deletion, a new contact or relay list) must show in the
 * very next answer. On PostgreSQL with two processes, an event stored through one process must
 * reach the other's cache too (through the live bridge).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../support/server-process.ts';
import { twoProcessesOnPostgres } from '../support/two-processes.ts';
import { until } from '../support/until.ts';
import { CacheClient } from './cache-client.ts';
import { startCacheServer, watchReads, type CacheTestServer, type StoreKind } from './cache-server.ts';
import { person, sign, type Person } from './people.ts';

import { CacheKind } from '../../core/kinds.ts';

const USER_PROFILE = CacheKind.USER_PROFILE;
const stats = (events: Record<string, unknown>[]) =>
  JSON.parse(String(events.find((e) => e.kind === USER_PROFILE)!.content)) as Record<string, unknown>;

describe.each(['sqlite', 'postgres'] as const)('user_profile counts cached per author (%s)', (store: StoreKind) => {
  let srv: CacheTestServer;
  let postCounts = 0;

  beforeAll(async () => {
    srv = await startCacheServer(store);
    watchReads(srv, (sql) => {
      if (/AS note_count/.test(sql)) postCounts++;
    });
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  const profile = async (who: Person) => {
    const c = await srv.connect();
    const r = await c.req('p', 'user_profile', { pubkey: who.pk });
    expect(r.notices).toEqual([]);
    return stats(r.events);
  };
  const publish = async (...events: ReturnType<typeof sign>[]) => {
    const results = await srv.ctx.importer.importEvents(events);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  };

  it('a second request is served from memory, with the same answer', async () => {
    const { bob } = srv.net;
    postCounts = 0;
    const first = await profile(bob);
    expect(postCounts).toBe(1);
    expect(await profile(bob)).toEqual(first);
    expect(postCounts).toBe(1);
    expect(first).toMatchObject({ note_count: 2, reply_count: 0, follows_count: 1, followers_count: 1, total_zap_count: 1, total_satszapped: 21 });
  });

  it('notes, replies, articles, deletions, contact and relay lists show at once', async () => {
    const dora = person();
    const at = srv.ctx.now() - 100;
    await publish(sign(dora, 0, at, JSON.stringify({ name: 'dora' })), sign(dora, 1, at, 'Dóra első jegyzete'));
    expect(await profile(dora)).toMatchObject({ note_count: 1, reply_count: 0, long_form_note_count: 0, follows_count: 0, relay_count: 0 });

    const second = sign(dora, 1, at + 1, 'Dóra második jegyzete');
    await publish(second, sign(dora, 1, at + 2, 'Válasz Bobnak', [['e', srv.net.n1.id, '', 'root'], ['p', srv.net.bob.pk]]));
    expect(await profile(dora)).toMatchObject({ note_count: 2, reply_count: 1 });

    await publish(sign(dora, 30023, at + 3, 'Hosszú írás a kávéról', [['d', 'kave'], ['title', 'Kávé']]));
    expect(await profile(dora)).toMatchObject({ long_form_note_count: 1 });

    await publish(sign(dora, 5, at + 4, '', [['e', second.id]]));
    expect(await profile(dora)).toMatchObject({ note_count: 1, reply_count: 1 });

    await publish(sign(dora, 3, at + 5, '', [['p', srv.net.alice.pk], ['p', srv.net.bob.pk]]), sign(dora, 10002, at + 5, '', [['r', 'wss://egy.example']]));
    expect(await profile(dora)).toMatchObject({ follows_count: 2, relay_count: 1 });
  });

  it('followers and zaps come from other people and are counted on every request', async () => {
    const { carol } = srv.net;
    const before = await profile(carol);
    const aliceBefore = Number((await profile(srv.net.alice)).followers_count);
    const fan = person();
    await publish(sign(fan, 3, srv.ctx.now() - 50, '', [['p', carol.pk]]));
    const after = await profile(carol);
    expect(after.followers_count).toBe(Number(before.followers_count) + 1);
    expect({ ...after, followers_count: 0, followers_increase: 0 }).toEqual({ ...before, followers_count: 0, followers_increase: 0 });
    // An unfollow: the new list no longer names carol, so only "someone's list changed" can tell.
    await publish(sign(fan, 3, srv.ctx.now() - 40, '', [['p', srv.net.alice.pk]]));
    expect((await profile(carol)).followers_count).toBe(Number(before.followers_count));
    expect((await profile(srv.net.alice)).followers_count).toBe(aliceBefore + 1);
    const again = sign(fan, 3, srv.ctx.now() - 30, '', [['p', carol.pk], ['p', srv.net.alice.pk]]);
    await publish(again);
    expect((await profile(carol)).followers_count).toBe(Number(before.followers_count) + 1);
    await publish(sign(fan, 5, srv.ctx.now() - 20, '', [['e', again.id]]));
    expect((await profile(carol)).followers_count).toBe(Number(before.followers_count));
    expect((await profile(srv.net.alice)).followers_count).toBe(aliceBefore);
  });

  it('a page of notes shows its authors’ follower counts as they are now', async () => {
    const { bob, n1 } = srv.net;
    const c = await srv.connect();
    const scores = async (sub: string) => {
      const r = await c.req(sub, 'thread_view', { event_id: n1.id, limit: 20 });
      expect(r.notices).toEqual([]);
      return JSON.parse(String(r.events.find((e) => e.kind === CacheKind.USER_SCORES)!.content)) as Record<string, number>;
    };
    const before = (await scores('t1'))[bob.pk];
    expect((await scores('t2'))[bob.pk]).toBe(before);
    const fan = person();
    await publish(sign(fan, 3, srv.ctx.now() - 10, '', [['p', bob.pk]]));
    expect((await scores('t3'))[bob.pk]).toBe(before + 1);
  });
});

describe('two processes on one PostgreSQL forget the same author', () => {
  const procs = twoProcessesOnPostgres();
  let a: RunningServer;
  let b: RunningServer;
  beforeAll(() => {
    ({ a, b } = procs);
  });

  it('a note published through one process shows in the other’s user_profile', async () => {
    const erik = person();
    const at = Math.floor(Date.now() / 1000) - 60;
    const relayA = await CacheClient.connect(`${a.url.replace(/^http/, 'ws')}/relay`);
    const send = async (ev: ReturnType<typeof sign>) => {
      relayA.send(JSON.stringify(['EVENT', ev]));
      await relayA.until(() => relayA.frames.some((f) => f.msg[0] === 'OK' && f.msg[1] === ev.id), `OK for ${ev.id}`);
      expect(relayA.frames.find((f) => f.msg[0] === 'OK' && f.msg[1] === ev.id)!.msg[2]).toBe(true);
    };
    await send(sign(erik, 0, at, JSON.stringify({ name: 'erik' })));
    await send(sign(erik, 1, at, 'Erik első jegyzete'));

    const cacheB = await CacheClient.connect(`${b.url.replace(/^http/, 'ws')}/v1`);
    let n = 0;
    const noteCount = async () => {
      const r = await cacheB.req(`p${n++}`, 'user_profile', { pubkey: erik.pk });
      expect(r.notices).toEqual([]);
      return stats(r.events).note_count;
    };
    // Cached on B now.
    expect(await noteCount()).toBe(1);
    expect(await noteCount()).toBe(1);

    await send(sign(erik, 1, at + 1, 'Erik második jegyzete, a másik folyamaton át'));
    await until(async () => (await noteCount()) === 2, 'the second note counted on B', 20_000, 100);
    expect(await noteCount()).toBe(2);
    await relayA.close();
    await cacheB.close();
  });
});
