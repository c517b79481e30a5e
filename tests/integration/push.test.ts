/**
 * Web Push end to end on both stores: signed subscribe/unsubscribe, and the sending path against a
 * push service of ours (tests/support/push-endpoint.ts), which checks the VAPID JWT and decrypts
 * each message as a browser would. DM, mention, reply and zap each arrive in Hungarian; a type the
 * subscription left out, a stranger's DM and an unsubscribed browser get nothing; a 410 removes the
 * subscription; a DM's text never travels.
 */
import { nip04, nip19 } from 'nostr-tools';
import type { VerifiedEvent } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUEUED_EVENTS, pushServiceOf } from '../../server/push/service.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import type { CacheClient } from './cache-client.ts';
import { person, sign, type Person } from './people.ts';
import { BrowserKeys, startPushEndpoint, vapidClaims, type PushEndpoint } from '../support/push-endpoint.ts';
import { until } from '../support/until.ts';

const DM_TEXT = 'titkos szöveg: a széf kódja 4242';

describe.each(['sqlite', 'postgres'] as const)('web push (%s)', (store) => {
  let srv: CacheTestServer;
  let endpoint: PushEndpoint;
  let c: CacheClient;
  const browser = new BrowserKeys();
  const stranger = person();
  const wallet = person();
  let aliceNote: VerifiedEvent;
  let seq = 0;

  const signed = (who: Person, op: string, body: Record<string, unknown>, at = srv.ctx.now()) =>
    sign(who, 30078, at, JSON.stringify(body), [['d', 'Primal-Web App', op]]);
  const call = async (command: string, event: unknown) => (await c.req(`p${++seq}`, command, { event_from_user: event })).notices;
  const subscribe = (who: Person, path: string, types: string[], keys = browser) =>
    call('push_subscribe', signed(who, 'push_subscribe', { ...keys.subscription(endpoint.origin + path), types }));
  /** Imports, then waits for the push queue to be handled: what was not sent by then never will be. */
  async function load(...events: VerifiedEvent[]) {
    const results = await srv.ctx.importer.importEvents(events);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    await pushServiceOf(srv.ctx)!.idle();
  }
  const arrivedSince = (start: number) => endpoint.received.slice(start);
  const rows = () => srv.ctx.db.all<{ endpoint: string; pubkey: string; types: string }>('SELECT endpoint, pubkey, types FROM push_subscriptions ORDER BY endpoint');

  beforeAll(async () => {
    endpoint = await startPushEndpoint();
    srv = await startCacheServer(store, { FETCH_PRIVATE_ADDRESSES: '1' });
    c = await srv.connect();
    aliceNote = sign(srv.net.alice, 1, srv.ctx.now() - 60, 'Alice bejegyzése a pushról');
    await load(aliceNote);
  }, 120_000);

  afterAll(async () => {
    await srv?.stop();
    await endpoint?.close();
  });

  it('publishes its VAPID key in /api/info and keeps it in the data dir', async () => {
    const info = (await (await fetch(`http://127.0.0.1:${srv.port}/api/info`)).json()) as { vapidPublicKey: string };
    expect(info.vapidPublicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(Buffer.from(info.vapidPublicKey, 'base64url')[0]).toBe(4);
    expect(info.vapidPublicKey).toBe(pushServiceOf(srv.ctx)!.keys.publicKey);
  });

  it('refuses unsigned, mis-signed and malformed subscriptions with a NOTICE and stores none', async () => {
    const { alice } = srv.net;
    const good = browser.subscription(`${endpoint.origin}/sub/x`);
    expect((await c.req('u1', 'push_subscribe', good)).notices).toEqual([expect.stringMatching(/missing event_from_user/)]);
    expect(await call('push_subscribe', signed(alice, 'push_unsubscribe', { ...good, types: ['dm'] }))).toEqual([expect.stringMatching(/signed for push_unsubscribe, not for push_subscribe/)]);
    expect(await call('push_subscribe', signed(alice, 'push_subscribe', { ...good, types: ['dm'] }, srv.ctx.now() - 3600))).toEqual([expect.stringMatching(/too old/)]);
    expect(await call('push_subscribe', signed(alice, 'push_subscribe', { ...good, endpoint: 'ftp://127.0.0.1/x', types: ['dm'] }))).toEqual(['invalid endpoint: must be https']);
    expect(await call('push_subscribe', signed(alice, 'push_subscribe', { ...good, keys: { p256dh: 'AAAA', auth: good.keys.auth }, types: ['dm'] }))).toEqual(['invalid keys.p256dh: must be 65 bytes']);
    expect(await call('push_subscribe', signed(alice, 'push_subscribe', { ...good, types: ['likes'] }))).toEqual(['invalid types: a list of dm, mention, reply, zap']);
    expect(await rows()).toEqual([]);
  });

  it('stores a signed subscription for its signer with the chosen types', async () => {
    expect(await subscribe(srv.net.alice, '/sub/alice', ['zap', 'dm', 'mention', 'reply'])).toEqual([]);
    expect(await rows()).toEqual([{ endpoint: `${endpoint.origin}/sub/alice`, pubkey: srv.net.alice.pk, types: '["dm","mention","reply","zap"]' }]);
  });

  it('pushes a DM as "Új üzenet bob-tól" with VAPID for the endpoint origin, TTL and aes128gcm, and no message text', async () => {
    const { alice, bob } = srv.net;
    const start = endpoint.received.length;
    const content = await nip04.encrypt(bob.sk, alice.pk, DM_TEXT);
    const dm = sign(bob, 4, srv.ctx.now(), content, [['p', alice.pk]]);
    await load(dm);
    const got = arrivedSince(start);
    expect(got.map((r) => r.path)).toEqual(['/sub/alice']);
    const [r] = got;
    expect(r.headers.ttl).toBe('86400');
    expect(r.headers['content-encoding']).toBe('aes128gcm');
    expect(r.headers.urgency).toBe('normal');
    const { claims, key } = vapidClaims(r.headers.authorization);
    expect(key).toBe(pushServiceOf(srv.ctx)!.keys.publicKey);
    expect(claims.aud).toBe(endpoint.origin);
    expect(claims.sub).toBe('mailto:push@strucc.test');
    expect(Number(claims.exp)).toBeGreaterThan(Math.floor(Date.now() / 1000));
    expect(Number(claims.exp)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 24 * 3600);
    // What travels is encrypted: neither the DM text nor its NIP-04 ciphertext is readable on the wire.
    expect(r.body.includes(Buffer.from('Új üzenet'))).toBe(false);
    const text = browser.decrypt(r.body);
    expect(JSON.parse(text)).toEqual({
      type: 'dm',
      title: 'Új üzenet bob-tól',
      body: 'Nyisd meg az üzeneteidet a Struccban.',
      url: `/dms/${nip19.npubEncode(bob.pk)}`,
      tag: `dm:${bob.pk}`,
    });
    expect(text).not.toContain('széf');
    expect(text).not.toContain(content.slice(0, 16));
  });

  it('pushes a mention, a reply and a zap, each with its title, route and the public text', async () => {
    const { alice, bob, carol } = srv.net;
    const start = endpoint.received.length;
    const mention = sign(carol, 1, srv.ctx.now(), `Szia nostr:${nip19.npubEncode(alice.pk)}, nézd meg!`, [['p', alice.pk]]);
    await load(mention);
    const reply = sign(bob, 1, srv.ctx.now(), 'Jó bejegyzés, Alice!', [['e', aliceNote.id, '', 'root'], ['p', alice.pk]]);
    await load(reply);
    const request = sign(carol, 9734, srv.ctx.now(), 'Köszi!', [['p', alice.pk], ['e', aliceNote.id], ['amount', '21000']]);
    const zap = sign(wallet, 9735, srv.ctx.now(), '', [
      ['p', alice.pk],
      ['e', aliceNote.id],
      ['bolt11', 'lnbc210n1pjtestpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypq'],
      ['description', JSON.stringify(request)],
    ]);
    await load(zap);
    const got = arrivedSince(start).map((r) => JSON.parse(browser.decrypt(r.body)) as Record<string, string>);
    expect(got).toEqual([
      { type: 'mention', title: 'carol megemlített egy bejegyzésben', body: `Szia nostr:${nip19.npubEncode(alice.pk)}, nézd meg!`, url: `/e/${nip19.noteEncode(mention.id)}`, tag: `mention:${mention.id}` },
      { type: 'reply', title: 'bob válaszolt neked', body: 'Jó bejegyzés, Alice!', url: `/e/${nip19.noteEncode(reply.id)}`, tag: `reply:${reply.id}` },
      { type: 'zap', title: 'carol 21 satot zappolt a bejegyzésedre', body: 'Köszi!', url: '/notifications', tag: `zap:${zap.id}` },
    ]);
  });

  it('respects the types a subscription asked for, and a stranger\'s DM (messages only from people followed) sends nothing', async () => {
    const { alice, bob, carol } = srv.net;
    expect(await subscribe(alice, '/sub/alice', ['dm'])).toEqual([]);
    const start = endpoint.received.length;
    await load(sign(carol, 1, srv.ctx.now(), 'Megint te, alice!', [['p', alice.pk]]));
    await load(sign(bob, 1, srv.ctx.now(), 'Még egy válasz', [['e', aliceNote.id, '', 'root'], ['p', alice.pk]]));
    await load(sign(stranger, 4, srv.ctx.now(), await nip04.encrypt(stranger.sk, alice.pk, 'szia'), [['p', alice.pk]]));
    expect(arrivedSince(start)).toEqual([]);
    await load(sign(carol, 4, srv.ctx.now(), await nip04.encrypt(carol.sk, alice.pk, 'szia'), [['p', alice.pk]]));
    expect(arrivedSince(start).map((r) => JSON.parse(browser.decrypt(r.body)).title)).toEqual(['Új üzenet carol-tól']);
  });

  it('removes a subscription its push service answers 410 for, and keeps delivering to the others', async () => {
    const { alice, bob } = srv.net;
    const second = new BrowserKeys();
    expect(await subscribe(alice, '/gone/old-phone', ['dm'], second)).toEqual([]);
    expect((await rows()).map((r) => r.endpoint)).toEqual([`${endpoint.origin}/gone/old-phone`, `${endpoint.origin}/sub/alice`]);
    const removedBefore = pushServiceOf(srv.ctx)!.stats.removed;
    const start = endpoint.received.length;
    await load(sign(bob, 4, srv.ctx.now(), await nip04.encrypt(bob.sk, alice.pk, 'még egy'), [['p', alice.pk]]));
    expect(arrivedSince(start).map((r) => r.path).sort()).toEqual(['/gone/old-phone', '/sub/alice']);
    expect(JSON.parse(second.decrypt(arrivedSince(start).find((r) => r.path === '/gone/old-phone')!.body)).title).toBe('Új üzenet bob-tól');
    expect((await rows()).map((r) => r.endpoint)).toEqual([`${endpoint.origin}/sub/alice`]);
    expect(pushServiceOf(srv.ctx)!.stats.removed).toBe(removedBefore + 1);
  });

  it('stops after a signed unsubscribe (as logout sends), which only its signer can make', async () => {
    const { alice, bob } = srv.net;
    // Bob cannot remove Alice's subscription, even naming its endpoint.
    expect(await call('push_unsubscribe', signed(bob, 'push_unsubscribe', { endpoint: `${endpoint.origin}/sub/alice` }))).toEqual([]);
    expect((await rows()).map((r) => r.pubkey)).toEqual([alice.pk]);
    expect(await call('push_unsubscribe', signed(alice, 'push_unsubscribe', { endpoint: `${endpoint.origin}/sub/alice` }))).toEqual([]);
    expect(await rows()).toEqual([]);
    const start = endpoint.received.length;
    await load(sign(bob, 4, srv.ctx.now(), await nip04.encrypt(bob.sk, alice.pk, 'hahó'), [['p', alice.pk]]));
    expect(arrivedSince(start)).toEqual([]);
  });

  it('never holds up an import: a stuck push service fills the bounded queue, the rest is dropped and counted', async () => {
    const { alice, bob } = srv.net;
    const service = pushServiceOf(srv.ctx)!;
    expect(await subscribe(alice, '/hold/stuck', ['dm'])).toEqual([]);
    const droppedBefore = service.stats.dropped;
    const dms = Array.from({ length: MAX_QUEUED_EVENTS + 10 }, (_, i) => sign(bob, 4, srv.ctx.now() - i, `x${i}?iv=AAAAAAAAAAAAAAAAAAAAAA==`, [['p', alice.pk]]));
    // Resolves while the push service has not answered a single post.
    const results = await srv.ctx.importer.importEvents(dms);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(service.stats.dropped - droppedBefore).toBe(10);
    await until(() => endpoint.received.some((r) => r.path === '/hold/stuck'), 'the stuck push request');
    expect(endpoint.received.filter((r) => r.path === '/hold/stuck')).toHaveLength(1);
    // The service comes back saying the subscription is gone: the rest of the queue finds no one to send to.
    endpoint.release(410);
    await service.idle();
    expect(endpoint.received.filter((r) => r.path === '/hold/stuck')).toHaveLength(1);
    expect(await rows()).toEqual([]);
  });
});
