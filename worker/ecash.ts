/**
 * The ecash wallet of the signed-in account in the shared worker: every tab sees the same
 * balances. The record is opened (data key unwrapped by the account's signer) when the account
 * signs in, and every operation runs one machines/ecash.ts actor with the real mint calls of
 * ecashWallet.ts, one at a time, since they share the proofs.
 */
import { createActor, fromPromise, waitFor } from 'xstate';
import { ecashMachine, failureOf, type EcashContext, type EcashFailure, type MeltQuoteInfo } from '../machines/ecash.ts';
import { keyStateOf } from '../machines/login.ts';
import type { AccountService } from './account.ts';
import { defaultEcashStore, emptyEcash, Sealer, type EcashData, type EcashStore } from './ecashStore.ts';
import type { EcashWallet } from './ecashWallet.ts';
import { isTokenV4, normalizeMintUrl, readTokenV3Normalized, tokenAmount } from './ecashToken.ts';
import { Watchers } from './instances.ts';
import { httpOrigin } from './nip05.ts';
import type { AmountPreference, EcashResult, EcashSnapshot, PaymentResult, TokenSummary } from '../core/types.ts';

export interface EcashServiceOptions {
  account: AccountService;
  cacheServer: () => string | undefined;
  /** Pays a bolt11 invoice with the active NWC connection (worker/wallet.ts). */
  payWithNwc: (invoice: string) => Promise<PaymentResult>;
  store?: EcashStore;
  fetcher?: (url: string, init?: RequestInit) => Promise<Response>;
}

// cashu-ts with its Buffer polyfill and BIP-32/39 is a fifth of the worker's script: it loads with the
// first ecash operation, not with every tab's first screen.
const walletModule = () => import('./ecashWallet.ts');

/** Only cashuB tokens need cashu-ts: a note showing a cashuA token does not load it. */
const decodeAnyToken = async (token: string) => (isTokenV4(token) ? (await walletModule()).decodeAnyToken(token) : readTokenV3Normalized(token));

const id = () => Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
const fail = (err: unknown): { ok: false; failure: EcashFailure; message: string } => ({ ok: false, ...failureOf(err) });

export class EcashService {
  private pubkey: string | undefined;
  private data: EcashData = emptyEcash();
  private state: EcashSnapshot['state'] = 'none';
  private sealer: Sealer | undefined;
  private opening: Promise<void> = Promise.resolve();
  private queue: Promise<unknown> = Promise.resolve();
  private wallet: Promise<EcashWallet> | undefined;
  private readonly store: EcashStore;
  private readonly watchers = new Watchers<EcashSnapshot>();
  private demoMint: Promise<string | null> | undefined;

  constructor(private readonly options: EcashServiceOptions) {
    this.store = options.store ?? defaultEcashStore();
    options.account.login.subscribe(() => this.follow());
    this.follow();
  }

  private loadWallet(): Promise<EcashWallet> {
    return (this.wallet ??= walletModule().then((m) => new m.EcashWallet(() => this.data, (change) => this.commit(change))));
  }

  private follow(): void {
    const login = this.options.account.login.getSnapshot();
    const pubkey = keyStateOf(login) === 'none' || login.context.method === 'readonly' ? undefined : login.context.pubkey;
    if (pubkey === this.pubkey) return;
    this.pubkey = pubkey;
    this.data = emptyEcash();
    this.sealer = undefined;
    this.wallet = undefined;
    this.state = pubkey ? 'loading' : 'none';
    this.emit();
    if (pubkey) this.opening = this.open(pubkey);
  }

  private keyWrap(pubkey: string) {
    const signer = this.options.account.signer;
    return { wrap: (k: string) => signer.nip44Encrypt(pubkey, k), unwrap: (w: string) => signer.nip44Decrypt(pubkey, w) };
  }

  private async open(pubkey: string): Promise<void> {
    try {
      const record = await this.store.load(pubkey);
      if (pubkey !== this.pubkey) return;
      if (record) {
        const { sealer, data } = await Sealer.open(record, this.keyWrap(pubkey));
        if (pubkey !== this.pubkey) return;
        this.sealer = sealer;
        this.data = data;
      }
      this.state = 'ready';
    } catch {
      if (pubkey === this.pubkey) this.state = 'error';
    }
    this.emit();
  }

  /** Applies a change and writes the sealed record before anyone sees it. */
  private async commit(change: (d: EcashData) => void): Promise<void> {
    const pubkey = this.pubkey;
    if (!pubkey || this.state !== 'ready') throw new Error('no-account');
    const next = structuredClone(this.data);
    change(next);
    this.sealer ??= await Sealer.create(this.keyWrap(pubkey));
    await this.store.save(pubkey, await this.sealer.seal(next));
    if (pubkey !== this.pubkey) return;
    this.data = next;
    this.emit();
  }

  snapshot(): EcashSnapshot {
    const d = this.data;
    const mints = d.mints.map((m) => ({ url: m.url, name: m.name, balance: (d.proofs[m.url] ?? []).reduce((a, p) => a + p.amount, 0) }));
    return {
      state: this.state,
      mints,
      total: mints.reduce((a, m) => a + m.balance, 0),
      history: d.history.slice(0, 50),
      pending: d.pending.map(({ id: pid, mint, amount, token, at }) => ({ id: pid, mint, amount, token, at })),
      failed: d.failed.map(({ id: fid, mint, amount, failure, message, at }) => ({ id: fid, mint, amount, failure, message, at })),
      hasSeed: !!d.mnemonic,
    };
  }

  private emit(): void {
    this.watchers.emit(this.snapshot(), () => false);
  }

  watch(tabId: string, cb: (s: EcashSnapshot) => unknown, release: () => void): number {
    return this.watchers.add(tabId, cb, release, this.snapshot());
  }

  unwatch(handle: number): void {
    this.watchers.remove(handle);
  }

  closeTab(tabId: string): void {
    this.watchers.closeTab(tabId);
  }

  /** Runs one operation after the ones before it, once the wallet is open. */
  private run<T>(op: () => Promise<T>): Promise<T> {
    const next = this.queue.then(async () => {
      await this.opening;
      if (this.state !== 'ready') throw new Error('no-account');
      return op();
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** One machine run with the real actors; resolves with the final context. */
  private async machine(start: Parameters<ReturnType<typeof createActor<typeof ecashMachine>>['send']>[0], confirm = false): Promise<EcashContext & { ok: boolean }> {
    const w = await this.loadWallet();
    const actor = createActor(
      ecashMachine.provide({
        actors: {
          swap: fromPromise(({ input }) => w.receive(input.token)),
          send: fromPromise(({ input }) => w.send(input.mint, input.amount)),
          meltQuote: fromPromise(({ input }) => w.meltQuote(input.invoice, input.mint)),
          melt: fromPromise(({ input }) => w.melt(input.quote)),
        },
      }),
    );
    actor.start();
    actor.send(start);
    let s = await waitFor(actor, (x) => x.matches('done') || x.matches('failed') || x.matches('confirmMelt'), { timeout: 120_000 });
    if (s.matches('confirmMelt') && confirm) {
      actor.send({ type: 'CONFIRM' });
      s = await waitFor(actor, (x) => x.matches('done') || x.matches('failed'), { timeout: 120_000 });
    }
    actor.stop();
    return { ...s.context, ok: !s.matches('failed') };
  }

  addMint(url: string): Promise<EcashResult<{ name: string }>> {
    return this.run(async () => (await this.loadWallet()).addMint(url)).then((name) => ({ ok: true as const, name }), fail);
  }

  removeMint(url: string): Promise<EcashResult> {
    return this.run(async () => (await this.loadWallet()).removeMint(url)).then(() => ({ ok: true as const }), fail);
  }

  /** Redeems a token; a failure other than 'already spent' or 'invalid' is kept in the failed list for a retry. */
  receive(token: string, retryOf?: string): Promise<EcashResult<{ amount: number; mint: string }>> {
    return this.run(async () => {
      const ctx = await this.machine({ type: 'RECEIVE', token });
      if (ctx.ok && ctx.received) {
        if (retryOf) await this.commit((d) => void (d.failed = d.failed.filter((f) => f.id !== retryOf)));
        return { ok: true as const, ...ctx.received };
      }
      const failure = ctx.failure ?? 'mint';
      const message = ctx.message ?? '';
      let summary: { amount: number; mint: string } = { amount: 0, mint: '' };
      try {
        const t = await decodeAnyToken(token);
        summary = { amount: tokenAmount(t), mint: t.entries[0]?.mint ?? '' };
      } catch {
        // An undecodable token is reported, not kept: a retry could not help.
      }
      if (failure !== 'invalid') {
        await this.commit((d) => {
          const rest = d.failed.filter((f) => f.id !== retryOf && f.token !== token);
          d.failed = [{ id: retryOf ?? id(), token, ...summary, failure, message, at: Math.floor(Date.now() / 1000) }, ...rest].slice(0, 100);
        });
      }
      return { ok: false as const, failure, message };
    }).catch(fail);
  }

  async retry(failedId: string): Promise<EcashResult<{ amount: number; mint: string }>> {
    await this.opening;
    const f = this.data.failed.find((x) => x.id === failedId);
    if (!f) return { ok: false, failure: 'invalid', message: 'unknown' };
    return this.receive(f.token, failedId);
  }

  dismissFailed(failedId: string): Promise<void> {
    return this.run(() => this.commit((d) => void (d.failed = d.failed.filter((f) => f.id !== failedId)))).catch(() => undefined);
  }

  send(mint: string, amount: number, memo = '', preferences: AmountPreference[] = []): Promise<EcashResult<{ token: string; amount: number }>> {
    return this.run(async () => (await this.loadWallet()).send(mint, amount, memo, preferences)).then((r) => ({ ok: true as const, ...r }), fail);
  }

  mintQuote(mint: string, amount: number): Promise<EcashResult<{ quote: string; request: string }>> {
    return this.run(async () => (await this.loadWallet()).mintQuote(mint, amount)).then((r) => ({ ok: true as const, ...r }), fail);
  }

  mintClaim(mint: string, quote: string, amount: number): Promise<EcashResult<{ paid: boolean; amount: number }>> {
    return this.run(async () => (await this.loadWallet()).mintClaim(mint, quote, amount)).then((r) => ({ ok: true as const, ...r }), fail);
  }

  /** Mint from lightning paid by the active NWC wallet: quote, pay, claim. */
  async mintWithNwc(mint: string, amount: number): Promise<EcashResult<{ amount: number }>> {
    const q = await this.mintQuote(mint, amount);
    if (!q.ok) return q;
    const paid = await this.options.payWithNwc(q.request);
    if (paid.status !== 'paid') return { ok: false, failure: 'network', message: paid.reason ?? 'payment-failed' };
    const claimed = await this.mintClaim(mint, q.quote, amount);
    if (!claimed.ok) return claimed;
    return claimed.paid ? { ok: true, amount: claimed.amount } : { ok: false, failure: 'mint', message: 'unpaid' };
  }

  meltQuote(invoice: string, mint?: string): Promise<EcashResult<{ quote: MeltQuoteInfo }>> {
    return this.run(async () => (await this.loadWallet()).meltQuote(invoice, mint)).then((quote) => ({ ok: true as const, quote }), fail);
  }

  /** Pays with a quote the person confirmed (the fee was shown with it). */
  melt(invoice: string, quote: MeltQuoteInfo): Promise<EcashResult<{ preimage: string; change: number }>> {
    return this.run(async () => {
      const w = await this.loadWallet();
      const actor = createActor(
        ecashMachine.provide({
          actors: {
            meltQuote: fromPromise(async () => quote),
            melt: fromPromise(({ input }) => w.melt(input.quote)),
          },
        }),
      );
      actor.start();
      actor.send({ type: 'MELT', invoice, mint: quote.mint });
      await waitFor(actor, (x) => x.matches('confirmMelt'));
      actor.send({ type: 'CONFIRM' });
      const s = await waitFor(actor, (x) => x.matches('done') || x.matches('failed'), { timeout: 120_000 });
      actor.stop();
      if (s.matches('done') && s.context.melted) return { ok: true as const, ...s.context.melted };
      return { ok: false as const, failure: s.context.failure ?? 'mint', message: s.context.message ?? '' };
    }).catch(fail);
  }

  checkPending(): Promise<EcashResult<{ claimed: number; dropped: number }>> {
    return this.run(async () => (await this.loadWallet()).checkPending()).then((r) => ({ ok: true as const, ...r }), fail);
  }

  seed(): Promise<EcashResult<{ mnemonic: string }>> {
    return this.run(async () => (await this.loadWallet()).ensureSeed()).then((mnemonic) => ({ ok: true as const, mnemonic }), fail);
  }

  restore(mnemonic: string, mint?: string): Promise<EcashResult<{ amount: number }>> {
    return this.run(async () => (await this.loadWallet()).restore(mnemonic, mint)).then((amount) => ({ ok: true as const, amount }), fail);
  }

  async decode(token: string): Promise<TokenSummary | null> {
    try {
      const t = await decodeAnyToken(token);
      if (t.entries.length === 0) return null;
      return { amount: tokenAmount(t), mint: t.entries[0].mint, memo: t.memo, unit: t.unit };
    } catch {
      return null;
    }
  }

  /** This cache server's mint, when /api/info says it runs one. */
  demo(): Promise<string | null> {
    const origin = httpOrigin(this.options.cacheServer() ?? '');
    if (!origin) return Promise.resolve(null);
    const fetcher = this.options.fetcher ?? ((url: string) => fetch(url));
    this.demoMint ??= fetcher(`${origin}/api/info`)
      .then((r) => r.json() as Promise<{ mint?: unknown }>)
      .then((b) => (b.mint === true ? normalizeMintUrl(`${origin}/mint`) : null))
      .catch(() => {
        this.demoMint = undefined;
        return null;
      });
    return this.demoMint;
  }

  dispose(): void {
    this.watchers.dispose();
  }
}
