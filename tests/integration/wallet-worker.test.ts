/**
 * The worker's NIP-47 client (worker/nwc.ts) against the demo wallet service on our relay: the
 * balance, the transaction list and pay_invoice, the way /settings/nwc and a zap use them.
 */
import { generateSecretKey, type EventTemplate } from 'nostr-tools/pure';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNwcUri } from '../../machines/wallet.ts';
import { NwcError, payInvoice, walletDetails, type SocketFactory } from '../../worker/nwc.ts';
import { walletSocketUrl } from '../../worker/wallet.ts';
import { CacheClient } from './cache-client.ts';
import { nwcConnect } from './lightning-support.ts';
import { http, jsonOf, startTestServer, type TestServer } from './services-support.ts';
import { signEvent } from '../support/sign.ts';

const alice = generateSecretKey();
const bob = generateSecretKey();
const socket: SocketFactory = (url) => new WebSocket(url) as unknown as globalThis.WebSocket;

describe('worker NWC client against the demo wallet service', () => {
  let t: TestServer;
  let uri = '';
  const sign = (sk: Uint8Array, tmpl: Partial<EventTemplate>) => signEvent(sk, { created_at: t.clock.now, ...tmpl });

  beforeAll(async () => {
    t = await startTestServer({ DEMO_LIGHTNING: '1' });
    const profile = (sk: Uint8Array, name: string) => sign(sk, { kind: 0, created_at: t.clock.now - 100, content: JSON.stringify({ name, lud16: `${name}@strucc.test` }) });
    const res = await t.server.ctx.importer.importEvents([profile(alice, 'alice'), profile(bob, 'bob')]);
    expect(res.filter((r) => !r.ok)).toEqual([]);
    // The worker finds the wallet socket next to the cache socket.
    const wallet = await CacheClient.connect(walletSocketUrl(`${t.base.replace('http', 'ws')}/v1`));
    uri = await nwcConnect(wallet, alice, t.clock.now, { appname: 'Strucc' });
    await wallet.close();
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('reads the balance, pays an invoice and lists the payment', async () => {
    const parts = parseNwcUri(uri);
    // The demo wallet's URI names its service key, a fresh client secret and our own relay.
    expect(parts).toMatchObject({ walletPubkey: expect.stringMatching(/^[0-9a-f]{64}$/), secret: expect.stringMatching(/^[0-9a-f]{64}$/), relays: [`${t.base.replace('http', 'ws')}/relay`] });
    expect((await walletDetails(parts!, socket)).balanceSats).toBe(100_000);
    const meta = jsonOf<{ callback: string }>(await http('GET', `${t.base}/.well-known/lnurlp/bob`));
    const { pr } = jsonOf<{ pr: string }>(await http('GET', `${meta.callback}?amount=21000`));
    const preimage = await payInvoice(parts!, pr, socket);
    expect(preimage).toMatch(/^[0-9a-f]{64}$/);
    const after = await walletDetails(parts!, socket);
    expect(after.balanceSats).toBe(100_000 - 21);
    expect(after.transactions.some((tx) => tx.type === 'outgoing' && tx.amountSats === 21)).toBe(true);
  });

  it('passes the wallet error code on: an invoice paid twice is refused', async () => {
    const parts = parseNwcUri(uri)!;
    const meta = jsonOf<{ callback: string }>(await http('GET', `${t.base}/.well-known/lnurlp/bob`));
    const { pr } = jsonOf<{ pr: string }>(await http('GET', `${meta.callback}?amount=1000`));
    await payInvoice(parts, pr, socket);
    const second = await payInvoice(parts, pr, socket).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(NwcError);
    expect((second as NwcError).code).not.toBe('timeout');
  });
});
