/**
 * The worker's ecash wallet (worker/ecashWallet.ts) against our demo mint over real HTTP, with a
 * second wallet written by others (cashu-ts used directly) as the counterparty: receive, send and
 * the counterparty redeeming it, a double redeem refused without losing anything, melt with fee
 * reserve and change, NUT-07 settling of sent tokens, seed + restore in a fresh wallet, and the
 * sealed record (nothing readable at rest, opened again with the account's key).
 */
import { getDecodedToken, getEncodedToken } from '@cashu/cashu-ts';
import * as nip44 from 'nostr-tools/nip44';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoice, findInvoice } from '../../server/lightning/ledger.ts';
import { emptyEcash, MemoryEcashStore, Sealer, type EcashData, type KeyWrap } from '../../worker/ecashStore.ts';
import { EcashWallet } from '../../worker/ecashWallet.ts';
import { mintEcash, startMintServer, total, wallet, type MintServer } from './mint-support.ts';

function local(): { data: EcashData; w: EcashWallet; saves: number } {
  const box = { data: emptyEcash(), saves: 0, w: undefined as unknown as EcashWallet };
  box.w = new EcashWallet(
    () => box.data,
    async (change) => {
      const next = structuredClone(box.data);
      change(next);
      box.data = next;
      box.saves++;
    },
  );
  return box;
}
const balance = (b: { data: EcashData }) => Object.values(b.data.proofs).flat().reduce((a, p) => a + p.amount, 0);

describe('worker ecash wallet against the demo mint', () => {
  let m: MintServer;
  beforeAll(async () => {
    m = await startMintServer('');
  });
  afterAll(async () => {
    await m?.stop();
  });

  it('receives a token (adding its mint), sends one the counterparty redeems, and settles it by NUT-07', async () => {
    const friend = await wallet(m);
    const token = getEncodedToken({ mint: m.mintUrl, proofs: await mintEcash(m, friend, 100), memo: 'Ajándék' });
    const me = local();
    expect(await me.w.receive(token)).toEqual({ amount: 100, mint: m.mintUrl });
    expect(me.data.mints.map((x) => [x.url, x.name])).toEqual([[m.mintUrl, 'Strucc demó pénzverde']]);
    expect(balance(me)).toBe(100);
    expect(me.data.history[0]).toMatchObject({ type: 'receive', amount: 100, memo: 'Ajándék' });

    const sent = await me.w.send(m.mintUrl, 37, 'Neked');
    expect(sent.amount).toBe(37);
    expect(sent.token.startsWith('cashuA')).toBe(true);
    expect(balance(me)).toBe(63);
    expect(me.data.pending).toHaveLength(1);
    expect(total(await friend.receive(sent.token))).toBe(37);
    expect(await me.w.checkPending()).toEqual({ claimed: 1, dropped: 0 });
    expect(me.data.pending).toEqual([]);
    expect(balance(me)).toBe(63);
  });

  it('sends in the preferred denominations first (spec §4) and refuses ones that are not powers of two', async () => {
    const friend = await wallet(m);
    const me = local();
    await me.w.receive(getEncodedToken({ mint: m.mintUrl, proofs: await mintEcash(m, friend, 64) }));
    await expect(me.w.send(m.mintUrl, 20, '', [{ amount: 6, count: 2 }])).rejects.toThrow(
      'Provided amount preferences contain non-power-of-2 numbers. Use only ^2 numbers',
    );
    expect(balance(me)).toBe(64);
    const sent = await me.w.send(m.mintUrl, 21, '', [{ amount: 4, count: 3 }]);
    const proofs = getDecodedToken(sent.token).proofs.map((p) => p.amount).sort((x, y) => x - y);
    // Three 4s first, then the remaining 9 by its bits: 1 + 8.
    expect(proofs).toEqual([1, 4, 4, 4, 8]);
    expect(balance(me)).toBe(43);
  });

  it('refuses the same token twice and keeps what it has', async () => {
    const friend = await wallet(m);
    const token = getEncodedToken({ mint: m.mintUrl, proofs: await mintEcash(m, friend, 16) });
    const me = local();
    await me.w.receive(token);
    const err = await me.w.receive(token).catch((e: unknown) => e);
    expect((err as { code?: number }).code).toBe(11001);
    expect(balance(me)).toBe(16);
    await expect(me.w.send(m.mintUrl, 17)).rejects.toThrow('Not enough funds available');
    expect(balance(me)).toBe(16);
  });

  it('melts into a ledger invoice: fee reserve quoted, change returned', async () => {
    const friend = await wallet(m);
    const me = local();
    await me.w.receive(getEncodedToken({ mint: m.mintUrl, proofs: await mintEcash(m, friend, 64) }));
    const inv = await createInvoice(m.server.ctx, { payee: getPublicKey(generateSecretKey()), amountSats: 21 });
    const q = await me.w.meltQuote(inv.invoice);
    expect(q).toMatchObject({ mint: m.mintUrl, amount: 21, fee: 2 });
    const r = await me.w.melt(q);
    expect(r.preimage).toMatch(/^[0-9a-f]{64}$/);
    expect(r.change).toBe(2);
    expect(balance(me)).toBe(64 - 21);
    expect((await findInvoice(m.server.ctx.db, { invoice: inv.invoice }))?.status).toBe('paid');
    expect(me.data.history[0]).toMatchObject({ type: 'melt', amount: 21, fee: 0 });
  });

  it('restores from the seed phrase in a fresh wallet; without a phrase it says so', async () => {
    const friend = await wallet(m);
    const me = local();
    const mnemonic = await me.w.ensureSeed();
    expect(mnemonic.split(' ')).toHaveLength(12);
    await me.w.receive(getEncodedToken({ mint: m.mintUrl, proofs: await mintEcash(m, friend, 50) }));
    const sent = await me.w.send(m.mintUrl, 20);
    expect(balance(me)).toBe(30);
    // A sent token nobody redeemed yet is still ours on restore; once redeemed it is not.
    await friend.receive(sent.token);
    const other = local();
    await expect(other.w.restore('   ', m.mintUrl)).rejects.toThrow('CashuWallet must be initialized with mnemonic to use restore');
    expect(await other.w.restore(mnemonic, m.mintUrl)).toBe(30);
    expect(balance(other)).toBe(30);
    // The restored wallet continues after the restored counters: a new receive is not refused as already signed.
    await other.w.receive(getEncodedToken({ mint: m.mintUrl, proofs: await mintEcash(m, friend, 4) }));
    expect(balance(other)).toBe(34);
  });

  it('seals the record: no proof readable at rest, opened with the account key', async () => {
    const sk = generateSecretKey();
    const pk = getPublicKey(sk);
    const conv = nip44.v2.utils.getConversationKey(sk, pk);
    const wrap: KeyWrap = { wrap: async (k) => nip44.v2.encrypt(k, conv), unwrap: async (w) => nip44.v2.decrypt(w, conv) };
    const data = { ...emptyEcash(), proofs: { 'https://m': [{ id: '00ab', amount: 8, secret: 'titkos-secret', C: '02cd' }] }, mnemonic: 'abandon '.repeat(11) + 'about' };
    const store = new MemoryEcashStore();
    await store.save(pk, await (await Sealer.create(wrap)).seal(data));
    const raw = JSON.stringify(store.records.get(pk));
    expect(raw).not.toContain('titkos-secret');
    expect(raw).not.toContain('abandon');
    const opened = await Sealer.open((await store.load(pk))!, wrap);
    expect(opened.data.proofs).toEqual(data.proofs);
    const stranger = nip44.v2.utils.getConversationKey(generateSecretKey(), pk);
    await expect(Sealer.open((await store.load(pk))!, { wrap: async () => '', unwrap: async (w) => nip44.v2.decrypt(w, stranger) })).rejects.toThrow();
  });
});
