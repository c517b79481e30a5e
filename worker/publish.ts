/**
 * Runs machines/publish.ts with the worker's real services: the signer (provided by the login
 * service), the relay pool, and the cache socket for broadcast_events and import_events.
 */
import { createActor, fromCallback, fromPromise, toPromise } from 'xstate';
import { verifyEvent } from 'nostr-tools/pure';
import { publishMachine, type RelayAnswer, type RelayAnswerEvent, type SendInput } from '../machines/publish.ts';
import type { RelayService } from './relays.ts';
import { PUBLISH_TIMEOUT_MS } from '../core/config.ts';
import type { CacheReply, NostrEvent, PublishResult, UnsignedEvent } from '../core/types.ts';
import { CacheKind } from '../core/kinds.ts';

/** Signs a template for the current account; rejects with a §8 code (sign-no-nsec, no_nostr_extension...). */
export type Signer = (template: UnsignedEvent) => Promise<NostrEvent>;

export interface PublisherOptions {
  relays: RelayService;
  request: (command: string, payload?: Record<string, unknown>) => Promise<CacheReply>;
  /** 'Proxy through the cache server' right now. */
  proxy: () => boolean;
  signer: () => Signer | undefined;
  /** Test hooks; the spec's 8000 ms and the proxy's 16 s otherwise. */
  timeoutMs?: number;
  proxyTimeoutMs?: number;
  /** How long a publish waits for a write relay that is still connecting (a new worker, a reconnect). */
  connectGraceMs?: number;
  /** Told each event once it is signed, before any relay has it (the feeds show own notes as pending). */
  onSigned?: (event: NostrEvent) => void;
}

export const CONNECT_GRACE_MS = 3000;
const CONNECT_POLL_MS = 100;

function isSigned(event: NostrEvent | UnsignedEvent): event is NostrEvent {
  const e = event as Partial<NostrEvent>;
  return typeof e.sig === 'string' && typeof e.id === 'string' && typeof e.pubkey === 'string';
}

/** Structured clone (Comlink) and JSON both drop the verification mark, so a fresh plain copy is checked. */
function checkSignature(event: NostrEvent): NostrEvent {
  const plain: NostrEvent = {
    id: event.id,
    pubkey: event.pubkey,
    created_at: event.created_at,
    kind: event.kind,
    tags: event.tags,
    content: event.content,
    sig: event.sig,
  };
  if (!verifyEvent({ ...plain })) throw new Error('event-sig-not-verified');
  return plain;
}

/** One relay's answer from a broadcast response entry, whichever of the plausible shapes it has. */
function answerOf(entry: unknown, relays: string[], index: number): RelayAnswer | undefined {
  if (Array.isArray(entry)) {
    const [first, second, third] = entry as unknown[];
    if (typeof first !== 'string') return undefined;
    // [relay, ["OK", id, ok, message]]
    if (Array.isArray(second) && second[0] === 'OK' && typeof second[2] === 'boolean') {
      return { relay: first, ok: second[2], message: typeof second[3] === 'string' ? second[3] : '' };
    }
    // [relay, ok, message]
    if (typeof second === 'boolean') return { relay: first, ok: second, message: typeof third === 'string' ? third : '' };
    // ["OK", id, ok, message], listed in the order of the relays asked
    if (first === 'OK' && typeof third === 'boolean' && relays[index] !== undefined) {
      const message = (entry as unknown[])[3];
      return { relay: relays[index], ok: third, message: typeof message === 'string' ? message : '' };
    }
    return undefined;
  }
  if (entry !== null && typeof entry === 'object') {
    const o = entry as Record<string, unknown>;
    const relay = typeof o.relay === 'string' ? o.relay : typeof o.url === 'string' ? o.url : undefined;
    const ok = typeof o.ok === 'boolean' ? o.ok : typeof o.success === 'boolean' ? o.success : undefined;
    if (relay === undefined || ok === undefined) return undefined;
    const message = typeof o.message === 'string' ? o.message : typeof o.reason === 'string' ? o.reason : '';
    return { relay, ok, message };
  }
  return undefined;
}

/**
 * The answers in a broadcast_events reply (protocol: 10000149 `[{event_id, responses:[...]}]`).
 * The shape of one response is not fixed by the protocol text, so the plausible ones are read;
 * relays with no readable answer end up as 'No publish confirmation' in the machine.
 */
export function parseBroadcastReply(reply: CacheReply, eventId: string, relays: string[]): RelayAnswer[] {
  const answers: RelayAnswer[] = [];
  for (const obj of reply.events) {
    if (obj.kind !== CacheKind.BROADCAST_RESPONSES || typeof obj.content !== 'string') continue;
    let content: unknown;
    try {
      content = JSON.parse(obj.content);
    } catch {
      continue;
    }
    const items = Array.isArray(content) ? content : [content];
    for (const item of items) {
      if (item === null || typeof item !== 'object') continue;
      const { event_id: id, responses } = item as { event_id?: unknown; responses?: unknown };
      if ((id !== undefined && id !== eventId) || !Array.isArray(responses)) continue;
      responses.forEach((r, i) => {
        const answer = answerOf(r, relays, i);
        if (answer) answers.push(answer);
      });
    }
  }
  return answers;
}

export function createPublisher(options: PublisherOptions): (event: NostrEvent | UnsignedEvent) => Promise<PublishResult> {
  const sign = fromPromise<NostrEvent, NostrEvent | UnsignedEvent>(async ({ input }) => {
    let signed: NostrEvent;
    if (isSigned(input)) signed = checkSignature(input);
    else {
      const signer = options.signer();
      if (!signer) throw new Error('event_not_signed');
      signed = checkSignature(await signer(input));
    }
    options.onSigned?.(signed);
    return signed;
  });

  const relayTimeoutMs = options.timeoutMs ?? PUBLISH_TIMEOUT_MS;
  const send = fromCallback<RelayAnswerEvent, SendInput>(({ input, sendBack }) => {
    let settled = false;
    const cancels = input.relays.map((url) =>
      options.relays.sendEvent(url, input.event, (answer) => {
        if (!settled) sendBack({ type: 'RELAY.ANSWER', ...answer });
      }),
    );
    const started = Date.now();
    // The publish settles at the first accept; a relay still connecting or answering keeps its chance
    // to get the event until the per-relay timeout, so a slow relay never delays the person.
    return () => {
      settled = true;
      setTimeout(() => {
        for (const cancel of cancels) cancel();
      }, Math.max(0, started + relayTimeoutMs - Date.now()));
    };
  });

  const proxy = fromPromise<RelayAnswer[], SendInput>(async ({ input }) => {
    const reply = await options.request('broadcast_events', { events: [input.event], relays: input.relays });
    if (reply.notice !== undefined) throw new Error(reply.notice);
    return parseBroadcastReply(reply, input.event.id, input.relays);
  });

  const importEvent = fromPromise<unknown, NostrEvent>(async ({ input }) => {
    const reply = await options.request('import_events', { events: [input] });
    if (reply.notice !== undefined) throw new Error(reply.notice);
    return reply.events;
  });

  const delays: { publishTimeout?: number; proxyTimeout?: number } = {};
  if (options.timeoutMs !== undefined) delays.publishTimeout = options.timeoutMs;
  if (options.proxyTimeoutMs !== undefined) delays.proxyTimeout = options.proxyTimeoutMs;
  const machine = publishMachine.provide({ actors: { sign, send, proxy, importEvent }, delays });

  // Right after a worker starts (or a relay drops), the write relays are still connecting: waiting a
  // moment for one turns a needless 'no relays connected' into a published note.
  const writersReady = async (): Promise<{ relays: string[]; anyConnected: boolean }> => {
    const deadline = Date.now() + (options.connectGraceMs ?? CONNECT_GRACE_MS);
    let writers = options.relays.writeRelays();
    while (!writers.anyConnected && !options.proxy() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, CONNECT_POLL_MS));
      writers = options.relays.writeRelays();
    }
    return writers;
  };

  return async (event) => {
    const { relays, anyConnected } = await writersReady();
    const actor = createActor(machine, { input: { event, relays, anyConnected, proxy: options.proxy() } });
    const result = toPromise(actor);
    actor.start();
    return result;
  };
}
