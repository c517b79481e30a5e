/**
 * Runs machines/wallet.ts for the signed-in account in the shared worker, so every tab sees the
 * same connections and the same active payer. The list is kept in the `user-nwc` sub-setting,
 * NIP-44-encrypted to the user; `nwcActive` holds [name, id] (no secret) in the account record.
 */
import { createActor, fromPromise, waitFor, type Actor } from 'xstate';
import { keyStateOf } from '../machines/login.ts';
import {
  parseNwcUri,
  paymentMachine,
  publicConnections,
  walletMachine,
  type NwcParts,
  type SavedWallets,
  type WalletConnection,
  type ZapTarget,
} from '../machines/wallet.ts';
import type { PaymentResult } from '../core/types.ts';
import type { AccountService } from './account.ts';
import { APP_SETTINGS_CLIENT } from '../core/config.ts';
import { Watchers } from './instances.ts';
import { httpOrigin } from './nip05.ts';
import type { SocketFactory, WalletDetails } from './nwc.ts';
import { parseProfile } from '../core/profile.ts';
import { walletCommand, walletSocketUrl, withRetries } from './wallet-command.ts';
import type { ActionResult, CacheReply, NostrEvent } from '../core/types.ts';
import type { ExchangeRate, WalletAction, WalletSnapshot, ZapEndpointInfo, ZapPart, ZapRequestInput, ZapResult } from '../core/types/wallet.ts';
import { CacheKind } from '../core/kinds';

// The NIP-47 client (with NIP-04/NIP-44 and their ciphers) and the LNURL/NIP-57 zap code load with the
// first wallet action, zap or payment, not with every guest's first screen.
const nwcModule = () => import('./nwc.ts');
const zapModule = () => import('./zap.ts');
/** A ZapError's code (its message), undefined for any other failure. */
const zapErrorCode = async (e: unknown): Promise<string | undefined> => (e instanceof (await zapModule()).ZapError ? e.message : undefined);

export { walletSocketUrl };

type CacheRequest = (command: string, payload?: Record<string, unknown>) => Promise<CacheReply>;

const SUBKEY = 'user-nwc';
const RATE_TTL_MS = 600_000;
/** The payment machine's connection id when the tab's WebLN wallet pays. */
export const WEBLN_PAYER = 'webln';
const VERSION = 1;

export interface WalletServiceOptions {
  account: AccountService;
  request: CacheRequest;
  /** The cache server's socket URL; the wallet command lives on the same host's /wallet. */
  cacheServer: () => string | undefined;
  socket?: SocketFactory;
  /** The account's write relays: the zap request names them for the receipt. */
  writeRelays: () => string[];
  fetcher?: (url: string, init?: RequestInit) => Promise<Response>;
}

/** The encrypted form stored on the server: other clients' user-nwc shapes are read as empty. */
interface StoredNwc {
  v: number;
  nip44: string;
}

function isStored(value: unknown): value is StoredNwc {
  return typeof value === 'object' && value !== null && (value as StoredNwc).v === VERSION && typeof (value as StoredNwc).nip44 === 'string';
}

function asConnections(value: unknown): WalletConnection[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (c): c is WalletConnection => typeof c === 'object' && c !== null && typeof c.id === 'string' && typeof c.name === 'string' && typeof c.uri === 'string',
  );
}

export class WalletService {
  private actor: Actor<typeof walletMachine> | undefined;
  private pubkey: string | undefined;
  private readonly watchers = new Watchers<WalletSnapshot>();

  constructor(private readonly options: WalletServiceOptions) {
    options.account.login.subscribe(() => this.follow());
    this.follow();
  }

  /**
   * Restarts the machine when the signed-in account changes; a read-only or no login has no wallets.
   * It starts only once the account can sign: a login still being restored (a new worker after the
   * last tab reloaded) cannot yet decrypt the list, and reading it as empty would lose it at the next save.
   */
  private follow(): void {
    const login = this.options.account.login.getSnapshot();
    const pubkey = keyStateOf(login) === 'sign' ? login.context.pubkey : undefined;
    if (pubkey === this.pubkey) return;
    this.pubkey = pubkey;
    this.actor?.stop();
    this.actor = pubkey ? this.start(pubkey) : undefined;
    this.emit();
  }

  private start(pubkey: string): Actor<typeof walletMachine> {
    const { account, request } = this.options;
    const signer = account.signer;
    const actor = createActor(
      walletMachine.provide({
        actors: {
          load: fromPromise<SavedWallets, void>(async () => {
            const reply = await withRetries(async () => {
              const event = await signer.signRequest('get_app_subsettings_nwc', { subkey: SUBKEY });
              const r = await request('get_app_subsettings', { event_from_user: event });
              if (r.notice !== undefined) throw new Error(r.notice);
              return r;
            });
            const obj = reply.events.find((e) => typeof e.content === 'string');
            let connections: WalletConnection[] = [];
            if (obj && typeof obj.content === 'string') {
              const value: unknown = JSON.parse(obj.content);
              if (isStored(value)) connections = asConnections(JSON.parse(await signer.nip44Decrypt(pubkey, value.nip44)));
            }
            const active = account.snapshot().account?.nwcActive?.[1] ?? null;
            return { connections, active };
          }),
          save: fromPromise<void, SavedWallets>(async ({ input }) => {
            const active = input.connections.find((c) => c.id === input.active);
            await account.act({ type: 'setLocal', patch: { nwcActive: active ? [active.name, active.id] : [] } });
            const settings: StoredNwc = { v: VERSION, nip44: await signer.nip44Encrypt(pubkey, JSON.stringify(input.connections)) };
            const event = await signer.signRequest('set_app_subsettings_nwc', { subkey: SUBKEY, settings });
            const reply = await request('set_app_subsettings', { event_from_user: event });
            if (reply.notice !== undefined) throw new Error(reply.notice);
          }),
        },
      }),
    );
    actor.subscribe(() => this.emit());
    actor.start();
    return actor;
  }

  snapshot(): WalletSnapshot {
    if (!this.actor) return { state: 'none', connections: [], active: null };
    const snap = this.actor.getSnapshot();
    const c = snap.context;
    const out: WalletSnapshot = {
      state: snap.matches('loading') ? 'loading' : snap.matches({ ready: 'saving' }) ? 'saving' : 'ready',
      connections: publicConnections(c.connections),
      active: c.active,
    };
    if (c.error) out.error = c.error;
    if (c.saveError) out.saveError = c.saveError;
    return out;
  }

  private emit(): void {
    this.watchers.emit(this.snapshot(), () => false);
  }

  watch(tabId: string, cb: (s: WalletSnapshot) => unknown, release: () => void): number {
    return this.watchers.add(tabId, cb, release, this.snapshot());
  }

  unwatch(handle: number): void {
    this.watchers.remove(handle);
  }

  closeTab(tabId: string): void {
    this.watchers.closeTab(tabId);
  }

  private async ready(): Promise<Actor<typeof walletMachine>> {
    const actor = this.actor;
    if (!actor) throw new Error('no-account');
    await waitFor(actor, (s) => !s.matches('loading'));
    return actor;
  }

  async act(action: WalletAction): Promise<ActionResult> {
    let actor: Actor<typeof walletMachine>;
    try {
      actor = await this.ready();
    } catch {
      return { ok: false, code: 'no-account' };
    }
    switch (action.type) {
      case 'add':
        actor.send({ type: 'ADD', uri: action.uri, name: action.name });
        break;
      case 'rename':
        actor.send({ type: 'RENAME', id: action.id, name: action.name });
        break;
      case 'remove':
        actor.send({ type: 'REMOVE', id: action.id });
        break;
      case 'activate':
        actor.send({ type: 'ACTIVATE', id: action.id });
        break;
    }
    const error = actor.getSnapshot().context.error;
    if (error) return { ok: false, code: error };
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }));
    const saveError = actor.getSnapshot().context.saveError;
    return saveError ? { ok: false, code: saveError } : { ok: true };
  }

  private parts(id: string | null): NwcParts | undefined {
    const c = this.actor?.getSnapshot().context.connections.find((x) => x.id === id);
    return c ? parseNwcUri(c.uri) : undefined;
  }

  async details(id: string): Promise<WalletDetails | { error: string }> {
    await this.ready().catch(() => undefined);
    const parts = this.parts(id);
    if (!parts) return { error: 'unknown' };
    try {
      return await (await nwcModule()).walletDetails(parts, this.options.socket);
    } catch (e) {
      return { error: e instanceof Error ? e.message : 'failed' };
    }
  }

  /** Pays a bolt11 invoice with the active connection (machines/wallet.ts paymentMachine). */
  pay(invoice: string): Promise<PaymentResult> {
    return this.runPayment({ invoice });
  }

  private ownDomain: Promise<{ domain: string; origin: string } | undefined> | undefined;

  /** The demo server's NIP-05 domain: lightning addresses on it are served by the server itself. */
  private serverDomain(): Promise<{ domain: string; origin: string } | undefined> {
    const origin = httpOrigin(this.options.cacheServer() ?? '');
    if (!origin) return Promise.resolve(undefined);
    this.ownDomain ??= this.fetcher()(`${origin}/api/info`)
      .then((r) => r.json() as Promise<{ nip05Domain?: unknown; demoLightning?: unknown }>)
      .then((b) => (b.demoLightning === true && typeof b.nip05Domain === 'string' ? { domain: b.nip05Domain.toLowerCase(), origin } : undefined))
      .catch(() => {
        this.ownDomain = undefined;
        return undefined;
      });
    return this.ownDomain;
  }

  private fetcher() {
    return this.options.fetcher ?? ((url: string, init?: RequestInit) => fetch(url, init));
  }

  /** The LNURL fetch of this client: from the browser, with our server's guarded proxy as the fallback. */
  private async lnurlFetcher() {
    return (await zapModule()).withLnurlProxy(this.fetcher(), httpOrigin(this.options.cacheServer() ?? '') || undefined);
  }

  /** The recipient's LNURL-pay limits, for the custom zap's comment field and amount checks. */
  async zapEndpoint(lud16: string, lud06: string): Promise<ZapEndpointInfo> {
    try {
      const { lnurlEndpoint, payEndpoint } = await zapModule();
      const url = lnurlEndpoint(lud16, lud06, await this.serverDomain());
      const e = await payEndpoint(await this.lnurlFetcher(), url);
      return { commentAllowed: e.commentAllowed, minSats: Math.ceil(e.minSendable / 1000), maxSats: Math.floor(e.maxSendable / 1000) };
    } catch (e) {
      return { error: (await zapErrorCode(e)) ?? 'lnurl-unreachable' };
    }
  }

  private readonly rates = new Map<string, { at: number; rate: Promise<ExchangeRate | undefined> }>();

  /**
   * The wallet service's price of one bitcoin. The server's wallet `exchange_rate` and
   * `membership_exchange_rate` answer from the same rate table; the unsigned one is asked, so that
   * opening the custom zap never makes a signer extension ask for a signature. Kept ten minutes.
   */
  exchangeRate(currency: string): Promise<ExchangeRate | undefined> {
    const code = currency.toUpperCase();
    if (!/^[A-Z]{3}$/.test(code)) return Promise.resolve(undefined);
    const seen = this.rates.get(code);
    if (seen && Date.now() - seen.at < RATE_TTL_MS) return seen.rate;
    const rate = (async () => {
      const reply = await this.options.request('membership_exchange_rate', { target_currency: code });
      const obj = reply.events.find((e) => e.kind === CacheKind.EXCHANGE_RATE && typeof e.content === 'string');
      if (reply.notice !== undefined || !obj) return undefined;
      const value = Number((JSON.parse(String(obj.content)) as { rate?: unknown }).rate);
      if (!Number.isFinite(value) || value <= 0) return undefined;
      return { currency: code, rate: value, demo: !!(await this.serverDomain()) };
    })()
      .catch(() => undefined)
      .then((r) => {
        // A failed answer is asked again next time rather than kept.
        if (!r) this.rates.delete(code);
        return r;
      });
    this.rates.set(code, { at: Date.now(), rate });
    return rate;
  }

  /** Lightning addresses of a split's recipients, from their profiles on the cache server. */
  private async addressesOf(pubkeys: string[]): Promise<Map<string, { lud16: string; lud06: string }>> {
    const out = new Map<string, { lud16: string; lud06: string }>();
    if (pubkeys.length === 0) return out;
    const reply = await this.options.request('user_infos', { pubkeys }).catch(() => undefined);
    for (const e of reply?.events ?? []) {
      if (e.kind !== 0 || typeof e.pubkey !== 'string' || typeof e.content !== 'string') continue;
      const p = parseProfile(e as NostrEvent);
      out.set(p.pubkey, { lud16: p.lud16, lud06: p.lud06 });
    }
    return out;
  }

  /**
   * A zap: the recipient's LNURL-pay endpoint, a zap request signed by the account naming its write
   * relays, the invoice, paid by the active connection (or the tab's WebLN). An event with zap
   * splits (NIP-57 appendix G) is zapped once per recipient with its share; 'partial' when only
   * some of them were paid. 'no-address' when the recipient has no lightning address.
   */
  async zap(input: ZapRequestInput, payInTab?: (invoice: string) => Promise<string>): Promise<ZapResult> {
    const shares = (await zapModule()).zapSplits(input.event, input.amountSats);
    if (!shares) {
      const one = await this.zapOne(input, payInTab);
      return { status: one.status, paidSats: one.status === 'paid' ? input.amountSats : 0, ...(one.reason ? { reason: one.reason } : {}) };
    }
    const others = shares.map((s) => s.pubkey).filter((p) => p !== input.recipient);
    const addresses = await this.addressesOf(others);
    const parts: ZapPart[] = [];
    // One after the other: a wallet may refuse a burst of payments, and each share is small.
    for (const share of shares) {
      const address = share.pubkey === input.recipient ? input : (addresses.get(share.pubkey) ?? { lud16: '', lud06: '' });
      const r = await this.zapOne({ ...input, recipient: share.pubkey, lud16: address.lud16, lud06: address.lud06, amountSats: share.amountSats }, payInTab);
      parts.push({ pubkey: share.pubkey, amountSats: share.amountSats, status: r.status, ...(r.reason ? { reason: r.reason } : {}) });
    }
    const paid = parts.filter((p) => p.status === 'paid');
    const paidSats = paid.reduce((a, p) => a + p.amountSats, 0);
    if (paid.length === parts.length) return { status: 'paid', paidSats, parts };
    const reason = parts.find((p) => p.status !== 'paid')?.reason;
    return { status: paid.length > 0 ? 'partial' : 'failed', paidSats, parts, ...(reason ? { reason } : {}) };
  }

  private async zapOne(input: ZapRequestInput, payInTab?: (invoice: string) => Promise<string>): Promise<PaymentResult> {
    let lnurl: string;
    try {
      const domain = await this.serverDomain();
      lnurl = (await zapModule()).lnurlEndpoint(input.lud16, input.lud06, domain);
    } catch (e) {
      return { status: 'failed', reason: (await zapErrorCode(e)) ?? 'no-address' };
    }
    const zap: ZapTarget = { lnurl, amountMsat: input.amountSats * 1000, comment: input.comment, recipient: input.recipient };
    if (input.event) zap.eventId = input.event.id;
    return this.runPayment({ zap }, input, payInTab);
  }

  private async runPayment(what: { invoice?: string; zap?: ZapTarget }, zapInput?: ZapRequestInput, payInTab?: (invoice: string) => Promise<string>): Promise<PaymentResult> {
    await this.ready().catch(() => undefined);
    const active = payInTab ? WEBLN_PAYER : (this.actor?.getSnapshot().context.active ?? null);
    const signer = this.options.account.signer;
    const fetcher = await this.lnurlFetcher();
    const actor = createActor(
      paymentMachine.provide({
        actors: {
          pay: fromPromise<string, { connectionId: string; invoice: string }>(async ({ input }) => {
            // WebLN lives in the tab that asked: it pays the invoice the worker fetched.
            if (input.connectionId === WEBLN_PAYER && payInTab) return payInTab(input.invoice);
            const parts = this.parts(input.connectionId);
            if (!parts) throw new Error('no-wallet');
            return (await nwcModule()).payInvoice(parts, input.invoice, this.options.socket);
          }),
          fetchInvoice: fromPromise<string, ZapTarget>(async ({ input }) => {
            if (!zapInput) throw new Error('no-invoice');
            return (await zapModule()).fetchZapInvoice(fetcher, (t) => signer.sign(t), {
              recipient: input.recipient,
              event: zapInput.event,
              amountSats: zapInput.amountSats,
              comment: input.comment,
              relays: this.options.writeRelays(),
              lnurl: input.lnurl,
            });
          }),
        },
      }),
      { input: { connectionId: active, ...what } },
    );
    actor.start();
    const done = await waitFor(actor, (s) => s.status === 'done', { timeout: Infinity });
    return done.output as PaymentResult;
  }

  /** The demo network's wallet for this account (server `wallet` nwc_connect), added to the list. */
  async connectDemo(name: string): Promise<ActionResult> {
    const server = this.options.cacheServer();
    if (!this.pubkey || !server) return { ok: false, code: 'no-account' };
    let uri: unknown;
    try {
      const event: NostrEvent = await this.options.account.signer.sign({
        kind: CacheKind.WALLET_NWC_CONNECTION,
        tags: [['d', APP_SETTINGS_CLIENT, 'nwc_connect']],
        content: JSON.stringify(['nwc_connect', { appname: 'Strucc' }]),
        created_at: Math.floor(Date.now() / 1000),
      });
      uri = ((await walletCommand(walletSocketUrl(server), event, this.options.socket)) as { uri?: unknown }).uri;
    } catch (e) {
      return { ok: false, code: e instanceof Error ? e.message : 'failed' };
    }
    if (typeof uri !== 'string') return { ok: false, code: 'failed' };
    return this.act({ type: 'add', uri, name });
  }

  dispose(): void {
    this.actor?.stop();
    this.watchers.dispose();
  }
}
