/**
 * The demo mint's v1 API against a wallet written by others (@cashu/cashu-ts 2.5), on both
 * stores: minting through a paid ledger invoice, swap, receive, NUT-07 states, double spends
 * refused (also two at once), melt of a ledger invoice with its fee reserve returned as change,
 * NUT-13/09 restore from a seed, keyset rotation, and a restart that keeps spent secrets.
 */
import { getEncodedToken, MintOperationError } from '@cashu/cashu-ts';
import { mnemonicToSeedSync } from '@scure/bip39';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGIN_PUBKEY } from '../../server/demo/accounts.ts';
import { createInvoice, findInvoice, payInvoice } from '../../server/lightning/ledger.ts';
import { rotateKeyset } from '../../server/mint/keysets.ts';
import { MINT_ACCOUNT } from '../../server/mint/quotes.ts';
import { startTempPostgres, type TempPostgres } from '../support/postgres.ts';
import { isPow2, mintEcash, startMintServer, total, wallet, type MintServer } from './mint-support.ts';
import { http, jsonOf } from './services-support.ts';

const MNEMONIC = 'half depart obvious quality work element tank gorilla view sugar picture humble';
const bobPk = getPublicKey(generateSecretKey());

async function codeOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(MintOperationError);
    return (err as MintOperationError).code;
  }
  throw new Error('expected the mint to refuse');
}

describe.each(['sqlite', 'postgres'] as const)('demo mint, v1 API with cashu-ts (%s)', (store) => {
  let pg: TempPostgres | null = null;
  let m: MintServer;
  const balance = async (pk: string) => Number((await m.server.ctx.db.get<{ b: number }>('SELECT balance_sats AS b FROM ln_accounts WHERE pubkey = ?', [pk]))?.b ?? 0);

  beforeAll(async () => {
    pg = store === 'postgres' ? await startTempPostgres() : null;
    m = await startMintServer(pg?.url ?? '');
  });
  afterAll(async () => {
    await m?.stop();
    pg?.stop();
  });

  it('serves info, keys and keysets a wallet can load', async () => {
    const info = jsonOf<{ name: string; nuts: Record<string, unknown> }>(await http('GET', `${m.mintUrl}/v1/info`));
    expect(info.name).toBe('Strucc demó pénzverde');
    expect(Object.keys(info.nuts)).toEqual(['4', '5', '7', '8', '9']);
    const keys = jsonOf<{ keysets: { id: string; unit: string; keys: Record<string, string> }[] }>(await http('GET', `${m.mintUrl}/v1/keys`));
    expect(keys.keysets).toHaveLength(1);
    expect(keys.keysets[0].id).toMatch(/^00[0-9a-f]{14}$/);
    expect(Object.keys(keys.keysets[0].keys)).toHaveLength(32);
    expect(Object.keys(keys.keysets[0].keys).every((a) => isPow2(Number(a)))).toBe(true);
    const w = await wallet(m);
    expect(w.keysetId).toBe(keys.keysets[0].id);
  });

  it('mints after the invoice is paid, once, in powers of two; the mint account holds the sats', async () => {
    const w = await wallet(m);
    const q = await w.createMintQuote(100);
    expect((await w.checkMintQuote(q.quote)).state).toBe('UNPAID');
    expect(await codeOf(w.mintProofs(100, q.quote))).toBe(20001);
    const before = await balance(MINT_ACCOUNT);
    await payInvoice(m.server.ctx, DEMO_LOGIN_PUBKEY, q.request);
    expect((await w.checkMintQuote(q.quote)).state).toBe('PAID');
    const proofs = await w.mintProofs(100, q.quote);
    expect(total(proofs)).toBe(100);
    expect(proofs.map((p) => p.amount).sort((a, b) => a - b)).toEqual([4, 32, 64]);
    expect(await balance(MINT_ACCOUNT)).toBe(before + 100);
    expect((await w.checkMintQuote(q.quote)).state).toBe('ISSUED');
    expect(await codeOf(w.mintProofs(100, q.quote))).toBe(20002);
  });

  it('swaps, receives a token in another wallet, reports SPENT and refuses the same token twice', async () => {
    const alice = await wallet(m);
    const proofs = await mintEcash(m, alice, 64);
    const { keep, send } = await alice.send(21, proofs);
    expect(total(send)).toBe(21);
    expect(total(keep)).toBe(43);
    expect([...keep, ...send].every((p) => isPow2(p.amount))).toBe(true);
    expect((await alice.checkProofsStates(proofs)).map((s) => s.state)).toEqual(['SPENT']);
    expect((await alice.checkProofsStates(send)).every((s) => s.state === 'UNSPENT')).toBe(true);

    const token = getEncodedToken({ mint: m.mintUrl, proofs: send, memo: 'Köszi a kávét' });
    const bob = await wallet(m);
    const got = await bob.receive(token);
    expect(total(got)).toBe(21);
    expect((await bob.checkProofsStates(send)).every((s) => s.state === 'SPENT')).toBe(true);
    expect(await codeOf(bob.receive(token))).toBe(11001);
  });

  it('lets only one of two simultaneous swaps of the same proofs through', async () => {
    const a = await wallet(m);
    const proofs = await mintEcash(m, a, 32);
    const results = await Promise.allSettled([a.swap(32, proofs), a.swap(32, proofs)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as MintOperationError).code).toBe(11001);
  });

  it('melts ecash into a paid ledger invoice and returns the unused fee reserve as change', async () => {
    const w = await wallet(m);
    const proofs = await mintEcash(m, w, 128);
    const inv = await createInvoice(m.server.ctx, { payee: bobPk, amountSats: 50, description: 'ecash fizetés' });
    const quote = await w.createMeltQuote(inv.invoice);
    expect(quote.amount).toBe(50);
    expect(quote.fee_reserve).toBe(2);
    const { send } = await w.send(52, proofs, { includeFees: true });
    const bobBefore = await balance(bobPk);
    const res = await w.meltProofs(quote, send);
    expect(res.quote.state).toBe('PAID');
    expect(res.quote.payment_preimage).toMatch(/^[0-9a-f]{64}$/);
    expect(total(res.change)).toBe(2);
    expect(await balance(bobPk)).toBe(bobBefore + 50);
    expect((await findInvoice(m.server.ctx.db, { invoice: inv.invoice }))?.status).toBe('paid');
    // The change is real ecash of this mint.
    expect(total(await (await wallet(m)).receive(getEncodedToken({ mint: m.mintUrl, proofs: res.change })))).toBe(2);
    // Paying the same invoice again is refused before any ecash is taken.
    expect(await codeOf(w.createMeltQuote(inv.invoice))).toBe(20006);
  });

  it('keeps the inputs unspent when the ledger refuses the payment (the invoice expired after the quote)', async () => {
    const w = await wallet(m);
    const inv = await createInvoice(m.server.ctx, { payee: bobPk, amountSats: 10, expirySeconds: 60 });
    const quote = await w.createMeltQuote(inv.invoice);
    const proofs = await mintEcash(m, w, 16);
    await m.server.ctx.db.run(`UPDATE ln_invoices SET expires_at = ? WHERE payment_hash = ?`, [m.clock.now, inv.payment_hash]);
    await expect(w.meltProofs(quote, proofs)).rejects.toThrow(/lejárt/);
    expect((await w.checkProofsStates(proofs)).map((s) => s.state)).toEqual(['UNSPENT']);
    expect(total(await w.receive(getEncodedToken({ mint: m.mintUrl, proofs })))).toBe(16);
  });

  it('restores deterministic (NUT-13) proofs from the seed on another wallet (NUT-09)', async () => {
    const seed = mnemonicToSeedSync(MNEMONIC);
    const first = await wallet(m, seed);
    const minted = await mintEcash(m, first, 100, 0);
    const again = await wallet(m, seed);
    const { proofs } = await again.restore(0, 10);
    expect(proofs.map((p) => p.secret).sort()).toEqual(minted.map((p) => p.secret).sort());
    expect(total(proofs)).toBe(100);
  });

  it('rotates keysets: new outputs use the new one, old proofs still spend', async () => {
    const w = await wallet(m);
    const old = await mintEcash(m, w, 8);
    const fresh = await rotateKeyset(m.server.ctx);
    const sets = jsonOf<{ keysets: { id: string; active: boolean }[] }>(await http('GET', `${m.mintUrl}/v1/keysets`)).keysets;
    expect(sets.filter((k) => k.active).map((k) => k.id)).toEqual([fresh.id]);
    expect(sets.length).toBeGreaterThanOrEqual(2);
    const w2 = await wallet(m);
    expect(w2.keysetId).toBe(fresh.id);
    const got = await w2.receive(getEncodedToken({ mint: m.mintUrl, proofs: old }));
    expect(got.every((p) => p.id === fresh.id)).toBe(true);
    // An output for the retired keyset is refused (asked raw: cashu-ts would not build one).
    const B_ = Object.values(fresh.pub)[0];
    const r = await http('POST', `${m.mintUrl}/v1/swap`, {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ inputs: got, outputs: got.map((p, i) => ({ amount: p.amount, id: w.keysetId, B_: i === 0 ? B_ : Object.values(fresh.pub)[i] })) }),
    });
    expect(r.status).toBe(400);
    expect(jsonOf<{ code: number }>(r).code).toBe(12002);
    expect(w.keysetId).not.toBe(fresh.id);
  });

  it('keeps spent secrets and keys over a restart', async () => {
    const w = await wallet(m);
    const proofs = await mintEcash(m, w, 4);
    const token = getEncodedToken({ mint: m.mintUrl, proofs });
    expect(total(await (await wallet(m)).receive(token))).toBe(4);
    const keysBefore = jsonOf(await http('GET', `${m.mintUrl}/v1/keys`));
    await m.restart();
    expect(jsonOf(await http('GET', `${m.mintUrl}/v1/keys`))).toEqual(keysBefore);
    expect(await codeOf((await wallet(m)).receive(token))).toBe(11001);
  });

  it('answers bad requests with {detail, code} and never crashes', async () => {
    const post = (path: string, body: string) => http('POST', `${m.mintUrl}/v1${path}`, { headers: { 'Content-Type': 'application/json' }, body });
    for (const [path, body] of [
      ['/swap', 'nem json'],
      ['/swap', '{}'],
      ['/swap', JSON.stringify({ inputs: [{ id: 'x', amount: 3, secret: 's', C: '02' }], outputs: [] })],
      ['/mint/quote/bolt11', JSON.stringify({ amount: -5, unit: 'sat' })],
      ['/mint/quote/bolt11', JSON.stringify({ amount: 5, unit: 'usd' })],
      ['/melt/quote/bolt11', JSON.stringify({ request: 'lnbc1xyz', unit: 'sat' })],
      ['/checkstate', JSON.stringify({ Ys: 5 })],
    ]) {
      const r = await post(path, body);
      expect(r.status).toBe(400);
      expect(jsonOf<{ detail: string }>(r).detail).toEqual(expect.any(String));
    }
    expect((await http('GET', `${m.mintUrl}/v1/nincs`)).status).toBe(404);
  });
});
