/**
 * The membership provider end to end, on both stores: name rules, purchase → invoice → demo
 * payment → monitor push → status, NIP-05 and leaderboards; forged requests; premium media,
 * content tools and rebroadcast to a second server's relay.
 */
import { createHash } from 'node:crypto';
import { decode } from 'light-bolt11-decoder';
import { finalizeEvent, generateSecretKey, getPublicKey, type EventTemplate } from 'nostr-tools/pure';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureMembership } from '../../server/membership/config.ts';
import { NAME_BAD_CHARS, NAME_TOO_SHORT } from '../../server/membership/names.ts';
import { addMonths } from '../../server/membership/products.ts';
import { resumeRebroadcasts } from '../../server/membership/rebroadcast.ts';
import { PREMIUM_LIMIT_BYTES, REGULAR_LIMIT_BYTES, uploadLimitBytes } from '../../server/upload/types.ts';
import { startTempPostgres, type TempPostgres } from '../support/postgres.ts';
import { CacheClient, content, ofKind } from './cache-client.ts';
import { http, jsonOf, startTestServer, type TestServer } from './services-support.ts';
import { startPeerRelay, type TestRelay } from '../support/peer-relay.ts';

const REPLY = 10000300;
const alice = generateSecretKey();
const bob = generateSecretKey();
const carol = generateSecretKey();
const [alicePk, bobPk, carolPk] = [alice, bob, carol].map((sk) => getPublicKey(sk));

describe.each(['sqlite', 'postgres'] as const)('membership (%s)', (store) => {
  let pg: TempPostgres | null = null;
  let t: TestServer;
  let relayServer: TestServer;
  /** A relay written by others (tests/support/peer-relay.ts) on the same list, so rebroadcast is not only proven against Strucc. */
  let peer: TestRelay;
  let v1: CacheClient;
  let wallet: CacheClient;
  let n = 0;
  const sub = () => `m${++n}`;
  const now = () => t.clock.now;
  /** A signed request (protocol C.1) for `op`; each membership command's op is its own name. */
  const sign = (sk: Uint8Array, tmpl: Partial<EventTemplate> & { content: string }, op = 'membership_change_name') =>
    finalizeEvent({ kind: 30078, tags: [['d', 'Primal-Web App', op]], created_at: now(), ...tmpl }, sk);
  const signed = (sk: Uint8Array, body: Record<string, unknown> = {}, op?: string) => sign(sk, { content: JSON.stringify(body) }, op);
  const ask = (c: CacheClient, command: string, sk: Uint8Array, body: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
    c.req(sub(), command, { event_from_user: signed(sk, body, command), ...extra });
  const status = async (sk: Uint8Array, c = v1) => content(ofKind((await ask(c, 'membership_status', sk)).events, REPLY)[0]);
  const nip05 = async (name: string) => jsonOf<{ names: Record<string, string> }>(await http('GET', `${t.base}/.well-known/nostr.json?name=${name}`)).names;
  const pay = (id: string) => http('POST', `${t.base}/api/demo/pay-quote`, { body: JSON.stringify({ membership_quote_id: id }), headers: { 'Content-Type': 'application/json' } });
  const quote = async (sk: Uint8Array, body: Record<string, unknown>) => {
    const r = await ask(wallet, 'membership_purchase_product', sk, body);
    expect(r.notices).toEqual([]);
    return content(ofKind(r.events, REPLY)[0]);
  };
  const importAll = async (events: unknown[]) => {
    const res = await t.server.ctx.importer.importEvents(events);
    expect(res.filter((r) => !r.ok)).toEqual([]);
  };

  beforeAll(async () => {
    pg = store === 'postgres' ? await startTempPostgres() : null;
    t = await startTestServer({ DATABASE_URL: pg?.url ?? '' });
    relayServer = await startTestServer();
    peer = await startPeerRelay();
    configureMembership(t.server.ctx, { demoPayments: true });
    v1 = await CacheClient.connect(`${t.base.replace('http', 'ws')}/v1`);
    wallet = await CacheClient.connect(`${t.base.replace('http', 'ws')}/wallet`);
    const day0 = Math.floor((now() - 3 * 86400) / 86400) * 86400 + 3600;
    const follows = (k: number) => Array.from({ length: k }, (_, i) => ['p', getPublicKey(new Uint8Array(32).fill(i + 1))]);
    await importAll([
      sign(carol, { kind: 0, tags: [], content: JSON.stringify({ name: 'carol', nip05: 'claimed@strucc.test' }) }),
      sign(alice, { kind: 0, tags: [], content: JSON.stringify({ name: 'alice' }) }),
      sign(alice, { kind: 3, tags: follows(2), content: '', created_at: day0 }),
      sign(alice, { kind: 3, tags: follows(5), content: '', created_at: day0 + 60 }),
      sign(alice, { kind: 3, tags: follows(1), content: '', created_at: day0 + 2 * 86400 }),
      ...[1, 2, 3].map((i) => sign(alice, { kind: 1, tags: [], content: `Jegyzet ${i}`, created_at: now() - 100 + i })),
      sign(alice, { kind: 10002, tags: [['r', `${relayServer.base.replace('http', 'ws')}/relay`], ['r', peer.url, 'write'], ['r', 'wss://olvasas.example', 'read']], content: '' }),
    ]);
  });

  afterAll(async () => {
    await v1?.close();
    await wallet?.close();
    await t?.stop();
    await relayServer?.stop();
    await peer?.close();
    pg?.stop();
  });

  it('checks premium names: length and characters in Hungarian, taken and claimed names unavailable', async () => {
    const check = async (name: string, pubkey?: string) => {
      const r = await v1.req(sub(), 'membership_name_available', { name, ...(pubkey ? { pubkey } : {}) });
      return r.notices.length ? r.notices[0] : content(r.events[0]).available;
    };
    expect(await check('ab')).toBe(NAME_TOO_SHORT);
    expect(await check('Ékezet')).toBe(NAME_BAD_CHARS);
    expect(await check('van szóköz')).toBe(NAME_BAD_CHARS);
    expect(await check('claimed')).toBe(false);
    expect(await check('claimed', carolPk)).toBe(true);
    expect(await check('admin')).toBe(false);
    expect(await check('Alice')).toBe(true);
    const bad = await v1.req(sub(), 'membership_name_available', { name: 5 });
    expect(bad.notices).toEqual(['invalid name: expected a string']);
    expect(bad.frames.at(-1)?.msg[0]).toBe('EOSE');
  });

  it('sells premium: a real invoice, demo payment, monitor push, status, NIP-05 and leaderboard', async () => {
    expect((await status(alice)).tier).toBe('none');
    const q = await quote(alice, { name: 'Alice', product_id: '3-months-premium', receiver_pubkey: alicePk });
    expect(q).toMatchObject({ amount_usd: '21.00', amount_btc: '0.00021000', amount_sats: 21000, status: 'pending', name: 'alice' });
    const invoice = decode(String(q.qr_code));
    expect(invoice.sections.find((s) => s.name === 'amount')?.value).toBe('21000000');

    const monitorId = sub();
    const monitor = await wallet.req(monitorId, 'membership_purchase_monitor', { membership_quote_id: q.membership_quote_id });
    expect(monitor.notices).toEqual([]);
    const pushes = () => wallet.frames.filter((f) => f.msg[0] === 'EVENT' && f.msg[1] === monitorId).map((f) => content(f.msg[2] as Record<string, unknown>));
    await wallet.until(() => pushes().length > 0, 'pending push');
    expect(pushes()[0].status).toBe('pending');

    const paid = await pay(String(q.membership_quote_id));
    expect(paid.status).toBe(200);
    await wallet.until(() => pushes().some((p) => p.status === 'paid'), 'paid push');
    wallet.send(JSON.stringify(['CLOSE', monitorId]));

    expect(await status(alice)).toMatchObject({
      tier: 'premium',
      name: 'alice',
      rename: false,
      nostr_address: 'alice@strucc.test',
      lightning_address: 'alice@strucc.test',
      expires_on: addMonths(now(), 3),
    });
    expect(await nip05('alice')).toEqual({ alice: alicePk });
    const board = await v1.req(sub(), 'membership_premium_leaderboard', {});
    expect(content<{ pubkey: string }[]>(ofKind(board.events, 10000171)[0]).map((r) => r.pubkey)).toContain(alicePk);
    // Paying twice changes nothing; the name is now taken for others.
    expect((await pay(String(q.membership_quote_id))).status).toBe(200);
    expect((await status(alice)).expires_on).toBe(addMonths(now(), 3));
    expect(content((await v1.req(sub(), 'membership_name_available', { name: 'alice' })).events[0]).available).toBe(false);
    const history = await ask(wallet, 'membership_purchase_history', alice);
    expect(content<unknown[]>(ofKind(history.events, 10000605)[0])).toEqual([
      { purchased_at: now(), product_id: '3-months-premium', product_label: 'Prémium tagság – 3 hónap', amount_btc: '0.00021000', amount_usd: '21.00', currency: 'USD' },
    ]);
    expect(await uploadLimitBytes(t.server.ctx, alicePk)).toBe(PREMIUM_LIMIT_BYTES);
    expect(await uploadLimitBytes(t.server.ctx, carolPk)).toBe(REGULAR_LIMIT_BYTES);
  });

  it('makes legends from a donation of at least 100,000 Ft and lets only them customise', async () => {
    const low = await ask(wallet, 'membership_purchase_product', bob, { name: 'bob', product_id: 'legend-premium', receiver_pubkey: bobPk, amount_usd: 100 });
    expect(low.notices[0]).toContain('100');
    const q = await quote(bob, { name: 'bob', product_id: 'legend-premium', receiver_pubkey: bobPk, amount_usd: 300, onchain: false });
    expect(decode(String(q.qr_code)).sections.find((s) => s.name === 'amount')?.value).toBe('300000000');
    expect((await pay(String(q.membership_quote_id))).status).toBe(200);
    expect(await status(bob, wallet)).toMatchObject({ tier: 'premium-legend', expires_on: null, name: 'bob' });
    const legends = await v1.req(sub(), 'membership_legends_leaderboard', {});
    expect(content<Record<string, unknown>[]>(ofKind(legends.events, 10000170)[0])[0]).toMatchObject({ pubkey: bobPk, donated_btc: '300000' });

    const notLegend = await ask(wallet, 'membership_legend_customization', alice, { style: 'GOLD' });
    expect(notLegend.notices[0]).toContain('legenda');
    const wrong = await ask(wallet, 'membership_legend_customization', bob, { style: 'PINK' });
    expect(wrong.notices[0]).toContain('invalid style');
    const set = await ask(wallet, 'membership_legend_customization', bob, { style: 'GOLD', avatar_glow: true, custom_badge: true });
    expect(content(ofKind(set.events, 10000168)[0])[bobPk]).toMatchObject({ style: 'GOLD', avatar_glow: true, custom_badge: true });
    expect(content(ofKind(set.events, 10000169)[0])[bobPk]).toMatchObject({ cohort_1: 'Legend', tier: 'premium-legend' });
  });

  it('sends the legend looks and cohorts of every member with the profiles of any reply, in bulk', async () => {
    await importAll([
      sign(bob, { kind: 0, tags: [], content: JSON.stringify({ name: 'bob' }) }),
      sign(bob, { kind: 1, tags: [], content: 'Legenda jegyzet', created_at: now() - 5 }),
    ]);
    const infos = await v1.req(sub(), 'user_infos', { pubkeys: [alicePk, bobPk, carolPk] });
    expect(infos.notices).toEqual([]);
    expect(ofKind(infos.events, 10000168)).toHaveLength(1);
    expect(content(ofKind(infos.events, 10000168)[0])).toEqual({ [bobPk]: expect.objectContaining({ style: 'GOLD', avatar_glow: true, custom_badge: true }) });
    const cohorts = content<Record<string, { tier: string }>>(ofKind(infos.events, 10000169)[0]);
    expect(Object.keys(cohorts).sort()).toEqual([alicePk, bobPk].sort());
    expect(cohorts[bobPk].tier).toBe('premium-legend');
    const feed = await v1.req(sub(), 'feed', { pubkey: bobPk, notes: 'authored', limit: 5 });
    expect(content(ofKind(feed.events, 10000168)[0])[bobPk]).toMatchObject({ style: 'GOLD' });
    const plain = await v1.req(sub(), 'user_infos', { pubkeys: [carolPk] });
    expect(ofKind(plain.events, 10000169)).toEqual([]);
  });

  it('refuses forged, foreign-kind and future requests and changes nothing', async () => {
    const forged = signed(alice, { name: 'hamis' });
    forged.content = JSON.stringify({ name: 'hamisitott' });
    const quotesBefore = await t.server.ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM membership_quotes');
    const cases = [
      forged,
      sign(alice, { kind: 1, content: JSON.stringify({ name: 'hamis' }) }),
      sign(alice, { content: JSON.stringify({ name: 'hamis' }), created_at: now() + 3600 }),
    ];
    for (const ev of cases) {
      for (const c of [v1, wallet]) {
        const r = await c.req(sub(), 'membership_change_name', { event_from_user: ev });
        expect(r.notices[0]).toMatch(/invalid event_from_user/);
        expect(r.frames.at(-1)?.msg[0]).toBe('EOSE');
      }
    }
    const buy = { ...signed(alice, { name: 'x', product_id: '12-months-premium' }, 'membership_purchase_product'), content: JSON.stringify({ name: 'y', product_id: '12-months-premium' }) };
    expect((await wallet.req(sub(), 'membership_purchase_product', { event_from_user: buy })).notices[0]).toMatch(/bad signature/);
    // A pubkey argument never redirects the action: carol (no premium) cannot rename anyone.
    const foreign = await ask(wallet, 'membership_change_name', carol, { name: 'carolx', pubkey: alicePk }, { pubkey: alicePk });
    expect(foreign.notices[0]).toContain('prémium');
    expect((await status(alice)).name).toBe('alice');
    expect(await t.server.ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM membership_quotes')).toEqual(quotesBefore);
    expect((await ask(v1, 'membership_stripe_checkout_session_check_status', alice, { session_id: 'x' })).notices[0]).toContain('Kártyás fizetés');
  });

  it('renames a member, and the NIP-05 name follows', async () => {
    const r = await ask(wallet, 'membership_change_name', alice, { name: 'aliz' });
    expect(content(ofKind(r.events, REPLY)[0]).name).toBe('aliz');
    expect(await nip05('aliz')).toEqual({ aliz: alicePk });
    expect(await nip05('alice')).toEqual({});
    expect((await ask(wallet, 'membership_change_name', alice, { name: 'bob' })).notices).toEqual(['A név már foglalt.']);
  });

  it('manages the member’s media: stats, uploads page and delete', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3a3' } }).png().toBuffer();
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), Buffer.alloc(500, 7)]);
    for (const [body, type, at] of [[png, 'image/png', now() - 10], [mp4, 'video/mp4', now() - 5]] as const) {
      const auth = finalizeEvent({ kind: 24242, content: 'Feltöltés', tags: [['t', 'upload'], ['expiration', String(now() + 600)]], created_at: at }, alice);
      const res = await http('PUT', `${t.base}/upload`, { body, headers: { Authorization: `Nostr ${Buffer.from(JSON.stringify(auth)).toString('base64')}`, 'Content-Type': type } });
      expect(res.status).toBe(200);
    }
    const stats = content((await ask(v1, 'membership_media_management_stats', alice)).events[0]);
    expect(stats).toEqual({ image: png.length, video: mp4.length, other: 0, free: 100 * 1024 ** 3 - png.length - mp4.length });
    const page = content<{ url: string; size: number; mimetype: string }[]>((await ask(v1, 'membership_media_management_uploads', alice, { limit: 1 })).events[0]);
    expect(page).toHaveLength(1);
    const all = content<{ url: string; mimetype: string }[]>((await ask(wallet, 'membership_media_management_uploads', alice, { limit: 500 })).events[0]);
    expect(all.map((u) => u.mimetype).sort()).toEqual(['image/png', 'video/mp4']);
    const pngUrl = all.find((u) => u.mimetype === 'image/png')!.url;
    expect((await ask(wallet, 'membership_media_management_delete', bob, { url: pngUrl })).notices[0]).toContain('nem található');
    const del = await ask(wallet, 'membership_media_management_delete', alice, { url: pngUrl });
    expect(content(del.events[0])).toMatchObject({ image: 0, video: mp4.length });
    const sha = createHash('sha256').update(png).digest('hex');
    expect((await http('GET', `${t.base}/${sha}`)).status).toBe(404);
    expect((await ask(v1, 'membership_media_management_stats', carol)).notices[0]).toContain('prémium');
    expect((await status(alice)).used_storage).toBe(mp4.length);
  });

  it('recovers old follow lists (one per day, the fullest) and reports and backs up content', async () => {
    const rec = await ask(v1, 'membership_recovery_contact_lists', alice);
    const lists = ofKind(rec.events, 3) as { tags: string[][] }[];
    expect(lists.map((l) => l.tags.length)).toEqual([1, 5]);
    const stats = content<{ kind: number; cnt: number }[]>((await ask(v1, 'membership_content_stats', alice)).events[0]);
    expect(stats).toEqual([{ kind: 0, cnt: 1 }, { kind: 1, cnt: 3 }, { kind: 3, cnt: 1 }, { kind: 10002, cnt: 1 }]);
    const notes = await ask(wallet, 'membership_content_backup', alice, { kinds: [1], since: 0, limit: 2 });
    expect(notes.events.map((e) => e.content)).toEqual(['Jegyzet 1', 'Jegyzet 2']);
    // Superseded contact lists are not stored: 1 profile, 3 notes, 1 contact list, 1 relay list.
    const everything = await ask(wallet, 'membership_content_backup', alice, {});
    expect(everything.events).toHaveLength(6);
    expect((await ask(wallet, 'membership_content_backup', alice, { limit: 1e9 })).notices).toEqual(['limit too big']);
    expect((await ask(wallet, 'membership_content_backup', carol, {})).notices[0]).toContain('prémium');
  });

  it('rebroadcasts the member’s events to the relays of their list, pushing progress', async () => {
    const statusSub = sub();
    const watch = await wallet.req(statusSub, 'rebroadcasting_status', { event_from_user: signed(alice, {}, 'rebroadcasting_status') });
    expect(watch.events).toEqual([]);
    // Only relays of the member's own list can be chosen.
    const elsewhere = await ask(wallet, 'membership_content_rebroadcast_start', alice, { relays: ['wss://nincs-a-listan.example'] });
    expect(elsewhere.notices[0]).toContain('Nincs írható relé');
    // Both write relays of the list: ours and the one written by others.
    const started = await ask(wallet, 'membership_content_rebroadcast_start', alice, { relays: [`${relayServer.base.replace('http', 'ws')}/relay`, peer.url] });
    expect(started.notices).toEqual([]);
    const pushed = () => wallet.frames.filter((f) => f.msg[0] === 'EVENT' && f.msg[1] === statusSub).map((f) => content(f.msg[2] as Record<string, unknown>));
    await wallet.until(() => pushed().some((p) => p.status === 'done'), 'rebroadcast done');
    expect(pushed().at(-1)).toMatchObject({ running: false, status: 'done', progress: 1, total: 6, done: 6 });
    wallet.send(JSON.stringify(['CLOSE', statusSub]));
    const got = await relayServer.server.ctx.db.all<{ content: string }>('SELECT content FROM events WHERE pubkey = ? AND kind = 1 ORDER BY created_at', [alicePk]);
    expect(got.map((r) => r.content)).toEqual(['Jegyzet 1', 'Jegyzet 2', 'Jegyzet 3']);
    const atPeer = peer.received.filter((f) => f[0] === 'EVENT').map((f) => f[1] as { pubkey: string; kind: number; content: string });
    expect(atPeer.filter((e) => e.pubkey === alicePk && e.kind === 1).map((e) => e.content).sort()).toEqual(['Jegyzet 1', 'Jegyzet 2', 'Jegyzet 3']);
    expect(atPeer).toHaveLength(6);
    // A job cut off by a restart resumes from its cursor: 5 sent before, only the last one now.
    const db = t.server.ctx.db;
    const fifth = await db.get<{ created_at: number; id: string }>('SELECT created_at, id FROM events WHERE pubkey = ? ORDER BY created_at, id LIMIT 1 OFFSET 4', [alicePk]);
    await db.run(`UPDATE membership_rebroadcasts SET status = 'running', done = 5, cursor_created_at = ?, cursor_id = ? WHERE pubkey = ?`, [Number(fifth!.created_at), fifth!.id, alicePk]);
    await resumeRebroadcasts(t.server.ctx);
    const resumedSub = sub();
    await wallet.req(resumedSub, 'rebroadcasting_status', { event_from_user: signed(alice, {}, 'rebroadcasting_status') });
    const resumed = () => wallet.frames.filter((f) => f.msg[0] === 'EVENT' && f.msg[1] === resumedSub).map((f) => content(f.msg[2] as Record<string, unknown>));
    await wallet.until(() => resumed().some((p) => p.status === 'done'), 'resumed rebroadcast done');
    expect(resumed().at(-1)).toMatchObject({ status: 'done', done: 6, total: 6 });
    wallet.send(JSON.stringify(['CLOSE', resumedSub]));
    const cancelled = await ask(v1, 'membership_content_rebroadcast_cancel', alice);
    expect(content(cancelled.events[0])).toMatchObject({ running: false });
    expect((await ask(v1, 'membership_content_rebroadcast_start', carol)).notices[0]).toContain('prémium');
  });

  it('answers exchange rates and lets a premium plan lapse when it ends', async () => {
    const eur = await v1.req(sub(), 'membership_exchange_rate', { target_currency: 'eur' });
    expect(content(eur.events[0])).toEqual({ rate: 92000, target_currency: 'EUR' });
    expect(content((await ask(wallet, 'membership_exchange_rate', alice, {})).events[0]).rate).toBe(100000);
    expect((await v1.req(sub(), 'membership_exchange_rate', { target_currency: 'XYZ' })).notices[0]).toContain('unknown target_currency');
    t.clock.now = addMonths(now(), 4);
    expect(await status(alice)).toMatchObject({ tier: 'none', name: '', expires_on: null });
    expect(await nip05('aliz')).toEqual({});
    expect((await status(bob)).tier).toBe('premium-legend');
  });
});
