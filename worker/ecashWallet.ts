/**
 * The ecash wallet's money logic on cashu-ts (v1 mints): receiving, sending, minting from and
 * melting to lightning, proof states, NUT-13 seed and NUT-09 restore. It works on the account's
 * EcashData and persists through `commit` after every change the mint confirmed: incoming proofs
 * are stored only once the mint signed our fresh ones, and our proofs leave the wallet only in the
 * same commit that stores what the mint gave back, so a failed or refused call loses nothing.
 */
import { Buffer } from 'buffer';
import { CashuMint, CashuWallet, getDecodedToken, getEncodedToken, type MeltQuoteResponse, type Proof } from '@cashu/cashu-ts';
import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { EcashError, type MeltQuoteInfo, type MeltResult, type ReceiveResult, type SendResult } from '../machines/ecash.ts';
import type { EcashData, HistoryEntry } from './ecashStore.ts';
import type { AmountPreference } from '../core/types/ecash.ts';
import { MSG_NON_POWER_OF_TWO, MSG_NOT_ENOUGH_FUNDS, MSG_RESTORE_NO_SEED, normalizeMintUrl, readTokenV3Normalized, splitAmount, stripTokenPrefix, type DecodedToken, type TokenProof } from './ecashToken.ts';

// cashu-ts 2.5 checks keyset ids with the global Buffer, which a browser worker does not have.
(globalThis as { Buffer?: unknown }).Buffer ??= Buffer;

const sum = (ps: { amount: number }[]) => ps.reduce((a, p) => a + p.amount, 0);
const plain = (ps: Proof[]): TokenProof[] => ps.map((p) => ({ id: p.id, amount: p.amount, secret: p.secret, C: p.C }));
const id = () => Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');

/** Any accepted token text: cashuB through cashu-ts, everything else by the spec's v3 rules. */
export function decodeAnyToken(text: string): DecodedToken {
  const body = stripTokenPrefix(text);
  if (body.startsWith('cashuB')) {
    const t = getDecodedToken(body);
    return { entries: [{ mint: normalizeMintUrl(t.mint), proofs: plain(t.proofs) }], memo: t.memo ?? '', unit: t.unit ?? 'sat' };
  }
  return readTokenV3Normalized(text);
}

/** Outputs the mint signed in a send: an exact selection made offline creates none, so the seed counter must not move. */
const newOutputs = (had: Set<string>, after: { secret: string }[]) => after.filter((p) => !had.has(p.secret)).length;

export type Commit = (change: (d: EcashData) => void) => Promise<void>;

export class EcashWallet {
  private readonly wallets = new Map<string, Promise<CashuWallet>>();

  constructor(
    private readonly data: () => EcashData,
    private readonly commit: Commit,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  private seed(): Uint8Array | undefined {
    const m = this.data().mnemonic;
    return m ? mnemonicToSeedSync(m) : undefined;
  }

  /** One loaded cashu-ts wallet per mint (info, keysets, keys fetched once per session). */
  wallet(mintUrl: string): Promise<CashuWallet> {
    const url = normalizeMintUrl(mintUrl);
    let w = this.wallets.get(url);
    if (!w) {
      const seed = this.seed();
      w = (async () => {
        const wallet = new CashuWallet(new CashuMint(url), seed ? { bip39seed: seed } : {});
        await wallet.loadMint();
        return wallet;
      })();
      w.catch(() => this.wallets.delete(url));
      this.wallets.set(url, w);
    }
    return w;
  }

  /**
   * The next deterministic counter of the wallet's active keyset, or undefined without a seed.
   * Counters start at 1: cashu-ts 2.5 treats a swap's send counter of 0 as "no counter" and
   * would make those outputs random, i.e. not restorable.
   */
  private counter(w: CashuWallet): number | undefined {
    return this.data().mnemonic ? Math.max(1, this.data().counters[w.keysetId] ?? 1) : undefined;
  }

  private advance(d: EcashData, w: CashuWallet, outputs: number): void {
    if (d.mnemonic) d.counters[w.keysetId] = Math.max(1, d.counters[w.keysetId] ?? 1) + outputs;
  }

  private history(d: EcashData, e: Omit<HistoryEntry, 'id' | 'at'>): void {
    d.history = [{ ...e, id: id(), at: this.now() }, ...d.history].slice(0, 200);
  }

  /** Adds a mint after reading its NUT-06 info; the name shown is the mint's own. */
  async addMint(url: string): Promise<string> {
    // The seed comes first, so every proof this wallet ever gets can be restored from it.
    await this.ensureSeed();
    const u = normalizeMintUrl(url);
    if (!/^https?:\/\/[^\s]+$/i.test(u)) throw new EcashError('invalid', 'invalid-mint-url');
    const info = await (await this.wallet(u)).getMintInfo();
    const name = info.name || new URL(u).host;
    await this.commit((d) => {
      if (!d.mints.some((m) => m.url === u)) d.mints.push({ url: u, name, addedAt: this.now() });
    });
    return name;
  }

  async removeMint(url: string): Promise<void> {
    const u = normalizeMintUrl(url);
    if (sum(this.data().proofs[u] ?? []) > 0) throw new EcashError('funds', 'mint-has-balance');
    await this.commit((d) => {
      d.mints = d.mints.filter((m) => m.url !== u);
      delete d.proofs[u];
    });
  }

  /** Swaps every entry of the token at its mint (adding the mint when new). */
  async receive(text: string): Promise<ReceiveResult> {
    let token: DecodedToken;
    try {
      token = decodeAnyToken(text);
    } catch {
      throw new EcashError('invalid', 'invalid-token');
    }
    if (token.entries.length === 0) throw new EcashError('invalid', 'invalid-token');
    await this.ensureSeed();
    let amount = 0;
    for (const entry of token.entries) {
      if (!this.data().mints.some((m) => m.url === entry.mint)) await this.addMint(entry.mint);
      const w = await this.wallet(entry.mint);
      const fresh = await w.receive({ mint: entry.mint, proofs: entry.proofs, memo: token.memo }, { counter: this.counter(w) });
      amount += sum(fresh);
      await this.commit((d) => {
        d.proofs[entry.mint] = [...(d.proofs[entry.mint] ?? []), ...plain(fresh)];
        this.advance(d, w, fresh.length);
        this.history(d, { type: 'receive', amount: sum(fresh), mint: entry.mint, memo: token.memo || undefined });
      });
    }
    return { amount, mint: token.entries[0].mint };
  }

  /** Cuts a token of `amount` from the mint's proofs (the mint swaps when no exact set exists). */
  /** `preferences`: spec §4 amount-and-count pairs the sent proofs are cut into first (powers of two). */
  async send(mintUrl: string, amount: number, memo = '', preferences: AmountPreference[] = []): Promise<SendResult> {
    const mint = normalizeMintUrl(mintUrl);
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new EcashError('invalid', 'invalid-amount');
    let sendAmounts: number[] | undefined;
    if (preferences.length) {
      try {
        sendAmounts = splitAmount(amount, preferences);
      } catch {
        throw new EcashError('invalid', MSG_NON_POWER_OF_TWO);
      }
    }
    const mine = this.data().proofs[mint] ?? [];
    if (sum(mine) < amount) throw new EcashError('funds', MSG_NOT_ENOUGH_FUNDS);
    const w = await this.wallet(mint);
    const { keep, send } = await w.send(amount, mine, {
      counter: this.counter(w),
      includeFees: true,
      // cashu-ts 2.5 wants keepAmounts beside sendAmounts unless it may derive them from proofsWeHave.
      ...(sendAmounts ? { outputAmounts: { sendAmounts }, proofsWeHave: mine } : {}),
    });
    const token = getEncodedToken({ mint, proofs: send, memo: memo || undefined }, { version: 3 });
    const spent = new Set(mine.map((p) => p.secret));
    await this.commit((d) => {
      d.proofs[mint] = [...(d.proofs[mint] ?? []).filter((p) => !spent.has(p.secret)), ...plain(keep)];
      this.advance(d, w, newOutputs(spent, [...keep, ...send]));
      d.pending = [{ id: id(), mint, amount: sum(send), token, proofs: plain(send), at: this.now() }, ...d.pending];
      this.history(d, { type: 'send', amount: sum(send), mint, memo: memo || undefined });
    });
    return { token, amount: sum(send) };
  }

  async mintQuote(mintUrl: string, amount: number): Promise<{ quote: string; request: string }> {
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new EcashError('invalid', 'invalid-amount');
    const q = await (await this.wallet(mintUrl)).createMintQuote(amount);
    return { quote: q.quote, request: q.request };
  }

  /** Claims a paid mint quote; `paid: false` while the invoice is unpaid. */
  async mintClaim(mintUrl: string, quote: string, amount: number): Promise<{ paid: boolean; amount: number }> {
    const mint = normalizeMintUrl(mintUrl);
    const w = await this.wallet(mint);
    const state = await w.checkMintQuote(quote);
    if (state.state === 'UNPAID') return { paid: false, amount: 0 };
    const proofs = await w.mintProofs(amount, quote, { counter: this.counter(w) });
    await this.commit((d) => {
      if (!d.mints.some((m) => m.url === mint)) d.mints.push({ url: mint, name: new URL(mint).host, addedAt: this.now() });
      d.proofs[mint] = [...(d.proofs[mint] ?? []), ...plain(proofs)];
      this.advance(d, w, proofs.length);
      this.history(d, { type: 'mint', amount: sum(proofs), mint });
    });
    return { paid: true, amount: sum(proofs) };
  }

  /** A fee quote at the given mint, or at the first mint whose balance covers amount + fee. */
  async meltQuote(invoice: string, mintUrl?: string): Promise<MeltQuoteInfo> {
    const mints = mintUrl ? [normalizeMintUrl(mintUrl)] : this.data().mints.map((m) => m.url);
    let last: unknown = new EcashError('funds', MSG_NOT_ENOUGH_FUNDS);
    for (const mint of mints) {
      try {
        const q = await (await this.wallet(mint)).createMeltQuote(invoice);
        if (sum(this.data().proofs[mint] ?? []) >= q.amount + q.fee_reserve) return { quote: q.quote, mint, amount: q.amount, fee: q.fee_reserve };
        last = new EcashError('funds', MSG_NOT_ENOUGH_FUNDS);
      } catch (err) {
        last = err;
      }
    }
    throw last;
  }

  /** Pays the quoted invoice: proofs of amount + fee reserve go in, the unused reserve comes back as change. */
  async melt(q: MeltQuoteInfo): Promise<MeltResult> {
    const w = await this.wallet(q.mint);
    const mine = this.data().proofs[q.mint] ?? [];
    const { keep, send } = await w.send(q.amount + q.fee, mine, { counter: this.counter(w), includeFees: true });
    const spent = new Set(mine.map((p) => p.secret));
    const swapped = newOutputs(spent, [...keep, ...send]);
    // The swap already happened at the mint: store its result before paying, so nothing is lost if paying fails.
    await this.commit((d) => {
      d.proofs[q.mint] = [...(d.proofs[q.mint] ?? []).filter((p) => !spent.has(p.secret)), ...plain(keep), ...plain(send)];
      this.advance(d, w, swapped);
    });
    const quote = (await w.checkMeltQuote(q.quote)) as MeltQuoteResponse;
    const blanks = Math.ceil(Math.log2(sum(send) - q.amount)) || 1;
    const res = await w.meltProofs(quote, send, { counter: this.counter(w) });
    if (res.quote.state !== 'PAID') throw new EcashError('mint', 'melt-not-paid');
    const used = new Set(send.map((p) => p.secret));
    await this.commit((d) => {
      d.proofs[q.mint] = [...(d.proofs[q.mint] ?? []).filter((p) => !used.has(p.secret)), ...plain(res.change)];
      this.advance(d, w, blanks);
      this.history(d, { type: 'melt', amount: q.amount, mint: q.mint, fee: sum(send) - q.amount - sum(res.change) });
    });
    return { preimage: res.quote.payment_preimage ?? '', change: sum(res.change) };
  }

  /** NUT-07: drops our proofs the mint says are spent and settles sent tokens that were redeemed. */
  async checkPending(): Promise<{ claimed: number; dropped: number }> {
    let claimed = 0;
    let dropped = 0;
    for (const { url } of this.data().mints) {
      const w = await this.wallet(url);
      const pending = this.data().pending.filter((p) => p.mint === url);
      const ours = this.data().proofs[url] ?? [];
      const all = [...ours, ...pending.flatMap((p) => p.proofs)];
      if (all.length === 0) continue;
      const states = await w.checkProofsStates(all);
      const spent = new Set(all.filter((_, i) => states[i]?.state === 'SPENT').map((p) => p.secret));
      const settled = pending.filter((p) => p.proofs.every((x) => spent.has(x.secret)));
      claimed += settled.length;
      dropped += ours.filter((p) => spent.has(p.secret)).length;
      await this.commit((d) => {
        d.proofs[url] = (d.proofs[url] ?? []).filter((p) => !spent.has(p.secret));
        d.pending = d.pending.filter((p) => !settled.some((s) => s.id === p.id));
        for (const s of settled) this.history(d, { type: 'claimed', amount: s.amount, mint: url });
      });
    }
    return { claimed, dropped };
  }

  /** Makes a 12-word seed phrase when the wallet has none; from then on outputs are deterministic. */
  async ensureSeed(): Promise<string> {
    const existing = this.data().mnemonic;
    if (existing) return existing;
    const mnemonic = generateMnemonic(wordlist, 128);
    await this.commit((d) => {
      d.mnemonic = mnemonic;
      d.counters = {};
    });
    this.wallets.clear();
    return mnemonic;
  }

  /** NUT-09 with the seed phrase: every keyset of every known mint (plus `mintUrl`), unspent proofs kept. */
  async restore(mnemonic: string, mintUrl?: string): Promise<number> {
    const words = mnemonic.trim().toLowerCase().split(/\s+/).join(' ');
    if (!words) throw new EcashError('invalid', MSG_RESTORE_NO_SEED);
    if (!validateMnemonic(words, wordlist)) throw new EcashError('invalid', 'invalid-mnemonic');
    await this.commit((d) => {
      d.mnemonic = words;
    });
    this.wallets.clear();
    if (mintUrl && !this.data().mints.some((m) => m.url === normalizeMintUrl(mintUrl))) await this.addMint(mintUrl);
    let total = 0;
    for (const { url } of this.data().mints) {
      const w = await this.wallet(url);
      for (const ks of await w.mint.getKeySets().then((r) => r.keysets)) {
        const { proofs, lastCounterWithSignature } = await w.batchRestore(50, 25, 0, ks.id);
        const states = proofs.length ? await w.checkProofsStates(proofs) : [];
        const have = new Set((this.data().proofs[url] ?? []).map((p) => p.secret));
        const fresh = proofs.filter((p, i) => states[i]?.state === 'UNSPENT' && !have.has(p.secret));
        total += sum(fresh);
        await this.commit((d) => {
          d.proofs[url] = [...(d.proofs[url] ?? []), ...plain(fresh)];
          if (lastCounterWithSignature !== undefined) d.counters[ks.id] = Math.max(d.counters[ks.id] ?? 0, lastCounterWithSignature + 1);
          if (fresh.length) this.history(d, { type: 'restore', amount: sum(fresh), mint: url });
        });
      }
    }
    return total;
  }
}
