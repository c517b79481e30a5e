/**
 * One ecash operation of the wallet (issue 17): receiving a token (swapped at its mint into fresh
 * proofs), sending (a token of an amount cut from our proofs) and melting (paying a lightning
 * invoice: a fee quote first, the person confirms, then the mint pays and returns change). Pure:
 * the mint calls are actors the worker provides (worker/ecash.ts), tests give fakes. Failures are
 * sorted into kinds a page can explain: already spent, not enough funds, the mint refused or
 * answered badly, or the network.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { EcashFailure, MeltQuoteInfo } from '../core/types.ts';

export type { EcashFailure, MeltQuoteInfo };

export interface ReceiveResult {
  amount: number;
  mint: string;
}
export interface SendResult {
  token: string;
  amount: number;
}
export interface MeltResult {
  preimage: string;
  change: number;
}

export interface EcashContext {
  token?: string;
  mint?: string;
  amount?: number;
  invoice?: string;
  received?: ReceiveResult;
  sent?: SendResult;
  quote?: MeltQuoteInfo;
  melted?: MeltResult;
  failure?: EcashFailure;
  message?: string;
}

export type EcashEvent =
  | { type: 'RECEIVE'; token: string }
  | { type: 'SEND'; mint: string; amount: number }
  | { type: 'MELT'; invoice: string; mint?: string }
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' }
  | { type: 'RETRY' }
  | { type: 'RESET' };

/** An error as the worker's actors throw it: the message, and `kind` when they could tell. */
export class EcashError extends Error {
  constructor(
    readonly kind: EcashFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Sorts any error of cashu-ts or the mint into a kind (NUT-00 code 11001 = already spent). */
export function failureOf(err: unknown): { failure: EcashFailure; message: string } {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof EcashError) return { failure: err.kind, message };
  const code = (err as { code?: unknown } | null)?.code;
  const name = (err as { name?: unknown } | null)?.name;
  if (code === 11001 || /already spent|beváltották/i.test(message)) return { failure: 'spent', message };
  if (/Not enough funds|nincs elég|Nem elég/i.test(message)) return { failure: 'funds', message };
  if (name === 'NetworkError' || /Failed to fetch|NetworkError|fetch failed|ECONNREFUSED/i.test(message)) return { failure: 'network', message };
  return { failure: 'mint', message };
}

const missing = (what: string): never => {
  throw new Error(`ecash actor not provided: ${what}`);
};

export const ecashMachine = setup({
  types: { context: {} as EcashContext, events: {} as EcashEvent },
  actors: {
    /** Swaps every entry of the token at its mint; the proofs are stored only after the mint signed. */
    swap: fromPromise<ReceiveResult, { token: string }>(async () => missing('swap')),
    send: fromPromise<SendResult, { mint: string; amount: number }>(async () => missing('send')),
    meltQuote: fromPromise<MeltQuoteInfo, { invoice: string; mint?: string }>(async () => missing('meltQuote')),
    melt: fromPromise<MeltResult, { quote: MeltQuoteInfo; invoice: string }>(async () => missing('melt')),
  },
  actions: {
    fail: assign(({ event }) => failureOf((event as { error?: unknown }).error)),
  },
}).createMachine({
  id: 'ecash',
  context: {},
  initial: 'idle',
  states: {
    idle: {
      on: {
        RECEIVE: { target: 'swapping', actions: assign(({ event }) => ({ token: event.token.trim() })) },
        SEND: { target: 'sending', actions: assign(({ event }) => ({ mint: event.mint, amount: event.amount })) },
        MELT: { target: 'quoting', actions: assign(({ event }) => ({ invoice: event.invoice.trim(), mint: event.mint })) },
      },
    },
    swapping: {
      invoke: {
        src: 'swap',
        input: ({ context }) => ({ token: context.token ?? '' }),
        onDone: { target: 'done', actions: assign(({ event }) => ({ received: event.output })) },
        onError: { target: 'failed', actions: 'fail' },
      },
    },
    sending: {
      invoke: {
        src: 'send',
        input: ({ context }) => ({ mint: context.mint ?? '', amount: context.amount ?? 0 }),
        onDone: { target: 'done', actions: assign(({ event }) => ({ sent: event.output })) },
        onError: { target: 'failed', actions: 'fail' },
      },
    },
    quoting: {
      invoke: {
        src: 'meltQuote',
        input: ({ context }) => ({ invoice: context.invoice ?? '', mint: context.mint }),
        onDone: { target: 'confirmMelt', actions: assign(({ event }) => ({ quote: event.output })) },
        onError: { target: 'failed', actions: 'fail' },
      },
    },
    // The fee is known only now: the person sees amount + fee reserve before anything is spent.
    confirmMelt: {
      on: { CONFIRM: 'melting', CANCEL: 'cancelled' },
    },
    melting: {
      invoke: {
        src: 'melt',
        input: ({ context }) => ({ quote: context.quote as MeltQuoteInfo, invoice: context.invoice ?? '' }),
        onDone: { target: 'done', actions: assign(({ event }) => ({ melted: event.output })) },
        onError: { target: 'failed', actions: 'fail' },
      },
    },
    done: { on: { RESET: { target: 'idle', actions: assign(() => ({})) } } },
    cancelled: { on: { RESET: { target: 'idle', actions: assign(() => ({})) } } },
    failed: {
      on: {
        // Already spent stays failed: trying again cannot help.
        RETRY: [
          { guard: ({ context }) => context.failure === 'spent', target: 'failed' },
          { guard: ({ context }) => context.token !== undefined, target: 'swapping', actions: assign({ failure: undefined, message: undefined }) },
          { guard: ({ context }) => context.quote !== undefined, target: 'melting', actions: assign({ failure: undefined, message: undefined }) },
          { guard: ({ context }) => context.invoice !== undefined, target: 'quoting', actions: assign({ failure: undefined, message: undefined }) },
          { guard: ({ context }) => context.mint !== undefined, target: 'sending', actions: assign({ failure: undefined, message: undefined }) },
        ],
        RESET: { target: 'idle', actions: assign(() => ({})) },
      },
    },
  },
});
