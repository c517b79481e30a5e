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
import { notify } from './feeds.ts';
import { httpOrigin } from './nip05.ts';
import { payInvoice, walletDetails, type SocketFactory, type WalletDetails } from './nwc.ts';
import { fetchZapInvoice, lnurlEndpoint, ZapError } from './zap.ts';
import type { ActionResult, CacheReply, NostrEvent } from '../core/types.ts';
import type { WalletAction, WalletSnapshot, ZapRequestInput } from '../core/types/wallet.ts';

type CacheRequest = (command: string, payload?: Record<string, unknown>) => Promise<CacheReply>;

const SUBKEY = 'user-nwc';
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

export function walletSocketUrl(cacheServer: string): string {
  const url = new URL(cacheServer);
  url.pathname = '/wallet';
  url.search = '';
  return url.toString();
}

export class WalletService {
  private actor: Actor<typeof walletMachine> | undefined;
  private pubkey: string | undefined;
  private readonly watchers = new Map<number, { tabId: string; cb: (s: WalletSnapshot) => unknown; release: () => void }>();
  private nextHandle = 1;

  constructor(private readonly options: WalletServiceOptions) {
    options.account.login.subscribe(() => this.follow());
    this.follow();
  }

  /** Restarts the machine when the signed-in account changes; a read-only or no login has no wallets. */
  private follow(): void {
    const login = this.options.account.login.getSnapshot();
    const pubkey = keyStateOf(login) === 'none' || login.context.method === 'readonly' ? undefined : login.context.pubkey;
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
            const event = await signer.signRequest('get_app_subsettings_nwc', { subkey: SUBKEY });
            const reply = await request('get_app_subsettings', { event_from_user: event });
            if (reply.notice !== undefined) throw new Error(reply.notice);
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
    const s = this.snapshot();
    for (const w of this.watchers.values()) notify(w.cb, s);
  }

  watch(tabId: string, cb: (s: WalletSnapshot) => unknown, release: () => void): number {
    const handle = this.nextHandle++;
    this.watchers.set(handle, { tabId, cb, release });
    notify(cb, this.snapshot());
    return handle;
  }

  unwatch(handle: number): void {
    this.watchers.get(handle)?.release();
    this.watchers.delete(handle);
  }

  closeTab(tabId: string): void {
    for (const [handle, w] of [...this.watchers]) if (w.tabId === tabId) this.unwatch(handle);
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
      return await walletDetails(parts, this.options.socket);
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

  /**
   * A zap: the author's LNURL-pay endpoint, a zap request signed by the account naming its write
   * relays, the invoice, paid by the active connection. 'no-address' when the author has no
   * lightning address.
   */
  async zap(input: ZapRequestInput): Promise<PaymentResult> {
    let lnurl: string;
    try {
      lnurl = lnurlEndpoint(input.lud16, input.lud06, await this.serverDomain());
    } catch (e) {
      return { status: 'failed', reason: e instanceof ZapError ? e.message : 'no-address' };
    }
    const zap: ZapTarget = { lnurl, amountMsat: input.amountSats * 1000, comment: input.comment, recipient: input.recipient };
    if (input.event) zap.eventId = input.event.id;
    return this.runPayment({ zap }, input);
  }

  private async runPayment(what: { invoice?: string; zap?: ZapTarget }, zapInput?: ZapRequestInput): Promise<PaymentResult> {
    await this.ready().catch(() => undefined);
    const active = this.actor?.getSnapshot().context.active ?? null;
    const signer = this.options.account.signer;
    const actor = createActor(
      paymentMachine.provide({
        actors: {
          pay: fromPromise<string, { connectionId: string; invoice: string }>(async ({ input }) => {
            const parts = this.parts(input.connectionId);
            if (!parts) throw new Error('no-wallet');
            return payInvoice(parts, input.invoice, this.options.socket);
          }),
          fetchInvoice: fromPromise<string, ZapTarget>(async ({ input }) => {
            if (!zapInput) throw new Error('no-invoice');
            return fetchZapInvoice(this.fetcher(), (t) => signer.sign(t), {
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
    let uri: string;
    try {
      uri = await this.demoUri(walletSocketUrl(server));
    } catch (e) {
      return { ok: false, code: e instanceof Error ? e.message : 'failed' };
    }
    return this.act({ type: 'add', uri, name });
  }

  private async demoUri(url: string): Promise<string> {
    const event: NostrEvent = await this.options.account.signer.sign({
      kind: 10000803,
      tags: [['d', APP_SETTINGS_CLIENT, 'nwc_connect']],
      content: JSON.stringify(['nwc_connect', { appname: 'Strucc' }]),
      created_at: Math.floor(Date.now() / 1000),
    });
    const ws = (this.options.socket ?? ((u: string) => new WebSocket(u)))(url);
    const sub = `w${Date.now().toString(36)}`;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => fail('timeout'), 15_000);
      const fail = (why: string) => {
        clearTimeout(timer);
        ws.close();
        reject(new Error(why));
      };
      ws.onopen = () => ws.send(JSON.stringify(['REQ', sub, { cache: ['wallet', { operation_event: event }] }]));
      ws.onerror = () => fail('failed');
      ws.onmessage = (m) => {
        let msg: unknown[];
        try {
          msg = JSON.parse(String(m.data)) as unknown[];
        } catch {
          return;
        }
        if (msg[1] !== sub) return;
        if (msg[0] === 'NOTICE') fail(String(msg[2]));
        if (msg[0] === 'EVENT') {
          try {
            const uri = (JSON.parse(String((msg[2] as { content?: string }).content)) as { uri?: unknown }).uri;
            if (typeof uri === 'string') {
              clearTimeout(timer);
              ws.close();
              resolve(uri);
            }
          } catch {
            // not the answer
          }
        }
        if (msg[0] === 'EOSE') fail('failed');
      };
    });
  }

  dispose(): void {
    this.actor?.stop();
    for (const handle of [...this.watchers.keys()]) this.unwatch(handle);
  }
}
