/**
 * The cache-protocol endpoint (/v1) against a real server: reply shapes and order in plain
 * and zlib mode, the enrichment bundle, paging, and every kind of bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheClient, content } from './cache-client.ts';
import { until } from '../support/until.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';

let srv: CacheTestServer;
const connect = () => srv.connect();

beforeAll(async () => {
  srv = await startCacheServer();
});

afterAll(async () => {
  await srv?.stop();
});

describe('framing', () => {
  it('answers with EVENT frames then EOSE without zlib', async () => {
    const c = await connect();
    const r = await c.req('s1', 'get_default_app_settings', { client: 'Primal-Web App' });
    expect(r.frames.map((f) => [f.binary, f.msg[0]])).toEqual([
      [false, 'EVENT'],
      [false, 'EOSE'],
    ]);
    const settings = r.events[0];
    expect(settings.kind).toBe(10000103);
    expect(settings.tags).toEqual([['d', 'Primal-Web App']]);
    const s = content(settings);
    expect(s.theme).toBe('sunrise');
    expect(s.defaultZapAmount).toBe(42);
    expect(s.zapOptions).toEqual([21, 420, 1000, 5000, 10000, 100000]);
    expect(s.zapDefault).toEqual({ amount: 42, message: 'Haladjunk együtt! 🫡' });
    expect((s.notifications as Record<string, boolean>).YOUR_POST_WAS_ZAPPED).toBe(true);
    expect(s.contentModeration).toEqual([
      { name: 'primal_spam', scopes: ['content', 'trending'] },
      { name: 'primal_nsfw', scopes: ['content', 'trending'] },
    ]);
  });

  it('after the zlib handshake sends one binary EVENTS frame and a text EOSE', async () => {
    const c = await connect();
    const hs = await c.enableZlib();
    expect(hs.frames).toEqual([{ binary: false, msg: ['EOSE', 'set_protocol_test'] }]);

    const r = await c.req('z1', 'get_home_feeds');
    expect(r.frames.map((f) => [f.binary, f.msg[0]])).toEqual([
      [true, 'EVENTS'],
      [false, 'EOSE'],
    ]);
    expect(r.frames[0].msg[1]).toBe('z1');
    const feeds = content<{ name: string; spec: string; enabled: boolean }[]>(r.events[0]);
    expect(r.events[0].kind).toBe(10000153);
    expect(feeds.map((f) => f.name)).toEqual(['Legújabb', 'Felkapott', 'Legtöbbet zappolt', 'Minden bejegyzés']);
    expect(JSON.parse(feeds[1].spec)).toEqual({ id: 'global-trending', kind: 'notes', hours: 24 });

    const empty = await c.req('z2', 'events', { event_ids: ['f'.repeat(64)] });
    expect(empty.frames).toEqual([
      { binary: true, msg: ['EVENTS', 'z2', []] },
      { binary: false, msg: ['EOSE', 'z2'] },
    ]);

    const bad = await c.req('z3', 'no_such_command');
    expect(bad.frames).toEqual([
      { binary: false, msg: ['NOTICE', 'z3', 'unknown api request'] },
      { binary: false, msg: ['EOSE', 'z3'] },
    ]);
  });

  it('CLOSE gets no reply and the next request is answered', async () => {
    const c = await connect();
    const before = c.frames.length;
    c.send(JSON.stringify(['CLOSE', 'whatever', { cache: ['directmsg_count'] }]));
    const r = await c.req('after-close', 'get_app_releases');
    expect(c.frames.slice(before)[0].msg[1]).toBe('after-close');
    const rel = content<{ ios: { version: string }; android: { version: string } }>(r.events[0]);
    expect(r.events[0].kind).toBe(10000138);
    expect([rel.ios.version, rel.android.version]).toEqual(['1.1.10', '0.91.2']);
  });

  it('counts open and total cache connections', async () => {
    const { stats } = srv.ctx;
    const total = stats.cacheConnectionsTotal;
    const open = stats.cacheConnections;
    const c = await CacheClient.connect(srv.wsUrl);
    await c.req('ping', 'get_app_releases');
    expect(stats.cacheConnections).toBe(open + 1);
    expect(stats.cacheConnectionsTotal).toBe(total + 1);
    await c.close();
    await c.until(() => stats.cacheConnections === open, 'connection count to drop').catch(() => undefined);
    expect(stats.cacheConnections).toBe(open);
  });
});

describe('configuration commands', () => {
  it('serves reads feeds and default relays', async () => {
    const c = await connect();
    const reads = await c.req('r', 'get_reads_feeds');
    expect(reads.events[0].kind).toBe(10000152);
    expect(content<{ name: string }[]>(reads.events[0]).map((f) => f.name)).toEqual(['Követettek cikkei', 'Minden cikk']);
    const relays = await c.req('d', 'get_default_relays');
    expect(relays.events[0].kind).toBe(10000124);
    expect(content<string[]>(relays.events[0])).toContain(`ws://127.0.0.1:${srv.port}/relay`);
  });
});

describe('bad input', () => {
  /** Sends `text`, expects one NOTICE (plus EOSE when a subid was given), then checks the socket still answers. */
  async function expectNotice(c: CacheClient, text: string | Buffer, subid: string | undefined, reason: RegExp) {
    const start = c.frames.length;
    c.send(text);
    if (subid !== undefined) {
      await c.until(() => c.frames.slice(start).some((f) => f.msg[0] === 'EOSE' && f.msg[1] === subid), `EOSE for ${subid}`);
      const frames = c.frames.slice(start).map((f) => f.msg);
      expect(frames[0][0]).toBe('NOTICE');
      expect(frames[0][1]).toBe(subid);
      expect(String(frames[0][2])).toMatch(reason);
      expect(frames[1]).toEqual(['EOSE', subid]);
    } else {
      await c.until(() => c.frames.length > start, 'NOTICE');
      const msg = c.frames[start].msg;
      expect(msg[0]).toBe('NOTICE');
      expect(String(msg[msg.length - 1])).toMatch(reason);
    }
    const ok = await c.req(`alive-${start}`, 'get_app_releases');
    expect(ok.events[0].kind).toBe(10000138);
  }

  it('answers every malformed frame with a NOTICE and keeps the connection', async () => {
    const c = await connect();
    await expectNotice(c, 'this is not json', undefined, /JSON/i);
    await expectNotice(c, JSON.stringify({ not: 'an array' }), undefined, /array/i);
    await expectNotice(c, JSON.stringify(['REQ', 'big', { cache: ['get_app_releases', { pad: 'x'.repeat(600 * 1024) }] }]), undefined, /too big/);
    await expectNotice(c, JSON.stringify(['HELLO', 'v1']), 'v1', /unknown api request/);
    await expectNotice(c, JSON.stringify(['REQ', 'u1', { cache: ['no_such_command', {}] }]), 'u1', /unknown api request/);
    await expectNotice(c, JSON.stringify(['REQ', 'p1', 'not a filter']), 'p1', /invalid request/);
    await expectNotice(c, JSON.stringify(['REQ', 'p2', { cache: 'user_infos' }]), 'p2', /invalid request/);
    await expectNotice(c, JSON.stringify(['REQ', 'p3', { cache: ['user_infos', ['not', 'an', 'object']] }]), 'p3', /kwargs/);
    await expectNotice(c, JSON.stringify(['REQ', 'p4', { cache: ['user_infos', { pubkeys: 'abc' }] }]), 'p4', /pubkeys/);
    await expectNotice(c, JSON.stringify(['REQ', 'p5', { cache: ['feed', { pubkey: srv.net.alice.pk, limit: 'ten' }] }]), 'p5', /limit/);
    await expectNotice(c, JSON.stringify(['REQ', 'k1', { kinds: [1], limit: 10 }]), 'k1', /kinds or authors/);
    await expectNotice(c, JSON.stringify(['REQ', 'k2', { authors: [srv.net.alice.pk] }]), 'k2', /kinds or authors/);
    await expectNotice(c, JSON.stringify(['REQ', 'l1', { cache: ['feed', { pubkey: srv.net.alice.pk, limit: 1e9 }] }]), 'l1', /limit too big/);
    await expectNotice(c, JSON.stringify(['REQ', 'h1', { cache: ['user_profile', { pubkey: 'xyz' }] }]), 'h1', /pubkey/);
    await expectNotice(c, JSON.stringify(['REQ', 'h2', { cache: ['user_infos', { pubkeys: ['g'.repeat(64)] }] }]), 'h2', /pubkeys/);
    await expectNotice(c, JSON.stringify(['REQ', 'h3', { cache: ['thread_view', { event_id: 12 }] }]), 'h3', /event_id/);
    await expectNotice(c, JSON.stringify(['REQ', 'n1', { cache: ['feed', { pubkey: srv.net.alice.pk, notes: 'nonsense' }] }]), 'n1', /unsupported type of notes/);
    await expectNotice(
      c,
      JSON.stringify(['REQ', 'm1', { cache: ['mega_feed_directive', { spec: '{not json' }] }]),
      'm1',
      /invalid spec format/,
    );
  });

  it('closes a connection that opens more than 200 subscriptions', async () => {
    const c = await connect();
    for (let i = 0; i < 200; i++) await c.req(`sub-${i}`, 'get_app_releases');
    c.send(JSON.stringify(['REQ', 'sub-200', { cache: ['get_app_releases'] }]));
    await c.until(() => c.frames.some((f) => f.msg[0] === 'NOTICE' && f.msg[1] === 'sub-200'), 'NOTICE').catch(() => undefined);
    const notice = c.frames.find((f) => f.msg[0] === 'NOTICE');
    expect(notice?.msg).toEqual(['NOTICE', 'sub-200', 'too many subscriptions']);
    await c.until(() => c.closed, 'close').catch(() => undefined);
    expect(c.closed).toBe(true);
  });

  it('re-using a subid or closing it does not count against the limit', async () => {
    const c = await connect();
    for (let i = 0; i < 250; i++) {
      await c.req('same', 'get_app_releases');
      await c.req(`temp-${i}`, 'get_app_releases');
      c.send(JSON.stringify(['CLOSE', `temp-${i}`]));
    }
    expect(c.closed).toBe(false);
  });
});

describe('streams', () => {
  it('net_stats replies with EOSE, then pushes text NET_STATS until CLOSE', async () => {
    const c = await connect();
    await c.enableZlib();
    const r = await c.req('ns', 'net_stats');
    expect(r.frames).toEqual([
      { binary: true, msg: ['EVENTS', 'ns', []] },
      { binary: false, msg: ['EOSE', 'ns'] },
    ]);
    const pushed = () => c.frames.filter((f) => f.msg[0] === 'EVENT' && f.msg[1] === 'ns');
    await c.until(() => pushed().length >= 2, 'net_stats pushes');
    const push = pushed()[0];
    expect(push.binary).toBe(false);
    const stats = content(push.msg[2] as Record<string, unknown>);
    expect((push.msg[2] as Record<string, unknown>).kind).toBe(10000101);
    expect(stats).toMatchObject({ users: 3, pubnotes: 5, reactions: 3, reposts: 1, zaps: 1, satszapped: 21 });
    // The server holds the subscription until CLOSE, which it handles before the next REQ's reply.
    const open = () => srv.ctx.stats.asyncSubscriptions.net_stats ?? 0;
    expect(open()).toBe(1);
    c.send(JSON.stringify(['CLOSE', 'ns']));
    await c.req('after', 'get_app_releases');
    expect(open()).toBe(0);
  });

  it('a net_stats subscription ends when its socket goes away without CLOSE', async () => {
    const c = await connect();
    await c.req('ns2', 'net_stats');
    expect(srv.ctx.stats.asyncSubscriptions.net_stats).toBe(1);
    c.close();
    await until(() => (srv.ctx.stats.asyncSubscriptions.net_stats ?? 0) === 0, 'the subscription is released');
  });

  it("a plain {limit, idsonly} subscription (the operator's) lists ids and receives newly imported events", async () => {
    const { finalizeEvent, generateSecretKey, getPublicKey } = await import('nostr-tools/pure');
    const operator = generateSecretKey();
    srv.ctx.config.operatorPubkey = getPublicKey(operator);
    const auth = finalizeEvent({ kind: 30078, created_at: srv.ctx.now(), tags: [['d', 'strucc-firehose']], content: '' }, operator);
    const c = await connect();
    const r = await c.raw(JSON.stringify(['REQ', 'live', { limit: 2, idsonly: true, event_from_user: auth }]), 'live');
    expect(r.events[0].kind).toBe(10000122);
    expect((r.events[0].ids as string[]).length).toBe(2);
    const { buildNetwork } = await import('./cache-fixtures.ts');
    const fresh = buildNetwork(srv.ctx.now()).n1;
    await srv.ctx.importer.importEvents([fresh]);
    await c.until(
      () => c.frames.some((f) => f.msg[1] === 'live' && f.msg[0] === 'EVENT' && JSON.stringify(f.msg[2]).includes(fresh.id)),
      'live push',
    );
  });
});
