/**
 * The demo lightning network end to end on both stores: a NIP-57 zap request through LNURL-pay
 * becomes a ledger invoice, is paid over NIP-47 — with nostr-tools' nip47 helpers (NIP-04) and
 * with @getalby/sdk's NWCClient (NIP-44), both talking to the wallet service on our relay — and
 * the receipt shows up in the zap lists, the note's stats and top zaps, and the receiver's
 * notifications; balances move; paid, expired and external invoices are refused; bad zap
 * requests get LUD-06 errors; permissions and budgets hold; a membership quote paid over NWC
 * activates the membership.
 */
import { NWCClient } from '@getalby/sdk';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import { nip04, nip47 } from 'nostr-tools';
import { finalizeEvent, generateSecretKey, getPublicKey, type EventTemplate } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZAPPER_PUBKEY } from '../../server/demo/accounts.ts';
import { encodeBolt11 } from '../../server/demo/bolt11.ts';
import { pruneInvoices } from '../../server/lightning/ledger.ts';
import { walletServiceReady, walletServiceRelays } from '../../server/lightning/nwc.ts';
import { startTempPostgres, type TempPostgres } from '../support/postgres.ts';
import { CacheClient, content, ofKind } from './cache-client.ts';
import { descriptionHashOf, nwcConnect, paymentHashOf, RelayClient } from './lightning-support.ts';
import { http, jsonOf, startTestServer, type TestServer } from './services-support.ts';
import { until } from '../support/until.ts';
import { signEvent } from '../support/sign.ts';
import type { NostrEvent } from '../../core/types.ts';

const alice = generateSecretKey();
const bob = generateSecretKey();
const carol = generateSecretKey();
const alicePk = getPublicKey(alice);
const bobPk = getPublicKey(bob);
const carolPk = getPublicKey(carol);

type Lnurl = { pr?: string; routes?: unknown[]; status?: string; reason?: string };

describe.each(['sqlite', 'postgres'] as const)('demo lightning network (%s)', (store) => {
  let pg: TempPostgres | null = null;
  let t: TestServer;
  /** Another relay named in the zap request: the receipt is sent there too. */
  let elsewhere: TestServer;
  let v1: CacheClient;
  let wallet: CacheClient;
  let relay: RelayClient;
  let relayUrl = '';
  let note: NostrEvent;
  let n = 0;
  const sign = (sk: Uint8Array, tmpl: Partial<EventTemplate>) => signEvent(sk, { created_at: t.clock.now, ...tmpl });
  const zapRequest = (sk: Uint8Array, tags: string[][], text = 'Haladjunk együtt! 🫡') => sign(sk, { kind: 9734, content: text, tags });
  const callback = async (name: string, query: Record<string, string>): Promise<Lnurl> => {
    const meta = jsonOf<{ callback: string }>(await http('GET', `${t.base}/.well-known/lnurlp/${name}`));
    const r = await http('GET', `${meta.callback}?${new URLSearchParams(query).toString()}`);
    expect(r.status).toBe(200);
    return jsonOf<Lnurl>(r);
  };
  const balance = async (pk: string) => Number((await t.server.ctx.db.get<{ b: number }>('SELECT balance_sats AS b FROM ln_accounts WHERE pubkey = ?', [pk]))?.b);

  /** pay_invoice the way nostr-tools' nip47 helper builds it (NIP-04), read back over the relay. */
  async function payWithNostrTools(uri: string, invoice: string): Promise<{ result_type: string; result?: { preimage: string }; error?: { code: string; message: string } }> {
    const conn = nip47.parseConnectionString(uri);
    const secret = Uint8Array.from(Buffer.from(conn.secret, 'hex'));
    const req = await nip47.makeNwcRequestEvent(conn.pubkey, secret, invoice);
    const subId = `r${++n}`;
    await relay.subscribe(subId, { kinds: [23195], '#e': [req.id] });
    expect(await relay.publish(req)).toEqual([true, '']);
    const answer = await relay.next(subId);
    expect(answer.pubkey).toBe(conn.pubkey);
    return JSON.parse(await nip04.decrypt(secret, conn.pubkey, answer.content));
  }

  beforeAll(async () => {
    pg = store === 'postgres' ? await startTempPostgres() : null;
    t = await startTestServer({ DATABASE_URL: pg?.url ?? '', DEMO_LIGHTNING: '1' });
    elsewhere = await startTestServer();
    relayUrl = `${t.base.replace('http', 'ws')}/relay`;
    v1 = await CacheClient.connect(`${t.base.replace('http', 'ws')}/v1`);
    wallet = await CacheClient.connect(`${t.base.replace('http', 'ws')}/wallet`);
    relay = await RelayClient.connect(relayUrl);
    const profile = (sk: Uint8Array, name: string, lud16: string) => sign(sk, { kind: 0, created_at: t.clock.now - 100, content: JSON.stringify({ name, lud16 }) });
    note = sign(bob, { content: 'Zapold meg ezt!', created_at: t.clock.now - 50 });
    const res = await t.server.ctx.importer.importEvents([
      profile(alice, 'alice', 'alice@strucc.test'),
      profile(bob, 'bob', 'bob@strucc.test'),
      // Carol's address is elsewhere: she is no demo account and starts with nothing.
      profile(carol, 'carol', 'carol@example.com'),
      note,
    ]);
    expect(res.filter((r) => !r.ok)).toEqual([]);
  });

  afterAll(async () => {
    relay?.close();
    await v1?.close();
    await wallet?.close();
    await t?.stop();
    await elsewhere?.stop();
    pg?.stop();
  });

  it('zaps a note through LNURL and NIP-47 (nostr-tools, NIP-04); the receipt is counted, listed and notified', async () => {
    const info = jsonOf<Record<string, unknown>>(await http('GET', `${t.base}/.well-known/lnurlp/bob`));
    expect(info).toMatchObject({ tag: 'payRequest', allowsNostr: true, nostrPubkey: ZAPPER_PUBKEY, minSendable: 1000, maxSendable: 1_000_000_000, commentAllowed: 280 });
    const otherRelay = `${elsewhere.base.replace('http', 'ws')}/relay`;
    const request = zapRequest(alice, [['p', bobPk], ['e', note.id], ['amount', '21000'], ['relays', relayUrl, otherRelay], ['P', alicePk]]);
    const json = JSON.stringify(request);
    const answer = await callback('bob', { amount: '21000', nostr: json });
    expect(answer.routes).toEqual([]);
    const pr = String(answer.pr);
    expect(pr).toMatch(/^lnbc210n1/);
    // The invoice commits to exactly the zap request it was made for.
    expect(descriptionHashOf(pr)).toBe(bytesToHex(sha256(new TextEncoder().encode(json))));

    const uri = await nwcConnect(wallet, alice, t.clock.now, { appname: 'Teszt (nostr-tools)' });
    expect(new URL(uri).searchParams.get('lud16')).toBe('alice@strucc.test');
    const paid = await payWithNostrTools(uri, pr);
    expect(paid.error).toBeUndefined();
    expect(paid.result_type).toBe('pay_invoice');
    expect(bytesToHex(sha256(Buffer.from(String(paid.result?.preimage), 'hex')))).toBe(paymentHashOf(pr));
    expect(await balance(alicePk)).toBe(100_000 - 21);
    expect(await balance(bobPk)).toBe(100_000 + 21);

    // The receipt, signed by the zapper, went through normal ingestion.
    const zaps = await v1.req('z1', 'event_zaps_by_satszapped', { event_id: note.id });
    expect(zaps.notices).toEqual([]);
    const receipt = ofKind(zaps.events, 9735)[0] as { id: string; pubkey: string; tags: string[][] };
    expect(receipt.pubkey).toBe(ZAPPER_PUBKEY);
    const tag = (name: string) => receipt.tags.find((x) => x[0] === name)?.[1];
    expect(tag('p')).toBe(bobPk);
    expect(tag('e')).toBe(note.id);
    expect(tag('P')).toBe(alicePk);
    expect(tag('bolt11')).toBe(pr);
    expect(tag('description')).toBe(json);
    expect(tag('preimage')).toBe(paid.result?.preimage);
    const stats = await v1.req('z2', 'events', { event_ids: [note.id], extended_response: true });
    expect(content(ofKind(stats.events, 10000100)[0])).toMatchObject({ event_id: note.id, zaps: 1, satszapped: 21 });
    expect(content(ofKind(stats.events, 10000129)[0])).toMatchObject({ event_id: note.id, sender: alicePk, receiver: bobPk, amount_sats: 21 });
    const notes = await v1.req('z3', 'get_notifications', { pubkey: bobPk, type_group: 'zaps' });
    expect(ofKind(notes.events, 10000110).map((o) => content(o))).toEqual([
      expect.objectContaining({ type: 3, your_post: note.id, who_zapped_it: alicePk, satszapped: 21, message: 'Haladjunk együtt! 🫡' }),
    ]);

    // The other relay named in the zap request gets the same receipt (sent without holding up the payment).
    const other = await CacheClient.connect(`${elsewhere.base.replace('http', 'ws')}/v1`);
    const there = await until(async () => {
      const found = ofKind((await other.req(`o${++n}`, 'events', { event_ids: [receipt.id] })).events, 9735);
      return found.length > 0 && found;
    }, 'the receipt on the other relay', 10_000, 50);
    await other.close();
    expect(there).toHaveLength(1);

    // Paying the same invoice again is refused and moves nothing.
    const again = await payWithNostrTools(uri, pr);
    expect(again.error).toMatchObject({ code: 'PAYMENT_FAILED', message: 'A számlát már kifizették.' });
    expect(await balance(alicePk)).toBe(100_000 - 21);
  });

  it('counts a zap on an article whose receipt names it only by its a tag, and notifies the author', async () => {
    // People of their own, so the other tests' balances stay as they expect.
    const dave = generateSecretKey();
    const erin = generateSecretKey();
    const davePk = getPublicKey(dave);
    const erinPk = getPublicKey(erin);
    const profile = (sk: Uint8Array, name: string) => sign(sk, { kind: 0, created_at: t.clock.now - 100, content: JSON.stringify({ name, lud16: `${name}@strucc.test` }) });
    const article = sign(dave, { kind: 30023, content: '# Cikk\n\nZapold meg a címével!', tags: [['d', 'cim-szerint'], ['title', 'Cikk']] });
    const imported = await t.server.ctx.importer.importEvents([profile(dave, 'dave'), profile(erin, 'erin'), article]);
    expect(imported.filter((r) => !r.ok)).toEqual([]);
    const coordinate = `30023:${davePk}:cim-szerint`;
    // Only p and a: the way clients that zap an article by its address build the request.
    const request = zapRequest(erin, [['p', davePk], ['a', coordinate], ['amount', '5000'], ['relays', relayUrl]], 'Cím szerint');
    const answer = await callback('dave', { amount: '5000', nostr: JSON.stringify(request) });
    const uri = await nwcConnect(wallet, erin, t.clock.now, { appname: 'Cikk-zap' });
    const paid = await payWithNostrTools(uri, String(answer.pr));
    expect(paid.error).toBeUndefined();

    const zaps = await v1.req('za1', 'event_zaps_by_satszapped', { pubkey: davePk, identifier: 'cim-szerint', kind: 30023 });
    const receipt = ofKind(zaps.events, 9735)[0] as { tags: string[][] };
    expect(receipt.tags.filter((x) => x[0] === 'e')).toEqual([]);
    expect(receipt.tags.find((x) => x[0] === 'a')?.[1]).toBe(coordinate);
    const stats = await v1.req('za2', 'events', { event_ids: [article.id], extended_response: true });
    expect(content(ofKind(stats.events, 10000100)[0])).toMatchObject({ event_id: article.id, zaps: 1, satszapped: 5 });
    const notes = await v1.req('za3', 'get_notifications', { pubkey: davePk, type_group: 'zaps' });
    expect(ofKind(notes.events, 10000110).map((o) => content(o))).toEqual([
      expect.objectContaining({ type: 3, your_post: article.id, who_zapped_it: erinPk, satszapped: 5, message: 'Cím szerint' }),
    ]);
  });

  it('serves @getalby/sdk NWCClient over NIP-44: info, balance, invoices, lookups, transactions; refuses expired and external invoices', async () => {
    const bobClient = new NWCClient({ nostrWalletConnectUrl: await nwcConnect(wallet, bob, t.clock.now, { appname: 'Alby SDK' }) });
    const aliceClient = new NWCClient({ nostrWalletConnectUrl: await nwcConnect(wallet, alice, t.clock.now, { appname: 'Alby SDK' }) });
    try {
      expect(await bobClient.getWalletServiceInfo()).toMatchObject({ encryptions: ['nip04', 'nip44_v2'] });
      const info = await bobClient.getInfo();
      expect(info).toMatchObject({ network: 'mainnet', lud16: 'bob@strucc.test' });
      expect(info.methods).toEqual(['get_info', 'get_balance', 'pay_invoice', 'make_invoice', 'lookup_invoice', 'list_transactions']);
      expect(await bobClient.getBalance()).toEqual({ balance: 100_021_000 });

      // A profile zap (no e tag) to alice, paid by bob from the SDK client, a second after the first zap.
      t.clock.now += 1;
      const json = JSON.stringify(zapRequest(bob, [['p', alicePk], ['relays', relayUrl]], 'Köszi!'));
      const pr = String((await callback('alice', { amount: '5000', nostr: json, comment: 'Köszi!' })).pr);
      const paid = await bobClient.payInvoice({ invoice: pr });
      expect(bytesToHex(sha256(Buffer.from(paid.preimage, 'hex')))).toBe(paymentHashOf(pr));
      expect(await bobClient.getBalance()).toEqual({ balance: 100_016_000 });
      const profileZaps = await v1.req('z4', 'user_zaps_by_satszapped', { receiver: alicePk });
      expect(ofKind(profileZaps.events, 9735)).toHaveLength(1);

      const looked = await aliceClient.lookupInvoice({ payment_hash: paymentHashOf(pr) });
      expect(looked).toMatchObject({ type: 'incoming', state: 'settled', amount: 5000, preimage: paid.preimage });
      const { transactions } = await bobClient.listTransactions({});
      expect(transactions.map((x) => [x.type, x.amount])).toEqual([['outgoing', 5000], ['incoming', 21_000]]);

      // make_invoice → paid by the other wallet → settled for its maker.
      const made = await aliceClient.makeInvoice({ amount: 1000_000, description: 'Kávé' });
      expect(made).toMatchObject({ type: 'incoming', state: 'pending', amount: 1000_000, description: 'Kávé' });
      await bobClient.payInvoice({ invoice: made.invoice });
      expect(await aliceClient.lookupInvoice({ invoice: made.invoice })).toMatchObject({ state: 'settled' });
      expect(await balance(alicePk)).toBe(100_000 - 21 + 5 + 1000);

      // An invoice past its expiry cannot be paid.
      const short = await aliceClient.makeInvoice({ amount: 2000, expiry: 60 });
      t.clock.now += 61;
      await expect(bobClient.payInvoice({ invoice: short.invoice })).rejects.toMatchObject({ code: 'PAYMENT_FAILED', message: 'A számla lejárt.' });
      // A real invoice of another node is outside the demo ledger.
      const external = encodeBolt11({
        amountSats: 10,
        timestamp: t.clock.now,
        paymentHash: generateSecretKey(),
        paymentSecret: generateSecretKey(),
        descriptionHash: generateSecretKey(),
        expirySeconds: 3600,
        nodeSecretKey: generateSecretKey(),
      });
      await expect(bobClient.payInvoice({ invoice: external })).rejects.toMatchObject({ code: 'PAYMENT_FAILED' });
      expect(await bobClient.getBalance()).toEqual({ balance: (100_016 - 1000) * 1000 });
    } finally {
      bobClient.close();
      aliceClient.close();
    }
  });

  it('refuses bad zap requests with LUD-06 errors', async () => {
    const good = [['p', bobPk], ['e', note.id], ['relays', relayUrl]];
    const cases: [string, Record<string, string>, RegExp][] = [
      ['wrong amount tag', { amount: '2000', nostr: JSON.stringify(zapRequest(alice, [...good, ['amount', '1000']])) }, /amount címkéje/],
      ['bad signature', { amount: '1000', nostr: JSON.stringify({ ...zapRequest(alice, good), content: 'átírva' }) }, /aláírása érvénytelen/],
      ['missing p tag', { amount: '1000', nostr: JSON.stringify(zapRequest(alice, [['e', note.id], ['relays', relayUrl]])) }, /hiányzik a p címke/],
      ['two p tags', { amount: '1000', nostr: JSON.stringify(zapRequest(alice, [...good, ['p', alicePk]])) }, /pontosan egy p címke/],
      ['two e tags', { amount: '1000', nostr: JSON.stringify(zapRequest(alice, [...good, ['e', note.id]])) }, /legfeljebb egy e címke/],
      ['another recipient', { amount: '1000', nostr: JSON.stringify(zapRequest(alice, [['p', alicePk], ['relays', relayUrl]])) }, /nem ennek a villámcímnek/],
      ['no relays tag', { amount: '1000', nostr: JSON.stringify(zapRequest(alice, [['p', bobPk]])) }, /relays címke/],
      ['wrong kind', { amount: '1000', nostr: JSON.stringify(sign(alice, { kind: 1, tags: good })) }, /9734/],
      ['not JSON', { amount: '1000', nostr: '{nem json' }, /nem érvényes JSON/],
      ['no amount', {}, /amount paraméter/],
      ['too much', { amount: '2000000000' }, /között lehet/],
      ['millisats', { amount: '1500' }, /egész satoshit/],
      ['long comment', { amount: '1000', comment: 'x'.repeat(281) }, /legfeljebb 280/],
    ];
    for (const [what, query, reason] of cases) {
      const answer = await callback('bob', query);
      expect({ what, status: answer.status, pr: answer.pr }).toEqual({ what, status: 'ERROR', pr: undefined });
      expect(answer.reason, what).toMatch(reason);
    }
    const unknown = await http('GET', `${t.base}/lnurlp/callback/nincsilyen?amount=1000`);
    expect(jsonOf(unknown)).toEqual({ status: 'ERROR', reason: 'Ismeretlen villámcím.' });
    // A plain LNURL payment (no zap request) commits to the metadata instead.
    const meta = jsonOf<{ metadata: string }>(await http('GET', `${t.base}/.well-known/lnurlp/bob`)).metadata;
    const plain = await callback('bob', { amount: '1000', comment: 'Sima fizetés' });
    expect(descriptionHashOf(String(plain.pr))).toBe(bytesToHex(sha256(new TextEncoder().encode(meta))));
  });

  it('holds each connection to its permissions and budget; an empty account cannot pay', async () => {
    const pr = async () => String((await callback('bob', { amount: '21000' })).pr);
    const readOnly = await nwcConnect(wallet, alice, t.clock.now, { appname: 'Csak egyenleg', methods: ['get_balance'] });
    expect(await payWithNostrTools(readOnly, await pr())).toMatchObject({ error: { code: 'RESTRICTED' } });
    const small = await nwcConnect(wallet, alice, t.clock.now, { appname: 'Kis keret', budget_sats: 30, budget_renewal: 'daily' });
    expect(await payWithNostrTools(small, await pr())).toMatchObject({ result: { preimage: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(await payWithNostrTools(small, await pr())).toMatchObject({ error: { code: 'QUOTA_EXCEEDED' } });
    // The window is rolling: a day later the budget is there again.
    t.clock.now += 86_400;
    expect((await payWithNostrTools(small, await pr())).error).toBeUndefined();
    const empty = await nwcConnect(wallet, carol, t.clock.now, { appname: 'Üres' });
    expect(await payWithNostrTools(empty, await pr())).toMatchObject({ error: { code: 'INSUFFICIENT_BALANCE' } });
    // Carol's account was opened (with nothing) and rolled back with the refused payment.
    expect(await balance(carolPk)).toBeNaN();
    const bad = finalizeEvent({ kind: 10000803, tags: [['d', 'Primal-Web App', 'nwc_connect']], content: JSON.stringify(['nwc_connect', { appname: 'x', budget_sats: -1 }]), created_at: t.clock.now }, alice);
    expect((await wallet.req('bad', 'wallet', { operation_event: bad })).notices).toEqual(['invalid budget_sats: expected a non-negative integer']);
    // The answer is a spending secret: a replayed or stale signed request must not get one.
    const connect = (created_at: number) =>
      finalizeEvent({ kind: 10000803, tags: [['d', 'Primal-Web App', 'nwc_connect']], content: JSON.stringify(['nwc_connect', { appname: 'Egyszer' }]), created_at }, alice);
    const once = connect(t.clock.now);
    expect((await wallet.req('once', 'wallet', { operation_event: once })).notices).toEqual([]);
    expect((await wallet.req('twice', 'wallet', { operation_event: once })).notices).toEqual(['invalid operation_event: already used, sign a new one']);
    expect((await wallet.req('old', 'wallet', { operation_event: connect(t.clock.now - 301) })).notices).toEqual([
      'invalid operation_event: created_at is too old (signed requests are valid for 5 minutes)',
    ]);
  });

  it('activates a membership when its quote invoice is paid over NWC, and refuses a second payment', async () => {
    const buy = finalizeEvent(
      { kind: 30078, tags: [['d', 'Primal-Web App', 'membership_purchase_product']], created_at: t.clock.now, content: JSON.stringify({ name: 'alice', product_id: '3-months-premium', receiver_pubkey: alicePk }) },
      alice,
    );
    const r = await wallet.req('q', 'membership_purchase_product', { event_from_user: buy });
    expect(r.notices).toEqual([]);
    const quote = content<{ membership_quote_id: string; qr_code: string; amount_sats: number }>(r.events[0]);
    const before = await balance(alicePk);
    const uri = await nwcConnect(wallet, alice, t.clock.now, { appname: 'Prémium' });
    expect((await payWithNostrTools(uri, quote.qr_code)).error).toBeUndefined();
    expect(await balance(alicePk)).toBe(before - quote.amount_sats);
    const status = await t.server.ctx.db.get<{ status: string }>('SELECT status FROM membership_quotes WHERE id = ?', [quote.membership_quote_id]);
    expect(status?.status).toBe('paid');
    expect(await t.server.ctx.db.get('SELECT tier, name FROM memberships WHERE pubkey = ?', [alicePk])).toEqual({ tier: 'premium', name: 'alice' });
    expect(await payWithNostrTools(uri, quote.qr_code)).toMatchObject({ error: { code: 'PAYMENT_FAILED' } });
    expect(await balance(alicePk)).toBe(before - quote.amount_sats);
    // The bought name is the member's NIP-05 address at once.
    const names = jsonOf<{ names: Record<string, string> }>(await http('GET', `${t.base}/.well-known/nostr.json?name=alice`)).names;
    expect(names).toEqual({ alice: alicePk });
  });

  it('subscribes every connection again when the service loses its relay socket', async () => {
    const uris = [
      await nwcConnect(wallet, alice, t.clock.now, { appname: 'Megszakad 1' }),
      await nwcConnect(wallet, bob, t.clock.now, { appname: 'Megszakad 2' }),
    ];
    expect(walletServiceReady(t.server.ctx)).toBe(true);
    for (const r of walletServiceRelays(t.server.ctx)) {
      const ws = (r as unknown as { ws: { close(): void; once(ev: 'close', f: () => void): void } }).ws;
      const closed = new Promise<void>((resolve) => ws.once('close', resolve));
      ws.close();
      await closed;
    }
    expect(walletServiceReady(t.server.ctx)).toBe(false);
    await until(() => walletServiceReady(t.server.ctx), 'the wallet service reconnected', 10_000, 50);
    expect(walletServiceReady(t.server.ctx)).toBe(true);
    // Both connections answer again, not just the one the SDK itself resubscribes.
    for (const uri of uris) {
      const pr = String((await callback('bob', { amount: '1000' })).pr);
      expect((await payWithNostrTools(uri, pr)).result_type).toBe('pay_invoice');
    }
  });

  it('forgets unpaid invoices a day after they expired, keeping paid ones and quotes', async () => {
    const count = async (where: string) => Number((await t.server.ctx.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ln_invoices WHERE ${where}`))?.n);
    const unpaid = String((await callback('bob', { amount: '1000', comment: 'Sosem fizetik ki' })).pr);
    const paidBefore = await count(`status = 'paid'`);
    const quotesBefore = await count('quote_id IS NOT NULL');
    await pruneInvoices(t.server.ctx.db, t.clock.now);
    // Still payable: kept.
    expect(await count(`invoice = '${unpaid}'`)).toBe(1);
    t.clock.now += 600 + 86_400;
    await pruneInvoices(t.server.ctx.db, t.clock.now);
    // Expired, but not yet for a whole day: kept, so lookup_invoice can still say it failed.
    expect(await count(`invoice = '${unpaid}'`)).toBe(1);
    t.clock.now += 1;
    expect(await pruneInvoices(t.server.ctx.db, t.clock.now)).toBeGreaterThan(0);
    expect(await count(`invoice = '${unpaid}'`)).toBe(0);
    expect(await count(`status = 'pending' AND quote_id IS NULL`)).toBe(0);
    expect(await count(`status = 'paid'`)).toBe(paidBefore);
    expect(await count('quote_id IS NOT NULL')).toBe(quotesBefore);
  });

  it('refuses to pay a membership quote after it expired; the monitor reports expired and nothing changes', async () => {
    const buy = finalizeEvent(
      { kind: 30078, tags: [['d', 'Primal-Web App', 'membership_purchase_product']], created_at: t.clock.now, content: JSON.stringify({ name: 'bobby', product_id: '3-months-premium', receiver_pubkey: bobPk }) },
      bob,
    );
    const r = await wallet.req('qx', 'membership_purchase_product', { event_from_user: buy });
    expect(r.notices).toEqual([]);
    const quote = content<{ membership_quote_id: string; qr_code: string; amount_sats: number }>(r.events[0]);
    const uri = await nwcConnect(wallet, bob, t.clock.now, { appname: 'Lejárt' });
    const before = await balance(bobPk);
    t.clock.now += 3601;
    expect(await payWithNostrTools(uri, quote.qr_code)).toMatchObject({ error: { code: 'PAYMENT_FAILED' } });
    expect(await balance(bobPk)).toBe(before);
    const monitor = await wallet.req('mx', 'membership_purchase_monitor', { membership_quote_id: quote.membership_quote_id });
    expect(monitor.notices).toEqual([]);
    const pushes = () => wallet.frames.filter((f) => f.msg[0] === 'EVENT' && f.msg[1] === 'mx').map((f) => content(f.msg[2] as Record<string, unknown>));
    await wallet.until(() => pushes().length > 0, 'expired push');
    expect(pushes()[0]).toMatchObject({ status: 'expired', paid: false });
    wallet.send(JSON.stringify(['CLOSE', 'mx']));
    expect(await t.server.ctx.db.get('SELECT tier FROM memberships WHERE pubkey = ?', [bobPk])).toBeUndefined();
  });
});
