/**
 * NIP-04 direct messages on both stores: unread counters at import, mutes, contacts per
 * relation, conversation paging, the async counters, resets and forged resets.
 */
import { type VerifiedEvent } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { content, ofKind, type CacheClient } from './cache-client.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import { until } from '../support/until.ts';
import { person, sign, type Person } from './people.ts';

type Obj = Record<string, unknown>;
interface DmInfo {
  cnt: number;
  latest_at: number;
  latest_event_id: string;
}

/** The ciphertext is never read by the server, so any NIP-04-shaped string will do. */
const dm = (from: Person, to: Person, at: number) => sign(from, 4, at, `titok${at}?iv=AAAAAAAAAAAAAAAAAAAAAA==`, [['p', to.pk]]);

describe.each(['sqlite', 'postgres'] as const)('direct messages (%s)', (store) => {
  let srv: CacheTestServer;
  const dave = person();
  const frank = person();
  let base = 0;
  const m: Record<string, VerifiedEvent> = {};

  /** Unread counts are the owner's: the listing is asked for with the owner's signed request. */
  const contacts = async (c: CacheClient, kwargs: Obj) => {
    const owner = [srv.net.alice, srv.net.bob, srv.net.carol, dave, frank].find((p) => p.pk === kwargs.user_pubkey)!;
    const r = await c.req(`c${Math.random()}`, 'get_directmsg_contacts', { ...kwargs, event_from_user: signed(owner, 'get_directmsg_contacts') });
    expect(r.notices).toEqual([]);
    const summary = content<Record<string, DmInfo>>(ofKind(r.events, 10000118)[0]);
    const range = content<{ elements: string[]; order_by: string }>(r.events.at(-1));
    return { r, summary, range };
  };
  const signed = (who: Person, op: string, at = srv.ctx.now(), body: Obj = { description: op }) =>
    sign(who, 30078, at, JSON.stringify(body), [['d', 'Primal-Web App', op]]);
  const pushes = (c: CacheClient, subid: string) => c.frames.filter((f) => f.msg[0] === 'EVENT' && f.msg[1] === subid);
  const total = async (pk: string) =>
    Number((await srv.ctx.db.get<{ cnt: number | string }>("SELECT cnt FROM dm_threads WHERE owner = ? AND peer = ''", [pk]))?.cnt ?? 0);

  beforeAll(async () => {
    srv = await startCacheServer(store);
    const { alice, bob, carol } = srv.net;
    base = srv.ctx.now() - 500;
    m.b1 = dm(bob, alice, base + 1);
    m.a1 = dm(alice, bob, base + 2);
    m.b2 = dm(bob, alice, base + 3);
    m.c1 = dm(carol, alice, base + 4);
    m.toDave = dm(alice, dave, base + 5);
    m.mute = sign(alice, 10000, base + 6, '', [['p', frank.pk]]);
    m.f1 = dm(frank, alice, base + 7);
    m.b3 = dm(bob, alice, base + 8);
    const results = await srv.ctx.importer.importEvents([sign(dave, 0, base, JSON.stringify({ name: 'dave' })), ...Object.values(m)]);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  });

  afterAll(async () => {
    await srv?.stop();
  });

  it('lists contacts per relation with unread counts, latest events, profiles and a RANGE', async () => {
    const c = await srv.connect();
    const { alice, bob, carol } = srv.net;
    const any = await contacts(c, { user_pubkey: alice.pk, relation: 'any' });
    expect(any.summary).toEqual({
      [bob.pk]: { cnt: 3, latest_at: m.b3.created_at, latest_event_id: m.b3.id },
      [dave.pk]: { cnt: 0, latest_at: m.toDave.created_at, latest_event_id: m.toDave.id },
      [carol.pk]: { cnt: 1, latest_at: m.c1.created_at, latest_event_id: m.c1.id },
    });
    expect(any.range).toMatchObject({ order_by: 'latest_at', elements: [bob.pk, dave.pk, carol.pk] });
    expect(any.r.events.filter((e) => e.kind === 4).map((e) => e.id)).toEqual([m.b3.id, m.toDave.id, m.c1.id]);
    expect(ofKind(any.r.events, 0).map((e) => e.pubkey)).toEqual([bob.pk, dave.pk, carol.pk]);
    expect((await contacts(c, { user_pubkey: alice.pk, relation: 'follows' })).range.elements).toEqual([bob.pk, carol.pk]);
    expect((await contacts(c, { user_pubkey: alice.pk, relation: 'other' })).range.elements).toEqual([dave.pk]);
    const paged = await contacts(c, { user_pubkey: alice.pk, limit: 1, offset: 1 });
    expect(paged.range.elements).toEqual([dave.pk]);
    // dave never answered: alice's side shows nothing unread (above), his shows her message.
    expect((await contacts(c, { user_pubkey: dave.pk })).summary).toEqual({
      [alice.pk]: { cnt: 1, latest_at: m.toDave.created_at, latest_event_id: m.toDave.id },
    });
    for (const [kwargs, notice] of [
      [{ user_pubkey: alice.pk, relation: 'friends' }, 'invalid relation: expected any, follows or other'],
      [{ relation: 'any' }, 'missing user_pubkey'],
      [{ user_pubkey: alice.pk, limit: -1 }, 'invalid limit: must not be negative'],
    ] as const) {
      const r = await c.req('bad', 'get_directmsg_contacts', kwargs);
      expect(r.notices).toEqual([notice]);
      expect(r.frames.at(-1)?.msg).toEqual(['EOSE', 'bad']);
    }
  });

  it('counts nothing from a muted sender', async () => {
    const c = await srv.connect();
    expect(await total(srv.net.alice.pk)).toBe(4);
    const { summary } = await contacts(c, { user_pubkey: srv.net.alice.pk });
    expect(summary[frank.pk]).toBeUndefined();
  });

  it('pages a conversation in both directions, newest first', async () => {
    const c = await srv.connect();
    const { alice, bob } = srv.net;
    const first = await c.req('conv', 'get_directmsgs', { receiver: alice.pk, sender: bob.pk, limit: 2 });
    expect(first.events.filter((e) => e.kind === 4).map((e) => e.id)).toEqual([m.b3.id, m.b2.id]);
    expect(ofKind(first.events, 0).map((e) => e.pubkey)).toEqual([alice.pk, bob.pk]);
    const range = content<{ since: number; until: number; order_by: string }>(first.events.at(-1));
    expect(range).toMatchObject({ since: m.b2.created_at, until: m.b3.created_at, order_by: 'created_at' });
    const next = await c.req('conv2', 'get_directmsgs', { receiver: bob.pk, sender: alice.pk, until: range.since, limit: 20 });
    expect(next.events.filter((e) => e.kind === 4).map((e) => e.id)).toEqual([m.b2.id, m.a1.id, m.b1.id]);
    const none = await c.req('conv3', 'get_directmsgs', { receiver: bob.pk, sender: dave.pk });
    expect(none.events).toMatchObject([{ kind: 0, pubkey: bob.pk }, { kind: 0, pubkey: dave.pk }, { kind: 10000113 }]);
    expect((await c.req('bad', 'get_directmsgs', { receiver: bob.pk })).notices).toEqual(['missing sender']);
  });

  it('pushes unread totals every second until CLOSE, and resets them for the signer only', async () => {
    const c = await srv.connect();
    const { alice, bob, carol } = srv.net;
    await c.enableZlib();
    const r = await c.req('dmc', 'directmsg_count', { pubkey: alice.pk, event_from_user: signed(alice, 'directmsg_count') });
    expect(r.frames.map((f) => [f.binary, f.msg[0]])).toEqual([
      [true, 'EVENTS'],
      [false, 'EOSE'],
    ]);
    await c.req('dmc2', 'directmsg_count_2', { pubkey: alice.pk, event_from_user: signed(alice, 'directmsg_count') });
    await c.until(() => pushes(c, 'dmc').length > 0 && pushes(c, 'dmc2').length > 0, 'dm count pushes');
    expect(pushes(c, 'dmc')[0]).toEqual({ binary: false, msg: ['EVENT', 'dmc', { kind: 10000117, cnt: 4 }] });
    expect(pushes(c, 'dmc2')[0].msg[2]).toEqual({ kind: 10000134, content: '4' });

    const reset = await c.req('reset', 'reset_directmsg_count', { event_from_user: signed(alice, 'reset_direct_message_count', srv.ctx.now(), { sender: bob.pk }) });
    expect(reset.notices).toEqual([]);
    expect(reset.events).toEqual([]);
    const seen = pushes(c, 'dmc').length;
    await c.until(() => pushes(c, 'dmc').length > seen, 'dm count after reset');
    expect(pushes(c, 'dmc').at(-1)!.msg[2]).toEqual({ kind: 10000117, cnt: 1 });
    const { summary } = await contacts(c, { user_pubkey: alice.pk });
    expect(summary[bob.pk].cnt).toBe(0);
    expect(summary[carol.pk].cnt).toBe(1);

    const open = () => [srv.ctx.stats.asyncSubscriptions.directmsg_count ?? 0, srv.ctx.stats.asyncSubscriptions.directmsg_count_2 ?? 0];
    const [one, two] = open();
    c.send(JSON.stringify(['CLOSE', 'dmc', { cache: ['directmsg_count'] }]));
    c.send(JSON.stringify(['CLOSE', 'dmc2']));
    // Both timers are gone on the server, not merely quiet for a while.
    await until(() => open()[0] === one - 1 && open()[1] === two - 1, 'both count subscriptions released');
    await c.req('after', 'get_app_releases');
    const stopped = pushes(c, 'dmc').length + pushes(c, 'dmc2').length;
    await c.req('later', 'get_app_releases');
    expect(pushes(c, 'dmc').length + pushes(c, 'dmc2').length).toBe(stopped);
  });

  it('refuses forged resets and acts only for the signer', async () => {
    const c = await srv.connect();
    const { alice, bob, carol } = srv.net;
    const before = await total(alice.pk);
    const good = signed(alice, 'mark_all_dms_as_read');
    const forged: [unknown, string][] = [
      [{ ...good, sig: good.sig.replace(/^./, good.sig[0] === 'a' ? 'b' : 'a') }, 'invalid event_from_user: bad signature'],
      [{ ...signed(bob, 'mark_all_dms_as_read'), pubkey: alice.pk }, 'invalid event_from_user: bad signature'],
      [signed(alice, 'mark_all_dms_as_read', srv.ctx.now() + 3600), 'invalid event_from_user: created_at is in the future'],
    ];
    for (const [event, reason] of forged) {
      for (const command of ['reset_directmsg_counts', 'reset_directmsg_count']) {
        const r = await c.req('f', command, { event_from_user: event, sender: carol.pk });
        expect(r.notices).toEqual([reason]);
      }
    }
    expect(await total(alice.pk)).toBe(before);
    // bob's valid signature resets bob's counters, never alice's.
    await c.req('b', 'reset_directmsg_count', { event_from_user: signed(bob, 'reset_direct_message_count', srv.ctx.now(), { sender: carol.pk }) });
    await c.req('b2', 'reset_directmsg_counts', { event_from_user: signed(bob, 'mark_all_dms_as_read') });
    expect(await total(alice.pk)).toBe(before);
    const { summary } = await contacts(c, { user_pubkey: alice.pk });
    expect(summary[carol.pk].cnt).toBe(1);

    expect((await c.req('all', 'reset_directmsg_counts', { event_from_user: good })).notices).toEqual([]);
    expect(await total(alice.pk)).toBe(0);
    expect(Object.values((await contacts(c, { user_pubkey: alice.pk })).summary).map((d) => d.cnt)).toEqual([0, 0, 0]);
  });
});
