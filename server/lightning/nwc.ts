/**
 * The NIP-47 wallet service of the demo network, on our own relay (/relay). The protocol side —
 * the kind-23194 subscription per connection, NIP-04 / NIP-44 decryption, the kind-23195 answers
 * and the kind-13194 info event — is @getalby/sdk's NWCWalletService (written by others and used
 * by real wallets); this file only gives it the handlers, which talk to the ledger, and checks
 * each connection's permissions and budget (ln_nwc_limits) before any of them runs.
 *
 * One SDK service holds one relay socket; each keeps at most SUBS_PER_SOCKET subscriptions, under
 * the relay's 200-subscription limit per connection.
 */
import { bytesToHex } from '@noble/hashes/utils';
import {
  NWCWalletService,
  NWCWalletServiceKeyPair,
  type Nip47SingleMethod,
  type Nip47Transaction,
  type NWCWalletServiceRequestHandler,
  type NWCWalletServiceResponse,
} from '@getalby/sdk';
import WebSocket from 'ws';
import type { ServerContext } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { serviceKey } from '../wallet/ops.ts';
import { balanceOf, createInvoice, demoAddressOf, demoNodePubkey, findInvoice, payInvoice, transactionsOf, type InvoiceRow } from './ledger.ts';
import { BUDGET_RENEWALS, LedgerError, msatToSats, type BudgetRenewal } from './rules.ts';

// Node 20 has no global WebSocket; the SDK's relay (nostr-tools) looks for one when it connects.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

export const NWC_METHODS: readonly Nip47SingleMethod[] = ['get_info', 'get_balance', 'pay_invoice', 'make_invoice', 'lookup_invoice', 'list_transactions'];
const SUBS_PER_SOCKET = 150;
const SUBSCRIBE_WAIT_MS = 5_000;
/** How often lost subscriptions (after a dropped relay socket) are looked for. */
const WATCHDOG_MS = 1_000;
const MAX_LIST = 100;

export interface NwcLimits {
  methods: Nip47SingleMethod[];
  budgetSats: number;
  renewal: BudgetRenewal;
}

export const DEFAULT_LIMITS: NwcLimits = { methods: [...NWC_METHODS], budgetSats: 0, renewal: 'never' };

/** Permissions and budget of a connection; a connection made before limits existed may do everything. */
export async function limitsOf(db: Queryable, clientPubkey: string): Promise<NwcLimits> {
  const row = await db.get<{ methods: string; budget_sats: number | string; budget_renewal: string }>(
    'SELECT methods, budget_sats, budget_renewal FROM ln_nwc_limits WHERE client_pubkey = ?',
    [clientPubkey],
  );
  if (!row) return DEFAULT_LIMITS;
  const renewal = (BUDGET_RENEWALS as readonly string[]).includes(row.budget_renewal) ? (row.budget_renewal as BudgetRenewal) : 'never';
  return {
    methods: row.methods.split(' ').filter((m): m is Nip47SingleMethod => (NWC_METHODS as readonly string[]).includes(m)),
    budgetSats: Number(row.budget_sats),
    renewal,
  };
}

export async function saveLimits(db: Queryable, clientPubkey: string, limits: NwcLimits): Promise<void> {
  await db.run(
    `INSERT INTO ln_nwc_limits (client_pubkey, methods, budget_sats, budget_renewal) VALUES (?, ?, ?, ?)
     ON CONFLICT (client_pubkey) DO UPDATE SET methods = excluded.methods, budget_sats = excluded.budget_sats, budget_renewal = excluded.budget_renewal`,
    [clientPubkey, limits.methods.join(' '), limits.budgetSats, limits.renewal],
  );
}

function toTransaction(row: InvoiceRow, owner: string, now: number): Nip47Transaction {
  const incoming = row.payee === owner;
  const paid = row.status === 'paid';
  return {
    type: incoming ? 'incoming' : 'outgoing',
    state: paid ? 'settled' : now >= row.expires_at ? 'failed' : 'pending',
    invoice: row.invoice,
    description: row.description,
    description_hash: row.description_hash,
    // The payee's node knows its preimage; a payer learns it only by paying.
    preimage: paid || incoming ? row.preimage : '',
    payment_hash: row.payment_hash,
    amount: row.amount_sats * 1000,
    fees_paid: 0,
    settled_at: row.paid_at ?? 0,
    created_at: row.created_at,
    expires_at: row.expires_at,
    ...(row.comment ? { metadata: { comment: row.comment } } : {}),
  };
}

const ok = <T>(result: T): NWCWalletServiceResponse<T> => ({ result, error: undefined });

function optInt(v: unknown, name: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new LedgerError('OTHER', `Hibás ${name}.`);
  return v;
}

/** The handlers of one connection; every call re-reads its limits, so a change applies at once. */
function handlerFor(ctx: ServerContext, clientPubkey: string, owner: string): NWCWalletServiceRequestHandler {
  async function run<T>(method: Nip47SingleMethod, work: (limits: NwcLimits) => Promise<T>): Promise<NWCWalletServiceResponse<T>> {
    try {
      const limits = await limitsOf(ctx.db, clientPubkey);
      if (!limits.methods.includes(method)) throw new LedgerError('RESTRICTED', `Ez a kapcsolat nem használhatja ezt a műveletet: ${method}.`);
      return ok(await work(limits));
    } catch (err) {
      if (err instanceof LedgerError) return { result: undefined, error: { code: err.code, message: err.message } };
      if (ctx.config.verbose) console.error('NWC hiba:', err);
      return { result: undefined, error: { code: 'INTERNAL', message: 'Belső hiba.' } };
    }
  }
  return {
    getInfo: () =>
      run('get_info', async (limits) => {
        const lud16 = await demoAddressOf(ctx.db, ctx.config.nip05Domain, owner);
        return {
          alias: 'Strucc demó',
          color: '#f7931a',
          pubkey: await demoNodePubkey(ctx.db),
          network: 'mainnet',
          block_height: 0,
          block_hash: '0'.repeat(64),
          methods: limits.methods,
          notifications: [],
          ...(lud16 ? { lud16 } : {}),
        };
      }),
    getBalance: () => run('get_balance', async () => ({ balance: (await balanceOf(ctx, owner)) * 1000 })),
    payInvoice: (req) =>
      run('pay_invoice', async (limits) => {
        const paid = await payInvoice(ctx, owner, req?.invoice, { clientPubkey, budgetSats: limits.budgetSats, renewal: limits.renewal });
        return { preimage: paid.preimage, fees_paid: 0 };
      }),
    makeInvoice: (req) =>
      run('make_invoice', async () => {
        const description = typeof req?.description === 'string' ? req.description : undefined;
        const hash = typeof req?.description_hash === 'string' && req.description_hash ? req.description_hash : undefined;
        const row = await createInvoice(ctx, {
          payee: owner,
          amountSats: msatToSats(req?.amount),
          description,
          descriptionHash: hash,
          expirySeconds: optInt(req?.expiry, 'expiry'),
        });
        return toTransaction(row, owner, ctx.now());
      }),
    lookupInvoice: (req) =>
      run('lookup_invoice', async () => {
        const row = await findInvoice(ctx.db, { paymentHash: req?.payment_hash, invoice: req?.invoice });
        // Someone else's invoice is as unknown as one that does not exist.
        if (!row || (row.payee !== owner && row.payer !== owner)) throw new LedgerError('NOT_FOUND', 'Nincs ilyen számla.');
        return toTransaction(row, owner, ctx.now());
      }),
    listTransactions: (req) =>
      run('list_transactions', async () => {
        const type = req?.type === 'incoming' || req?.type === 'outgoing' ? req.type : undefined;
        const rows = await transactionsOf(ctx.db, owner, {
          from: optInt(req?.from, 'from'),
          until: optInt(req?.until, 'until'),
          limit: Math.min(optInt(req?.limit, 'limit') ?? 20, MAX_LIST),
          offset: optInt(req?.offset, 'offset') ?? 0,
          unpaid: req?.unpaid === true,
          type,
        });
        const now = ctx.now();
        return { transactions: rows.map((r) => toTransaction(r, owner, now)), total_count: rows.length };
      }),
  };
}

interface Served {
  owner: string;
  unsubscribe: () => void;
  /** The relay has confirmed the subscription (EOSE); only then can its loss be noticed. */
  ready: boolean;
}

interface Socket {
  service: NWCWalletService;
  clients: Map<string, Served>;
}

interface State {
  relayUrl: string;
  walletSecret: string;
  sockets: Socket[];
  stopped: boolean;
  watchdog: NodeJS.Timeout;
}

const states = new WeakMap<ServerContext, State>();

type RelayInternals = { openSubs: Map<string, { filters: { authors?: string[] }[]; eosed: boolean }> };

function openSub(service: NWCWalletService, clientPubkey: string, eosed: boolean): boolean {
  const subs = (service.relay as unknown as RelayInternals).openSubs;
  for (const sub of subs.values()) if ((!eosed || sub.eosed) && sub.filters.some((f) => f.authors?.includes(clientPubkey))) return true;
  return false;
}

/**
 * Resolves once the relay has answered the connection's REQ with EOSE: requests published before
 * that would be lost (kind 23194 is ephemeral), so nwc_connect hands out the URI only after it.
 */
async function subscribed(service: NWCWalletService, clientPubkey: string): Promise<void> {
  const deadline = Date.now() + SUBSCRIBE_WAIT_MS;
  while (Date.now() < deadline && !openSub(service, clientPubkey, true)) await new Promise((r) => setTimeout(r, 10));
}

async function subscribe(ctx: ServerContext, state: State, socket: Socket, clientPubkey: string, served: Served): Promise<void> {
  served.ready = false;
  served.unsubscribe();
  served.unsubscribe = await socket.service.subscribe(
    new NWCWalletServiceKeyPair(state.walletSecret, clientPubkey),
    handlerFor(ctx, clientPubkey, served.owner),
  );
  await subscribed(socket.service, clientPubkey);
  served.ready = true;
}

/** Serves one connection (idempotent); called at start for stored ones and by nwc_connect for new ones. */
export async function serveConnection(ctx: ServerContext, clientPubkey: string, owner: string): Promise<void> {
  const state = states.get(ctx);
  if (!state || state.stopped || state.sockets.some((s) => s.clients.has(clientPubkey))) return;
  let socket = state.sockets.find((s) => s.clients.size < SUBS_PER_SOCKET);
  if (!socket) {
    socket = { service: new NWCWalletService({ relayUrl: state.relayUrl }), clients: new Map() };
    state.sockets.push(socket);
  }
  // Reserved before the await, so a second call for the same connection does not subscribe twice.
  const served: Served = { owner, unsubscribe: () => undefined, ready: false };
  socket.clients.set(clientPubkey, served);
  await subscribe(ctx, state, socket, clientPubkey, served);
}

/**
 * After a dropped relay socket the SDK reconnects and resubscribes only one of the subscriptions
 * sharing it (each subscribe takes over the relay's single onclose), so every confirmed
 * subscription the relay no longer has is made again here.
 */
async function resubscribeLost(ctx: ServerContext, state: State): Promise<void> {
  for (const socket of state.sockets) {
    for (const [clientPubkey, served] of socket.clients) {
      if (state.stopped) return;
      if (served.ready && !openSub(socket.service, clientPubkey, false)) await subscribe(ctx, state, socket, clientPubkey, served);
    }
  }
}

/** True when every connection is subscribed and confirmed by the relay (tests wait for it after a drop). */
export function walletServiceReady(ctx: ServerContext): boolean {
  const state = states.get(ctx);
  if (!state) return false;
  return state.sockets.every((s) => [...s.clients].every(([client, served]) => served.ready && openSub(s.service, client, true)));
}

/** Connects the wallet service to our relay (after the server listens) and serves every stored connection. */
export async function startWalletService(ctx: ServerContext, relayUrl: string): Promise<void> {
  const walletSecret = bytesToHex(await serviceKey(ctx.db));
  const first: Socket = { service: new NWCWalletService({ relayUrl }), clients: new Map() };
  let checking = false;
  const state: State = {
    relayUrl,
    walletSecret,
    sockets: [first],
    stopped: false,
    watchdog: setInterval(() => {
      if (checking || state.stopped) return;
      checking = true;
      resubscribeLost(ctx, state)
        .catch((err: unknown) => {
          if (ctx.config.verbose) console.error('NWC újrafeliratkozási hiba:', err);
        })
        .finally(() => {
          checking = false;
        });
    }, WATCHDOG_MS),
  };
  state.watchdog.unref();
  states.set(ctx, state);
  // The info event tells clients (NWCClient reads it) which methods and encryptions are served.
  await first.service.publishWalletServiceInfoEvent(walletSecret, [...NWC_METHODS], []);
  const rows = await ctx.db.all<{ client_pubkey: string; pubkey: string }>('SELECT client_pubkey, pubkey FROM wallet_nwc_connections');
  for (const r of rows) await serveConnection(ctx, r.client_pubkey, r.pubkey);
}

export async function stopWalletService(ctx: ServerContext): Promise<void> {
  const state = states.get(ctx);
  if (!state) return;
  state.stopped = true;
  clearInterval(state.watchdog);
  for (const socket of state.sockets) {
    for (const served of socket.clients.values()) served.unsubscribe();
    socket.service.close();
  }
  state.sockets = [];
  states.delete(ctx);
}

/** The SDK services' relay sockets, for tests that drop one. */
export function walletServiceRelays(ctx: ServerContext): NWCWalletService['relay'][] {
  return states.get(ctx)?.sockets.map((s) => s.service.relay) ?? [];
}
