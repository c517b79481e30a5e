/**
 * The wallet socket (/wallet) on both stores: the `wallet` operations (exchange rate, is_user,
 * nwc_connect, withdraw), their signature and kind checks, and bad input on the socket.
 */
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureMembership, parseExchangeRates } from '../../server/membership/config.ts';
import { startTempPostgres, type TempPostgres } from '../support/postgres.ts';
import { CacheClient, content } from './cache-client.ts';
import { http, startTestServer, type TestServer } from './services-support.ts';

const alice = generateSecretKey();
const bob = generateSecretKey();
const alicePk = getPublicKey(alice);
const bobPk = getPublicKey(bob);

describe.each(['sqlite', 'postgres'] as const)('wallet socket (%s)', (store) => {
  let pg: TempPostgres | null = null;
  let t: TestServer;
  let ws: CacheClient;
  let n = 0;
  const sub = () => `w${++n}`;
  /** A wallet operation tagged with its op (protocol C.1); malformed bodies are tagged exchange_rate so the content check is what refuses them. */
  const op = (sk: Uint8Array, kind: number, body: unknown) => {
    const named = Array.isArray(body) && ['exchange_rate', 'withdraw', 'is_user', 'nwc_connect'].includes(body[0]) ? (body[0] as string) : 'exchange_rate';
    const content = typeof body === 'string' ? body : JSON.stringify(body);
    return finalizeEvent({ kind, tags: [['d', 'Primal-Web App', named]], content, created_at: t.clock.now }, sk);
  };
  const wallet = (event: unknown) => ws.req(sub(), 'wallet', { operation_event: event });

  beforeAll(async () => {
    pg = store === 'postgres' ? await startTempPostgres() : null;
    t = await startTestServer({ DATABASE_URL: pg?.url ?? '' });
    configureMembership(t.server.ctx, { exchangeRates: parseExchangeRates('{"usd":50000,"HUF":20000000}') });
    ws = await CacheClient.connect(`${t.base.replace('http', 'ws')}/wallet`);
    const res = await t.server.ctx.importer.importEvents([
      finalizeEvent({ kind: 0, tags: [], content: JSON.stringify({ name: 'bob' }), created_at: t.clock.now - 60 }, bob),
    ]);
    expect(res.every((r) => r.ok)).toBe(true);
  });

  afterAll(async () => {
    await ws?.close();
    await t?.stop();
    pg?.stop();
  });

  it('answers exchange rates from the configured table', async () => {
    const usd = await wallet(op(alice, 10000300, ['exchange_rate', { target_currency: 'USD' }]));
    expect(usd.events).toEqual([{ kind: 10000305, content: JSON.stringify({ rate: 50000, target_currency: 'USD' }) }]);
    const huf = await wallet(op(alice, 10000300, ['exchange_rate', { target_currency: 'HUF' }]));
    expect(content(huf.events[0]).rate).toBe(20000000);
    expect((await wallet(op(alice, 10000300, ['exchange_rate', { target_currency: 'EUR' }]))).notices[0]).toContain('unknown target_currency');
    // EXCHANGE_RATES is checked when the server starts: a wrong table stops it instead of mispricing plans.
    for (const bad of ['nem json', '[1]', '{"USD":-1}', '{"EURO":1,"USD":1}', '{"HUF":1}']) expect(() => parseExchangeRates(bad)).toThrow(/EXCHANGE_RATES/);
    expect(parseExchangeRates(undefined)).toEqual({ USD: 100000, EUR: 92000, HUF: 37000000 });
  });

  it('tells unknown, known and wallet users apart, and connects apps over NIP-47', async () => {
    const isUser = async (pubkey: string) => (await wallet(op(alice, 10000802, ['is_user', { pubkey }]))).events[0];
    expect(await isUser(alicePk)).toEqual({ kind: 10000802, content: '0' });
    expect(await isUser(bobPk)).toEqual({ kind: 10000802, content: '1' });

    const r = await wallet(op(bob, 10000803, ['nwc_connect', { appname: 'Strucc teszt' }]));
    expect(r.notices).toEqual([]);
    expect(r.events[0].kind).toBe(10000803);
    const uri = new URL(content<{ uri: string }>(r.events[0]).uri);
    expect(uri.protocol).toBe('nostr+walletconnect:');
    expect(uri.host).toMatch(/^[0-9a-f]{64}$/);
    expect(uri.searchParams.get('relay')).toBe(`${t.base.replace('http', 'ws')}/relay`);
    const secret = uri.searchParams.get('secret') ?? '';
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    // Only the client key's pubkey is kept: a leaked database must not let anyone use the connection.
    const rows = await t.server.ctx.db.all<Record<string, unknown>>('SELECT * FROM wallet_nwc_connections');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ pubkey: bobPk, appname: 'Strucc teszt', client_pubkey: getPublicKey(Buffer.from(secret, 'hex')) });
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(await isUser(bobPk)).toEqual({ kind: 10000802, content: '2' });
    // Each connection gets its own secret.
    const again = await wallet(op(bob, 10000803, ['nwc_connect', { appname: 'Másik' }]));
    expect(new URL(content<{ uri: string }>(again.events[0]).uri).searchParams.get('secret')).not.toBe(secret);
    expect((await wallet(op(bob, 10000803, ['nwc_connect', {}]))).notices).toEqual(['missing appname']);
  });

  it('refuses withdrawals clearly, and forged, mismatched or malformed operations', async () => {
    const withdraw = await wallet(op(alice, 10000300, ['withdraw', { subwallet: 1, lnInvoice: 'lnbc1', target_lud16: 'x@y.z' }]));
    expect(withdraw.notices[0]).toContain('nem érhető el');
    const forged = op(alice, 10000803, ['nwc_connect', { appname: 'a' }]);
    forged.content = JSON.stringify(['nwc_connect', { appname: 'b' }]);
    const before = await t.server.ctx.db.all('SELECT client_pubkey FROM wallet_nwc_connections');
    const cases: [unknown, RegExp][] = [
      [forged, /bad signature/],
      [op(alice, 10000300, ['nwc_connect', { appname: 'a' }]), /must be signed as kind 10000803/],
      [op(alice, 30078, ['exchange_rate', {}]), /wrong kind/],
      [op(alice, 10000300, ['get_balance', {}]), /unknown wallet operation/],
      [op(alice, 10000300, 'nem json'), /not JSON/],
      [op(alice, 10000300, { op: 'exchange_rate' }), /\[operation, params\]/],
      [op(alice, 10000300, ['exchange_rate', [1]]), /params must be an object/],
      [undefined, /missing event_from_user|missing operation_event/],
      [{ ...op(alice, 10000300, ['exchange_rate', {}]), created_at: t.clock.now + 3600 }, /future|bad signature/],
    ];
    for (const [event, reason] of cases) {
      const r = await wallet(event);
      expect(r.notices[0], JSON.stringify(event)).toMatch(reason);
      expect(r.frames.at(-1)?.msg[0]).toBe('EOSE');
    }
    expect(await t.server.ctx.db.all('SELECT client_pubkey FROM wallet_nwc_connections')).toEqual(before);
  });

  it('serves membership commands and survives bad frames', async () => {
    const status = await ws.req(sub(), 'membership_status', {
      event_from_user: finalizeEvent({ kind: 30078, tags: [['d', 'Primal-Web App', 'get_membership_status']], content: '{"description":"status"}', created_at: t.clock.now }, alice),
    });
    expect(content(status.events[0])).toMatchObject({ pubkey: alicePk, tier: 'none', used_storage: 0 });
    expect((await ws.req(sub(), 'feed', {})).notices).toEqual(['unknown api request']);
    expect((await ws.raw('["REQ","x",{"cache":"wallet"}]', 'x')).notices[0]).toContain('invalid request');
    ws.send('nem json');
    await ws.until(() => ws.frames.some((f) => f.msg[0] === 'NOTICE' && f.msg[2] === 'invalid JSON'), 'invalid JSON notice');
    const monitor = await ws.req(sub(), 'membership_purchase_monitor', { membership_quote_id: 'nincs-ilyen' });
    expect(monitor.notices).toEqual(['unknown membership_quote_id']);
    // DEMO is off here, so demo payments are too: the endpoint does not exist.
    const pay = await http('POST', `${t.base}/api/demo/pay-quote`, { body: '{"membership_quote_id":"x"}' });
    expect(pay.status).toBe(404);
    // The socket still answers after all of that.
    expect(content((await wallet(op(alice, 10000300, ['exchange_rate', {}]))).events[0]).rate).toBe(50000);
  });
});
