/**
 * Publishing one event (spec §4 "Publishing"). Pure: signing, the relay sends, the cache-server
 * proxy and the import are actors the worker provides. One machine per publish; its output is
 * the PublishResult the tab turns into a §8 toast.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import { PROXY_PUBLISH_TIMEOUT_MS, PUBLISH_TIMEOUT_MS } from '../core/config.ts';
import type { NostrEvent, PublishOutcome, PublishResult, UnsignedEvent } from '../core/types.ts';

export const REASON_TIMEOUT = 'timeout';
export const REASON_FAILED = 'failed';
export const REASON_REJECTED = 'Failed to publish note';
export const REASON_NO_CONFIRMATION = 'No publish confirmation';
/** Reasons not tied to one relay sit under this key. */
export const GENERAL = '*';
export const REASON_NO_RELAYS = 'no relays connected';
export const REASON_NOT_SIGNED = 'event_not_signed';
/** The import only speeds up feeds; a slow or asleep cache socket must not hold back the result. */
export const IMPORT_WAIT_MS = 4000;

/** What one relay answered; `message` is the relay's OK text, or one of the REASON_* above. */
export interface RelayAnswer {
  relay: string;
  ok: boolean;
  message: string;
}

export type RelayAnswerEvent = { type: 'RELAY.ANSWER' } & RelayAnswer;

export interface SendInput {
  event: NostrEvent;
  relays: string[];
}

export interface PublishInput {
  event: NostrEvent | UnsignedEvent;
  /** Write-enabled relays to send to (or, when proxying, for the cache server to send to). */
  relays: string[];
  /** Whether at least one of `relays` is connected now; when not, no send is tried. */
  anyConnected: boolean;
  proxy: boolean;
}

interface PublishContext {
  input: PublishInput;
  event?: NostrEvent;
  accepted: string[];
  reasons: Record<string, string>;
  outcome?: PublishOutcome;
}

function missing(name: string): never {
  throw new Error(`publish: the ${name} actor must be provided with machine.provide()`);
}

/** The relay's OK message when it gave one; an empty rejection gets the spec's generic text. */
export function reasonOf(answer: RelayAnswer): string {
  return answer.message.trim() === '' ? REASON_REJECTED : answer.message;
}

export const publishMachine = setup({
  types: {
    context: {} as PublishContext,
    events: {} as RelayAnswerEvent,
    input: {} as PublishInput,
    output: {} as PublishResult,
  },
  actors: {
    /** Verifies a signed event or signs a template; rejects with the §8 code as the message. */
    sign: fromPromise<NostrEvent, NostrEvent | UnsignedEvent>(async () => missing('sign')),
    /** Sends to every relay and reports each answer as RELAY.ANSWER (relays never answering are timed out here); sends still open when the publish settles should go on to their relays. */
    send: fromCallback<RelayAnswerEvent, SendInput>(() => missing('send')),
    /** broadcast_events through the cache socket: one answer per relay that reported back. */
    proxy: fromPromise<RelayAnswer[], SendInput>(async () => missing('proxy')),
    importEvent: fromPromise<unknown, NostrEvent>(async () => missing('importEvent')),
  },
  delays: {
    publishTimeout: PUBLISH_TIMEOUT_MS,
    proxyTimeout: PROXY_PUBLISH_TIMEOUT_MS,
    importWait: IMPORT_WAIT_MS,
  },
  guards: {
    noRelays: ({ context }) => context.input.relays.length === 0 || (!context.input.proxy && !context.input.anyConnected),
    proxied: ({ context }) => context.input.proxy,
    allAnswered: ({ context }) => context.input.relays.every((r) => context.accepted.includes(r) || r in context.reasons),
    anyAccepted: ({ context }) => context.accepted.length > 0,
  },
  actions: {
    record: assign(({ context, event }) => {
      if (!context.input.relays.includes(event.relay) || context.accepted.includes(event.relay) || event.relay in context.reasons) return {};
      if (event.ok) return { accepted: [...context.accepted, event.relay] };
      return { reasons: { ...context.reasons, [event.relay]: reasonOf(event) } };
    }),
    /** Relays still silent when the wait ends get `reason`. */
    fillMissing: assign(({ context }, reason: string) => {
      const reasons = { ...context.reasons };
      for (const r of context.input.relays) if (!context.accepted.includes(r) && !(r in reasons)) reasons[r] = reason;
      return { reasons };
    }),
  },
}).createMachine({
  id: 'publish',
  context: ({ input }) => ({ input, accepted: [], reasons: {} }),
  initial: 'routing',
  states: {
    // Checked before signing so an extension is not asked to sign a note that cannot go anywhere.
    routing: {
      always: [
        { guard: 'noRelays', target: 'failed', actions: assign({ outcome: 'no-relays', reasons: { [GENERAL]: REASON_NO_RELAYS } }) },
        { target: 'signing' },
      ],
    },
    signing: {
      invoke: {
        src: 'sign',
        input: ({ context }) => context.input.event,
        onDone: [
          { guard: 'proxied', target: 'proxying', actions: assign({ event: ({ event }) => event.output }) },
          { target: 'sending', actions: assign({ event: ({ event }) => event.output }) },
        ],
        onError: {
          target: 'failed',
          actions: assign({
            outcome: 'not-signed',
            reasons: ({ event }) => ({ [GENERAL]: event.error instanceof Error && event.error.message ? event.error.message : REASON_NOT_SIGNED }),
          }),
        },
      },
    },
    sending: {
      invoke: {
        src: 'send',
        input: ({ context }) => ({ event: context.event as NostrEvent, relays: context.input.relays }),
      },
      after: { publishTimeout: { target: 'settled', actions: { type: 'fillMissing', params: REASON_TIMEOUT } } },
      initial: 'waiting',
      states: {
        waiting: {
          on: { 'RELAY.ANSWER': { actions: 'record', target: 'checking' } },
        },
        // Guards run before actions, so the answer just recorded is looked at one step later. The first
        // relay that accepts settles the publish (spec: it succeeds if at least one relay accepts); the
        // send actor's cleanup leaves the others their per-relay time.
        checking: {
          always: [{ guard: 'anyAccepted', target: '#publish.settled' }, { guard: 'allAnswered', target: '#publish.settled' }, { target: 'waiting' }],
        },
      },
    },
    proxying: {
      invoke: {
        src: 'proxy',
        input: ({ context }) => ({ event: context.event as NostrEvent, relays: context.input.relays }),
        onDone: {
          target: 'settled',
          actions: [
            assign(({ context, event }) => {
              const accepted: string[] = [];
              const reasons: Record<string, string> = {};
              for (const answer of event.output) {
                if (!context.input.relays.includes(answer.relay)) continue;
                if (answer.ok) accepted.push(answer.relay);
                else reasons[answer.relay] = reasonOf(answer);
              }
              return { accepted, reasons };
            }),
            { type: 'fillMissing', params: REASON_NO_CONFIRMATION },
          ],
        },
        onError: { target: 'settled', actions: { type: 'fillMissing', params: REASON_FAILED } },
      },
      after: { proxyTimeout: { target: 'settled', actions: { type: 'fillMissing', params: REASON_TIMEOUT } } },
    },
    settled: {
      always: [
        { guard: 'anyAccepted', target: 'importing' },
        {
          target: 'failed',
          actions: assign({
            outcome: ({ context }) => (Object.values(context.reasons).every((r) => r === REASON_TIMEOUT) ? 'no-confirmation' : 'failed'),
          }),
        },
      ],
    },
    // The cache server learns of the note at once, so feeds show it before its relays are crawled.
    importing: {
      invoke: {
        src: 'importEvent',
        input: ({ context }) => context.event as NostrEvent,
        onDone: 'succeeded',
        // A failed import only delays the note in feeds; the publish itself succeeded.
        onError: 'succeeded',
      },
      after: { importWait: 'succeeded' },
    },
    succeeded: { type: 'final', entry: assign({ outcome: 'published' }) },
    failed: { type: 'final' },
  },
  output: ({ context }) => {
    const result: PublishResult = { success: context.outcome === 'published', reasons: context.reasons, outcome: context.outcome ?? 'failed' };
    if (context.event) result.event = context.event;
    return result;
  },
});
