/**
 * Notifications end to end on both stores: generation at import for every type, the
 * get_notifications reply and its filters and paging, the seen mark and counters, the async
 * pushes, mute and settings blocking, deletions, and forged signed requests.
 */
import { createHash } from 'node:crypto';
import { nip19 } from 'nostr-tools';
import { type VerifiedEvent } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { content, ofKind, type CacheClient } from './cache-client.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import { until } from '../support/until.ts';
import { person, sign, type Person } from './people.ts';

type Obj = Record<string, unknown>;


function zap(wallet: Person, sender: Person, receiver: string, target: string, at: number, message: string): VerifiedEvent {
  const request = sign(sender, 9734, at, message, [['p', receiver], ['e', target], ['amount', '21000']]);
  return sign(wallet, 9735, at + 1, '', [
    ['p', receiver],
    ['e', target],
    ['bolt11', 'lnbc210n1pjtestpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypq'],
    ['description', JSON.stringify(request)],
  ]);
}

describe.each(['sqlite', 'postgres'] as const)('notifications (%s)', (store) => {
  let srv: CacheTestServer;
  const dave = person();
  const erin = person();
  const frank = person();
  const wallet = person();
  let base = 0;
  const ev: Record<string, VerifiedEvent> = {};

  async function load(events: VerifiedEvent[]): Promise<void> {
    const results = await srv.ctx.importer.importEvents(events);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  }

  const notes = async (c: CacheClient, pubkey: string, extra: Obj = {}) => {
    const r = await c.req(`n${Math.random()}`, 'get_notifications', { pubkey, ...extra });
    expect(r.notices).toEqual([]);
    return { reply: r, list: ofKind(r.events, 10000110).map((o) => content(o)) };
  };
  const push = (c: CacheClient, subid: string) => c.frames.filter((f) => f.msg[0] === 'EVENT' && f.msg[1] === subid);

  beforeAll(async () => {
    srv = await startCacheServer(store);
    const { alice, bob, carol, quote } = srv.net;
    base = srv.ctx.now() - 1000;
    const profile = (who: Person, name: string) => sign(who, 0, base, JSON.stringify({ name }));
    ev.m = sign(dave, 1, base + 10, `Szia alice és nostr:${nip19.npubEncode(carol.pk)}!`, [['p', alice.pk]]);
    ev.like = sign(bob, 7, base + 11, '🔥', [['e', ev.m.id], ['p', dave.pk]]);
    ev.repost = sign(bob, 6, base + 12, '', [['e', ev.m.id], ['p', dave.pk]]);
    ev.zap = zap(wallet, bob, dave.pk, ev.m.id, base + 13, 'Tessék!');
    ev.reply = sign(bob, 1, base + 15, 'Válasz', [['e', ev.m.id, '', 'root'], ['p', dave.pk]]);
    ev.qlike = sign(alice, 7, base + 20, '+', [['e', quote.id], ['p', carol.pk]]);
    ev.qrepost = sign(dave, 6, base + 21, '', [['e', quote.id], ['p', carol.pk]]);
    ev.qzap = zap(wallet, dave, carol.pk, quote.id, base + 22, '');
    ev.qreply = sign(dave, 1, base + 24, 'Idézet válasz', [['e', quote.id, '', 'root'], ['p', carol.pk]]);
    ev.selfLike = sign(bob, 7, base + 25, '+', [['e', srv.net.n2.id]]);
    const crowd = Array.from({ length: 10 }, () => ['p', person().pk]);
    ev.crowded = sign(dave, 1, base + 30, 'Mindenkinek', [['p', frank.pk], ...crowd]);
    ev.erinMutes = sign(erin, 10000, base + 31, '', [['p', dave.pk], ['word', 'kolbász']]);
    ev.mutedMention = sign(dave, 1, base + 32, 'Helló erin', [['p', erin.pk]]);
    ev.mutedWord = sign(frank, 1, base + 33, 'Finom a KOLBÁSZ, erin', [['p', erin.pk]]);
    ev.okMention = sign(frank, 1, base + 34, 'Szép napot, erin', [['p', erin.pk]]);
    ev.follow = sign(frank, 3, base + 35, '', [['p', dave.pk]]);
    ev.follow2 = sign(frank, 3, base + 36, '', [['p', dave.pk], ['p', erin.pk]]);
    await load([profile(dave, 'dave'), profile(erin, 'erin'), profile(frank, 'frank'), ...Object.values(ev)]);
  });

  afterAll(async () => {
    await srv?.stop();
  });

  it('builds objects with sorted keys and a sha256 id of the other fields', async () => {
    const c = await srv.connect();
    const { list } = await notes(c, dave.pk, { type_group: 'zaps' });
    expect(list).toHaveLength(1);
    const n = list[0];
    expect(Object.keys(n)).toEqual([...Object.keys(n)].sort());
    expect(n).toMatchObject({
      type: 3,
      pubkey: dave.pk,
      created_at: ev.zap.created_at,
      your_post: ev.m.id,
      who_zapped_it: srv.net.bob.pk,
      satszapped: 21,
      message: 'Tessék!',
    });
    const { id, ...rest } = n;
    expect(id).toBe(createHash('sha256').update(JSON.stringify(rest)).digest('hex'));
  });

  it('notifies the target author, the people it mentions (10x) and authors it quotes (20x)', async () => {
    const c = await srv.connect();
    const { alice, bob, carol, quote, n1 } = srv.net;
    const byType = (list: Obj[]) => list.map((n) => n.type).sort((a, b) => Number(a) - Number(b));
    const d = (await notes(c, dave.pk)).list;
    expect(byType(d)).toEqual([1, 3, 4, 5, 6]);
    expect(d.find((n) => n.type === 4)).toMatchObject({ your_post: ev.m.id, who_liked_it: bob.pk, reaction: '🔥' });
    expect(d.find((n) => n.type === 5)).toMatchObject({ your_post: ev.m.id, who_reposted_it: bob.pk });
    expect(d.find((n) => n.type === 6)).toMatchObject({ your_post: ev.m.id, who_replied_to_it: bob.pk, reply: ev.reply.id });
    expect(d.find((n) => n.type === 1)).toMatchObject({ follower: frank.pk });

    for (const pk of [alice.pk, carol.pk]) {
      const mine = (await notes(c, pk, { since: base })).list;
      expect(mine.find((n) => n.type === 7)).toMatchObject({ you_were_mentioned_in: ev.m.id, you_were_mentioned_by: dave.pk });
      expect(mine.find((n) => n.type === 101)).toMatchObject({ post_you_were_mentioned_in: ev.m.id, who_zapped_it: bob.pk, satszapped: 21 });
      expect(mine.find((n) => n.type === 102)).toMatchObject({ post_you_were_mentioned_in: ev.m.id, who_liked_it: bob.pk });
      expect(mine.find((n) => n.type === 103)).toMatchObject({ post_you_were_mentioned_in: ev.m.id, who_reposted_it: bob.pk });
      expect(mine.find((n) => n.type === 104)).toMatchObject({ post_you_were_mentioned_in: ev.m.id, reply: ev.reply.id });
    }

    const b = (await notes(c, bob.pk, { since: base })).list;
    const pair = { post_your_post_was_mentioned_in: quote.id, your_post: n1.id };
    expect(b.find((n) => n.type === 201)).toMatchObject({ ...pair, who_zapped_it: dave.pk });
    expect(b.find((n) => n.type === 202)).toMatchObject({ ...pair, who_liked_it: alice.pk });
    expect(b.find((n) => n.type === 203)).toMatchObject({ ...pair, who_reposted_it: dave.pk });
    expect(b.find((n) => n.type === 204)).toMatchObject({ ...pair, who_replied_to_it: dave.pk, reply: ev.qreply.id });
    // Liking your own post tells you nothing.
    expect(b.some((n) => n.who_liked_it === bob.pk)).toBe(false);
  });

  it('covers the fixture thread: follows, reply, reply to reply, quote, repost, likes and the zap', async () => {
    const c = await srv.connect();
    const { alice, bob, carol, n1, n2, r1, r2, quote } = srv.net;
    const b = (await notes(c, bob.pk, { until: base - 1 })).list;
    expect(b).toContainEqual(expect.objectContaining({ type: 1, follower: alice.pk }));
    expect(b).toContainEqual(expect.objectContaining({ type: 6, your_post: n1.id, who_replied_to_it: alice.pk, reply: r1.id }));
    expect(b).toContainEqual(expect.objectContaining({ type: 601, your_post: n1.id, who_replied_to_it: carol.pk, reply: r2.id }));
    expect(b).toContainEqual(
      expect.objectContaining({ type: 8, your_post: n1.id, your_post_were_mentioned_in: quote.id, your_post_was_mentioned_by: carol.pk }),
    );
    expect(b).toContainEqual(expect.objectContaining({ type: 5, your_post: n2.id, who_reposted_it: alice.pk }));
    expect(b).toContainEqual(expect.objectContaining({ type: 4, your_post: n1.id, who_liked_it: carol.pk, reaction: '❤' }));
    expect(b).toContainEqual(expect.objectContaining({ type: 3, your_post: n1.id, who_zapped_it: carol.pk, satszapped: 21 }));
    const a = (await notes(c, alice.pk, { until: base - 1 })).list;
    expect(a).toContainEqual(expect.objectContaining({ type: 6, your_post: r1.id, who_replied_to_it: carol.pk, reply: r2.id }));
  });

  it('sends profiles, the referenced events with their bundle and kind 0s, and no RANGE', async () => {
    const c = await srv.connect();
    const { reply } = await notes(c, dave.pk);
    const kinds = reply.events.map((e) => e.kind);
    expect(kinds.indexOf(10000105)).toBeGreaterThan(kinds.lastIndexOf(10000110));
    const profiles = ofKind(reply.events, 10000105).map((o) => content(o));
    expect(profiles).toContainEqual({ pubkey: srv.net.bob.pk, followers_count: 1 });
    expect(profiles).toContainEqual({ pubkey: frank.pk, followers_count: 0 });
    const ids = reply.events.map((e) => e.id);
    expect(ids).toContain(ev.m.id);
    expect(ids).toContain(ev.reply.id);
    expect(ofKind(reply.events, 0).map((e) => e.pubkey)).toEqual(expect.arrayContaining([srv.net.bob.pk, frank.pk, dave.pk]));
    expect(ofKind(reply.events, 10000100).length).toBeGreaterThan(0);
    expect(ofKind(reply.events, 10000113)).toEqual([]);
  });

  it('filters by type_group and pages with until = oldest created_at', async () => {
    const c = await srv.connect();
    const types = async (group: string) => new Set((await notes(c, srv.net.bob.pk, { type_group: group })).list.map((n) => n.type));
    expect(await types('zaps')).toEqual(new Set([3]));
    expect(await types('replies')).toEqual(new Set([6, 601]));
    expect(await types('mentions')).toEqual(new Set([8]));
    expect(await types('reposts')).toEqual(new Set([5]));
    const all = (await notes(c, srv.net.bob.pk)).list;
    const first = (await notes(c, srv.net.bob.pk, { limit: 3 })).list;
    expect(first).toEqual(all.slice(0, 3));
    const oldest = Math.min(...first.map((n) => Number(n.created_at)));
    const next = (await notes(c, srv.net.bob.pk, { limit: 3, until: oldest })).list;
    expect(next.every((n) => Number(n.created_at) <= oldest)).toBe(true);
    expect(next.some((n) => !first.some((f) => f.id === n.id))).toBe(true);
    const bad = await c.req('bad', 'get_notifications', { pubkey: srv.net.bob.pk, type_group: 'likes' });
    expect(bad.notices).toEqual(['invalid type_group: expected all, zaps, replies, mentions or reposts']);
    expect(bad.frames.at(-1)?.msg).toEqual(['EOSE', 'bad']);
    expect((await c.req('bad2', 'get_notifications', { pubkey: 'xyz' })).notices).toEqual(['invalid pubkey: expected 64 hex characters']);
    expect((await c.req('bad3', 'get_notifications', { pubkey: srv.net.bob.pk, limit: 'sok' })).notices).toHaveLength(1);
  });

  it('blocks crowded mentions, muted people and muted words, and honours settings', async () => {
    const c = await srv.connect();
    expect((await notes(c, frank.pk)).list.filter((n) => n.type === 7)).toEqual([]);
    const mentions = async () => (await notes(c, erin.pk)).list.filter((n) => n.type === 7);
    expect((await mentions()).map((n) => n.you_were_mentioned_in)).toEqual([ev.okMention.id]);
    // frank's second list adds erin: the diff notifies her, and dave only once.
    expect((await notes(c, erin.pk)).list.filter((n) => n.type === 1)).toMatchObject([{ follower: frank.pk }]);
    expect((await notes(c, dave.pk)).list.filter((n) => n.type === 1)).toHaveLength(1);

    const settings = sign(erin, 30078, base + 40, JSON.stringify({ notifications: { YOU_WERE_MENTIONED_IN_POST: false } }), [
      ['d', 'Primal-Web App'],
    ]);
    await srv.ctx.db.run('INSERT INTO app_settings (pubkey, event, updated_at) VALUES (?, ?, ?)', [erin.pk, JSON.stringify(settings), base]);
    await load([sign(frank, 1, base + 41, 'Még egyszer, erin', [['p', erin.pk]])]);
    expect(await mentions()).toHaveLength(1);
  });

  /** The owner's fresh signed request for a private read (protocol C.1). */
  const own = (who: Person, op: string) => sign(who, 30078, srv.ctx.now(), JSON.stringify({ description: op }), [['d', 'Primal-Web App', op]]);

  it('counts push once a second, reset by set_notifications_seen, and stop after CLOSE', async () => {
    const c = await srv.connect();
    await c.enableZlib();
    const r = await c.req('cnt', 'notification_counts', { pubkey: dave.pk, event_from_user: own(dave, 'notification_counts') });
    expect(r.frames.map((f) => f.msg[0])).toEqual(['EVENTS', 'EOSE']);
    await c.until(() => push(c, 'cnt').length >= 1, 'counts push');
    const first = push(c, 'cnt')[0];
    expect(first.binary).toBe(false);
    expect(first.msg[2]).toMatchObject({ kind: 10000112, pubkey: dave.pk, '1': 1, '3': 1, '4': 1, '5': 1, '6': 1, '7': 0 });
    await c.req('cnt2', 'notification_counts_2', { pubkey: dave.pk, event_from_user: own(dave, 'notification_counts') });
    await c.until(() => push(c, 'cnt2').length >= 1, 'counts_2 push');
    const second = push(c, 'cnt2')[0].msg[2] as Obj;
    expect(second).toMatchObject({ kind: 10000132, pubkey: dave.pk });
    expect(content(second)).toMatchObject({ '3': 1, '6': 1 });

    // The seen mark is the request's created_at, which must be fresh: a signed request is good for five minutes.
    const seenAt = srv.ctx.now();
    const mark = sign(dave, 30078, seenAt, '', [['d', 'Primal-Web App', 'notifications_laste_seen']]);
    const set = await c.req('seen', 'set_notifications_seen', { event_from_user: mark });
    expect(set.notices).toEqual([]);
    const got = await c.req('getseen', 'get_notifications_seen', { pubkey: dave.pk, event_from_user: own(dave, 'get_notifications_seen') });
    expect(got.events).toEqual([{ kind: 10000111, content: String(seenAt) }]);
    const count = push(c, 'cnt').length;
    await c.until(() => push(c, 'cnt').length > count, 'counts push after reset');
    const after = push(c, 'cnt').at(-1)!.msg[2] as Obj;
    expect(Object.entries(after).filter(([k, v]) => k !== 'kind' && k !== 'pubkey' && v !== 0)).toEqual([]);

    const open = () => [srv.ctx.stats.asyncSubscriptions.notification_counts ?? 0, srv.ctx.stats.asyncSubscriptions.notification_counts_2 ?? 0];
    const [one, two] = open();
    c.send(JSON.stringify(['CLOSE', 'cnt', { cache: ['notification_counts'] }]));
    c.send(JSON.stringify(['CLOSE', 'cnt2']));
    // Both timers are gone on the server, not merely quiet for a while.
    await until(() => open()[0] === one - 1 && open()[1] === two - 1, 'both count subscriptions released');
    await c.req('after', 'get_app_releases');
    const stopped = push(c, 'cnt').length + push(c, 'cnt2').length;
    await c.req('later', 'get_app_releases');
    expect(push(c, 'cnt').length + push(c, 'cnt2').length).toBe(stopped);
    const fresh = await c.req('fresh', 'get_notifications_seen', { pubkey: erin.pk, event_from_user: own(erin, 'get_notifications_seen') });
    expect(fresh.events).toEqual([{ kind: 10000111, content: '0' }]);
  });

  it('answers bad async arguments with NOTICE and EOSE, and a re-used subid replaces its subscription', async () => {
    const c = await srv.connect();
    for (const command of ['notification_counts', 'notification_counts_2', 'notifications']) {
      const r = await c.req('nc', command, { pubkey: 'nem-hex', event_from_user: own(dave, command.replace(/_2$/, '')) });
      expect(r.notices).toEqual(['invalid pubkey: expected 64 hex characters']);
      expect(r.frames.at(-1)?.msg).toEqual(['EOSE', 'nc']);
    }
    expect((await c.req('nc', 'notification_counts', {})).notices).toEqual(['notification_counts needs a signed event_from_user of the user']);
    await c.req('re', 'notification_counts', { pubkey: dave.pk, event_from_user: own(dave, 'notification_counts') });
    await c.req('re', 'directmsg_count', { pubkey: dave.pk, event_from_user: own(dave, 'directmsg_count') });
    const kinds = () => push(c, 're').map((f) => (f.msg[2] as Obj).kind);
    await c.until(() => kinds().includes(10000117), 'push on the re-used subid');
    const from = kinds().indexOf(10000117);
    await c.until(() => kinds().length >= from + 2, 'a second push');
    expect(new Set(kinds().slice(from))).toEqual(new Set([10000117]));
    expect(push(c, 'nc')).toEqual([]);
  });

  it('refuses forged or future event_from_user and changes nothing', async () => {
    const c = await srv.connect();
    const { alice, carol } = srv.net;
    const now = srv.ctx.now();
    const good = sign(carol, 30078, now, '', [['d', 'Primal-Web App', 'notifications_laste_seen']]);
    const cases: [unknown, string][] = [
      [{ ...good, sig: good.sig.replace(/^./, good.sig[0] === 'a' ? 'b' : 'a') }, 'invalid event_from_user: bad signature'],
      [{ ...good, pubkey: alice.pk }, 'invalid event_from_user: bad signature'],
      [sign(carol, 30078, now + 3600, '', []), 'invalid event_from_user: created_at is in the future'],
      [{ kind: 1 }, 'invalid event_from_user: id must be 64 lowercase hex characters'],
      [undefined, 'missing event_from_user'],
    ];
    for (const [event, reason] of cases) {
      const r = await c.req('forged', 'set_notifications_seen', { event_from_user: event });
      expect(r.notices).toEqual([reason]);
      expect(r.frames.at(-1)?.msg).toEqual(['EOSE', 'forged']);
    }
    for (const who of [alice, carol]) {
      const seen = await c.req('s', 'get_notifications_seen', { pubkey: who.pk, event_from_user: own(who, 'get_notifications_seen') });
      expect(seen.events).toEqual([{ kind: 10000111, content: '0' }]);
    }
    const cnt = await srv.ctx.db.get<{ n: number | string }>('SELECT SUM(cnt) AS n FROM notification_counts WHERE pubkey = ?', [carol.pk]);
    expect(Number(cnt?.n)).toBeGreaterThan(0);
  });

  it('pushes new notifications live and takes deleted ones back', async () => {
    const c = await srv.connect();
    await c.req('live', 'notifications', { pubkey: dave.pk, event_from_user: own(dave, 'notifications') });
    const like = sign(erin, 7, srv.ctx.now(), '+', [['e', ev.m.id], ['p', dave.pk]]);
    await load([like]);
    await c.until(() => push(c, 'live').length >= 1, 'notification push');
    const pushed = content(push(c, 'live')[0].msg[2] as Obj);
    expect(pushed).toMatchObject({ type: 4, pubkey: dave.pk, who_liked_it: erin.pk, your_post: ev.m.id });

    const before = await srv.ctx.db.get<{ cnt: number | string }>('SELECT cnt FROM notification_counts WHERE pubkey = ? AND type = 4', [dave.pk]);
    await load([sign(erin, 5, srv.ctx.now(), '', [['e', like.id]])]);
    const left = (await notes(c, dave.pk)).list.filter((n) => n.type === 4);
    expect(left.map((n) => n.who_liked_it)).toEqual([srv.net.bob.pk]);
    const after = await srv.ctx.db.get<{ cnt: number | string }>('SELECT cnt FROM notification_counts WHERE pubkey = ? AND type = 4', [dave.pk]);
    expect(Number(after?.cnt)).toBe(Math.max(0, Number(before?.cnt) - 1));
    c.send(JSON.stringify(['CLOSE', 'live']));
  });
});
