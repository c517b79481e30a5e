/**
 * Wallet connections and payments (issue 14 "In the client"). Pure: loading and saving the
 * connection list, fetching a zap's invoice and paying it over NWC are actors the worker provides.
 * The connection URIs carry spending secrets, so this machine only runs in the worker and tabs see
 * `publicConnections()` of its context.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { PaymentResult, PaymentStatus, PublicConnection } from '../core/types.ts';

export const NWC_PREFIXES = ['nostr+walletconnect://', 'nostrwalletconnect://'];
/** A wallet that has not answered by then is reported as timed out; the payment may still settle later. */
export const PAY_TIMEOUT_MS = 60_000;

export interface NwcParts {
  walletPubkey: string;
  relays: string[];
  secret: string;
  lud16?: string;
}

export interface WalletConnection {
  /** From connectionId(): the same URI always gets the same id, in every tab and after reload. */
  id: string;
  name: string;
  uri: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** The parts of a NIP-47 connection URI, or undefined when it is not one we can use. */
export function parseNwcUri(raw: string): NwcParts | undefined {
  const uri = raw.trim();
  const prefix = NWC_PREFIXES.find((p) => uri.toLowerCase().startsWith(p));
  if (!prefix) return undefined;
  let url: URL;
  try {
    // URL does not parse the custom scheme's host reliably everywhere; swap in a known one.
    url = new URL(`https://${uri.slice(prefix.length)}`);
  } catch {
    return undefined;
  }
  const walletPubkey = (url.hostname || url.pathname.replace(/^\/+/, '')).toLowerCase();
  const secret = (url.searchParams.get('secret') ?? '').toLowerCase();
  const relays = url.searchParams.getAll('relay').filter((r) => /^wss?:\/\/[^\s]+$/i.test(r));
  if (!HEX64.test(walletPubkey) || !HEX64.test(secret) || relays.length === 0) return undefined;
  const lud16 = url.searchParams.get('lud16') ?? undefined;
  return lud16 ? { walletPubkey, relays, secret, lud16 } : { walletPubkey, relays, secret };
}

/** Connections are told apart by wallet and client secret: the same wallet may be added twice with two keys. */
export function connectionId(parts: NwcParts): string {
  return `${parts.walletPubkey.slice(0, 16)}-${parts.secret.slice(0, 8)}`;
}

export function publicConnections(connections: WalletConnection[]): PublicConnection[] {
  const out: PublicConnection[] = [];
  for (const c of connections) {
    const parts = parseNwcUri(c.uri);
    if (!parts) continue;
    const pub: PublicConnection = { id: c.id, name: c.name, walletPubkey: parts.walletPubkey, relays: parts.relays };
    if (parts.lud16) pub.lud16 = parts.lud16;
    out.push(pub);
  }
  return out;
}

export interface SavedWallets {
  connections: WalletConnection[];
  active: string | null;
}

export type WalletEvent =
  | { type: 'ADD'; uri: string; name?: string }
  | { type: 'RENAME'; id: string; name: string }
  | { type: 'REMOVE'; id: string }
  | { type: 'ACTIVATE'; id: string | null }
  | { type: 'RELOAD' };

interface WalletContext extends SavedWallets {
  /** 'invalid-uri' | 'duplicate' after a refused ADD; cleared by the next change. */
  error?: string;
  /** Set while saving failed; the list in memory stays as the person left it. */
  saveError?: string;
}

function missing(name: string): never {
  throw new Error(`wallet: the ${name} actor must be provided with machine.provide()`);
}

/** The first connection stays the payer when the active one goes away, so a zap still has a wallet. */
function activeAfterRemove(connections: WalletConnection[], active: string | null, removed: string): string | null {
  if (active !== removed) return active;
  return connections.find((c) => c.id !== removed)?.id ?? null;
}

export const walletMachine = setup({
  types: {
    context: {} as WalletContext,
    events: {} as WalletEvent,
  },
  actors: {
    /** Reads user-nwc (decrypted) and nwcActive for the signed-in account. */
    load: fromPromise<SavedWallets, void>(async () => missing('load')),
    /** Writes both back; the list encrypted to the user, nwcActive to the worker's storage. */
    save: fromPromise<void, SavedWallets>(async () => missing('save')),
  },
  guards: {
    validUri: ({ event }) => event.type === 'ADD' && parseNwcUri(event.uri) !== undefined,
    duplicate: ({ context, event }) => {
      if (event.type !== 'ADD') return false;
      const parts = parseNwcUri(event.uri);
      return parts !== undefined && context.connections.some((c) => c.id === connectionId(parts));
    },
    known: ({ context, event }) =>
      (event.type === 'RENAME' || event.type === 'REMOVE' || event.type === 'ACTIVATE') &&
      (event.id === null || context.connections.some((c) => c.id === event.id)),
  },
  actions: {
    add: assign(({ context, event }) => {
      if (event.type !== 'ADD') return {};
      const parts = parseNwcUri(event.uri) as NwcParts;
      const id = connectionId(parts);
      const name = event.name?.trim() || parts.lud16 || `NWC ${context.connections.length + 1}`;
      return { connections: [...context.connections, { id, name, uri: event.uri.trim() }], active: context.active ?? id, error: undefined };
    }),
    rename: assign(({ context, event }) => {
      if (event.type !== 'RENAME' || !event.name.trim()) return {};
      return { connections: context.connections.map((c) => (c.id === event.id ? { ...c, name: event.name.trim() } : c)), error: undefined };
    }),
    remove: assign(({ context, event }) => {
      if (event.type !== 'REMOVE') return {};
      return {
        connections: context.connections.filter((c) => c.id !== event.id),
        active: activeAfterRemove(context.connections, context.active, event.id),
        error: undefined,
      };
    }),
    activate: assign(({ event }) => (event.type === 'ACTIVATE' ? { active: event.id, error: undefined } : {})),
  },
}).createMachine({
  id: 'wallet',
  context: { connections: [], active: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => {
            const connections = event.output.connections.filter((c) => parseNwcUri(c.uri) !== undefined);
            const active = connections.some((c) => c.id === event.output.active) ? event.output.active : (connections[0]?.id ?? null);
            return { connections, active };
          }),
        },
        // An unreadable list is treated as empty rather than blocking zaps with a WebLN or pasted wallet.
        onError: 'ready',
      },
    },
    ready: {
      initial: 'idle',
      on: {
        ADD: [
          { guard: 'duplicate', actions: assign({ error: 'duplicate' }) },
          { guard: 'validUri', actions: 'add', target: '.saving', reenter: true },
          { actions: assign({ error: 'invalid-uri' }) },
        ],
        RENAME: { guard: 'known', actions: 'rename', target: '.saving', reenter: true },
        REMOVE: { guard: 'known', actions: 'remove', target: '.saving', reenter: true },
        ACTIVATE: { guard: 'known', actions: 'activate', target: '.saving', reenter: true },
        RELOAD: { target: 'loading' },
      },
      states: {
        idle: {},
        // Re-entered on every change, so the newest list is what gets written last.
        saving: {
          invoke: {
            src: 'save',
            input: ({ context }) => ({ connections: context.connections, active: context.active }),
            onDone: { target: 'idle', actions: assign({ saveError: undefined }) },
            onError: { target: 'idle', actions: assign({ saveError: 'save-failed' }) },
          },
        },
      },
    },
  },
});

// ---- One payment ----

export interface ZapTarget {
  /** The LNURL-pay endpoint (already resolved from lud16/lud06). */
  lnurl: string;
  amountMsat: number;
  comment: string;
  recipient: string;
  eventId?: string;
  address?: string;
}

export interface PaymentInput {
  /** The connection that pays, or null when no wallet is set up. */
  connectionId: string | null;
  /** A bolt11 invoice to pay, or a zap whose invoice must first be fetched. */
  invoice?: string;
  zap?: ZapTarget;
}

interface PaymentContext {
  input: PaymentInput;
  invoice?: string;
  preimage?: string;
  reason?: string;
  status?: PaymentStatus;
}

const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback);

export const paymentMachine = setup({
  types: {
    context: {} as PaymentContext,
    input: {} as PaymentInput,
    output: {} as PaymentResult,
  },
  actors: {
    /** LNURL callback with a signed zap request: resolves to the bolt11 invoice. */
    fetchInvoice: fromPromise<string, ZapTarget>(async () => missing('fetchInvoice')),
    /** NWC pay_invoice (or WebLN in a tab): resolves to the preimage. */
    pay: fromPromise<string, { connectionId: string; invoice: string }>(async () => missing('pay')),
  },
  delays: { payTimeout: PAY_TIMEOUT_MS },
  guards: {
    noWallet: ({ context }) => context.input.connectionId === null,
    isZap: ({ context }) => context.input.invoice === undefined && context.input.zap !== undefined,
    hasInvoice: ({ context }) => typeof context.input.invoice === 'string' && context.input.invoice.trim() !== '',
  },
}).createMachine({
  id: 'payment',
  context: ({ input }) => ({ input }),
  initial: 'requested',
  states: {
    requested: {
      always: [
        { guard: 'noWallet', target: 'failed', actions: assign({ reason: 'no-wallet' }) },
        { guard: 'isZap', target: 'invoicing' },
        { guard: 'hasInvoice', target: 'paying', actions: assign({ invoice: ({ context }) => context.input.invoice?.trim() }) },
        { target: 'failed', actions: assign({ reason: 'no-invoice' }) },
      ],
    },
    invoicing: {
      invoke: {
        src: 'fetchInvoice',
        input: ({ context }) => context.input.zap as ZapTarget,
        onDone: { target: 'paying', actions: assign({ invoice: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ reason: ({ event }) => messageOf(event.error, 'no-invoice') }) },
      },
      after: { payTimeout: 'timeout' },
    },
    paying: {
      invoke: {
        src: 'pay',
        input: ({ context }) => ({ connectionId: context.input.connectionId as string, invoice: context.invoice as string }),
        onDone: { target: 'paid', actions: assign({ preimage: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ reason: ({ event }) => messageOf(event.error, 'failed') }) },
      },
      after: { payTimeout: 'timeout' },
    },
    paid: { type: 'final', entry: assign({ status: 'paid' }) },
    failed: { type: 'final', entry: assign({ status: 'failed' }) },
    timeout: { type: 'final', entry: assign({ status: 'timeout', reason: 'timeout' }) },
  },
  output: ({ context }) => {
    const out: PaymentResult = { status: context.status ?? 'failed' };
    if (context.invoice) out.invoice = context.invoice;
    if (context.preimage) out.preimage = context.preimage;
    if (context.reason) out.reason = context.reason;
    return out;
  },
});
