/**
 * The demo mint's legacy API (spec §7) against the legacy wallet written by others: cashu-ts
 * 0.9.0 (installed as `cashu-ts-legacy`), the last release that speaks exactly that API
 * (/keys, /keysets, GET/POST /mint, /split, /melt, /checkfees, /check, /restore). It mints,
 * sends and receives a cashuA token between two wallets, refuses a double spend, pays an invoice
 * with change, and restores a seeded wallet's proofs.
 */
import { CashuMint, CashuWallet, deriveSeedFromMnemonic, generateNewMnemonic, getDecodedToken, getEncodedToken, type Proof } from 'cashu-ts-legacy';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGIN_PUBKEY } from '../../server/demo/accounts.ts';
import { createInvoice, findInvoice, payInvoice } from '../../server/lightning/ledger.ts';
import { startMintServer, total, type MintServer } from './mint-support.ts';

describe('demo mint with the legacy client cashu-ts 0.9.0', () => {
  let m: MintServer;
  let mint: CashuMint;

  /** A legacy wallet; with a mnemonic it needs the mint's keys up front (the client's quirk). */
  async function legacyWallet(mnemonic?: string): Promise<CashuWallet> {
    const keys = await mint.getKeys();
    return mnemonic ? new CashuWallet(mint, keys, deriveSeedFromMnemonic(mnemonic)) : new CashuWallet(mint, keys);
  }

  async function mintWith(w: CashuWallet, amount: number, counter?: number): Promise<Proof[]> {
    const { pr, hash } = await w.requestMint(amount);
    await payInvoice(m.server.ctx, DEMO_LOGIN_PUBKEY, pr);
    return (await w.requestTokens(amount, hash, undefined, counter)).proofs;
  }

  beforeAll(async () => {
    m = await startMintServer('');
    mint = new CashuMint(m.mintUrl);
  });
  afterAll(async () => {
    await m?.stop();
  });

  it('mints after the invoice is paid, sends a cashuA token another wallet receives, and refuses it twice', async () => {
    const alice = await legacyWallet();
    const proofs = await mintWith(alice, 21);
    expect(total(proofs)).toBe(21);
    expect(proofs.map((p) => p.amount).sort((a, b) => a - b)).toEqual([1, 4, 16]);
    expect(proofs[0].id).toHaveLength(12);

    const { send, returnChange } = await alice.send(13, proofs);
    expect(total(send)).toBe(13);
    expect(total(returnChange)).toBe(8);
    const token = getEncodedToken({ token: [{ mint: m.mintUrl, proofs: send }], memo: 'Régi pénztárcából' });
    expect(token.startsWith('cashuA')).toBe(true);
    expect(getDecodedToken(token).memo).toBe('Régi pénztárcából');

    const bob = await legacyWallet();
    const received = await bob.receive(token);
    expect(received.tokensWithErrors).toBeUndefined();
    expect(total(received.token.token[0].proofs)).toBe(13);
    expect(await alice.checkProofsSpent(send)).toHaveLength(send.length);
    expect(await alice.checkProofsSpent(returnChange)).toEqual([]);

    const again = await (await legacyWallet()).receive(token);
    expect(again.tokensWithErrors?.token[0].proofs).toHaveLength(send.length);
  });

  it('quotes the fee and pays an invoice, returning change', async () => {
    const w = await legacyWallet();
    const proofs = await mintWith(w, 16);
    const inv = await createInvoice(m.server.ctx, { payee: getPublicKey(generateSecretKey()), amountSats: 5 });
    const fee = await w.getFee(inv.invoice);
    expect(fee).toBe(2);
    const { send } = await w.send(5 + fee, proofs);
    const paid = await w.payLnInvoice(inv.invoice, send, fee);
    expect(paid.isPaid).toBe(true);
    expect(total(paid.change)).toBe(2);
    expect((await findInvoice(m.server.ctx.db, { invoice: inv.invoice }))?.status).toBe('paid');
  });

  it('restores a seeded wallet’s proofs from the mint', async () => {
    const mnemonic = generateNewMnemonic();
    const first = await legacyWallet(mnemonic);
    const minted = await mintWith(first, 12, 0);
    const fresh = await legacyWallet(mnemonic);
    const { proofs } = await fresh.restore(0, 10);
    expect(proofs.map((p) => p.secret).sort()).toEqual(minted.map((p) => p.secret).sort());
    expect(total(proofs)).toBe(12);
  });
});
