/**
 * The relay pool as the worker runs it: real sockets for machines/relay.ts, snapshots for the
 * tabs, subscriptions fanned out to every read relay, and event sends with their OK answers for
 * publishing. One instance per worker, so one socket per relay URL whatever the number of tabs.
 */
import { createActor, fromCallback, type Subscription as XSubscription } from 'xstate';
import { checkRelayUrl, parseRelayFrame, relayMachine, relayStateOf, type RelayActor, type RelayMessage, type RelaySocketFeedback, type RelaySocketInput } from '../machines/relay.ts';
import { relayOf, relayPoolMachine, relaysFromEvent, type RelayPoolActor, type SuspendReason } from '../machines/relayPool.ts';
import { REASON_FAILED, REASON_NO_CONFIRMATION, type RelayAnswer } from '../machines/publish.ts';
import type { SocketCommand } from '../machines/cacheSocket.ts';
import type { AddRelayResult, NostrEvent, RelayFilter, RelayInfo, UnsignedEvent } from '../core/types.ts';

/** NIP-42 client authentication event. */
const KIND_CLIENT_AUTH = 22242;

/** The part of the WebSocket API the relay socket uses; browsers' WebSocket and the `ws` package both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(): void;
}

export type WebSocketFactory = (url: string) => WebSocketLike;

const OPEN = 1;
const CONNECTING = 0;
const ignoreError = (): void => {};

const defaultFactory: WebSocketFactory = (url) => new WebSocket(url) as unknown as WebSocketLike;

/** The real socket behind one relay machine. Relays speak text frames only (NIP-01). */
export function relaySocketActor(factory: WebSocketFactory = defaultFactory) {
  return fromCallback<SocketCommand, RelaySocketInput>(({ input, sendBack, receive }) => {
    const report = (ev: RelaySocketFeedback) => sendBack(ev);
    let ws: WebSocketLike;
    try {
      ws = factory(input.url);
    } catch {
      // A URL the socket refuses to open counts as a refused connection, so the retry policy applies.
      const timer = setTimeout(() => report({ type: 'RELAY.CLOSED' }), 0);
      return () => clearTimeout(timer);
    }
    ws.onopen = () => report({ type: 'RELAY.OPEN' });
    ws.onclose = () => report({ type: 'RELAY.CLOSED' });
    // Errors are always followed by close, which is what the machine acts on.
    ws.onerror = ignoreError;
    ws.onmessage = (e) => {
      if (typeof e.data !== 'string') return;
      const message = parseRelayFrame(e.data);
      if (message) report({ type: 'RELAY.MESSAGE', message });
    };
    receive((cmd) => {
      // Frames for a closed socket are dropped: the machine re-sends subscriptions on reconnect, and a publish reports 'failed'.
      if (cmd.type === 'SOCKET.SEND' && ws.readyState === OPEN) ws.send(cmd.data);
    });
    return () => {
      ws.onopen = ws.onclose = ws.onmessage = null;
      // Closing a socket that is still connecting makes Node's ws emit 'error'; without a listener that error is thrown.
      ws.onerror = ignoreError;
      if (ws.readyState === OPEN || ws.readyState === CONNECTING) ws.close();
    };
  });
}

export interface RelayServiceOptions {
  socketFactory?: WebSocketFactory;
  /** Unix seconds; tests pin it. */
  now?: () => number;
}

export interface RelaySubscriptionHandlers {
  onEvent(event: NostrEvent, relay: string): void;
  onEose?(relay: string): void;
}

export class RelayService {
  readonly pool: RelayPoolActor;
  private readonly watchers = new Set<(relays: RelayInfo[]) => void>();
  private readonly childSubs = new Map<string, { actor: RelayActor; subs: XSubscription[] }>();
  private readonly handlers = new Map<string, { handlers: RelaySubscriptionHandlers; seen: Set<string> }>();
  private readonly okWaiters = new Set<(url: string, msg: Extract<RelayMessage, { type: 'OK' }>) => void>();
  private last = '';
  private scheduled = false;
  private counter = 0;
  private readonly poolSub: XSubscription;
  private authSigner: ((template: UnsignedEvent) => Promise<NostrEvent>) | undefined;
  private readonly now: () => number;

  constructor(options: RelayServiceOptions = {}) {
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
    const relay = relayMachine.provide({ actors: { socket: relaySocketActor(options.socketFactory) } });
    this.pool = createActor(relayPoolMachine.provide({ actors: { relay } }), { input: { now: options.now } });
    this.poolSub = this.pool.subscribe(() => {
      this.syncChildren();
      this.schedule();
    });
    this.pool.start();
  }

  add(url: string, flags: { read?: boolean; write?: boolean } = {}): AddRelayResult {
    const checked = checkRelayUrl(url);
    if (!checked.ok) return checked;
    this.pool.send({ type: 'ADD', url: checked.url, read: flags.read, write: flags.write });
    return checked;
  }

  remove(url: string): void {
    this.pool.send({ type: 'REMOVE', url });
  }

  /** Replaces the pool with a kind-10002 list. */
  setFromEvent(event: Pick<NostrEvent, 'tags'>): RelayInfo[] {
    this.pool.send({ type: 'SET_RELAYS', relays: relaysFromEvent(event) });
    return this.snapshot();
  }

  connectAll(): void {
    this.pool.send({ type: 'CONNECT_ALL' });
  }

  suspend(reason: SuspendReason): void {
    this.pool.send({ type: 'SUSPEND', reason });
  }

  resume(reason: SuspendReason): void {
    this.pool.send({ type: 'RESUME', reason });
  }

  snapshot(): RelayInfo[] {
    const snap = this.pool.getSnapshot();
    const out: RelayInfo[] = [];
    for (const url of snap.context.urls) {
      const child = relayOf(snap, url);
      if (!child) continue;
      const s = child.getSnapshot();
      const info: RelayInfo = { url, state: relayStateOf(s), read: s.context.read, write: s.context.write, attempts: s.context.attempts };
      if (s.context.error !== undefined) info.error = s.context.error;
      out.push(info);
    }
    return out;
  }

  /** cb gets the snapshot now and after every change; returns the function that stops watching. */
  watch(cb: (relays: RelayInfo[]) => void): () => void {
    this.watchers.add(cb);
    cb(this.snapshot());
    return () => this.watchers.delete(cb);
  }

  /** Write-enabled relays, and whether any of them is connected now. */
  writeRelays(): { relays: string[]; anyConnected: boolean } {
    const writers = this.snapshot().filter((r) => r.write);
    return { relays: writers.map((r) => r.url), anyConnected: writers.some((r) => r.state === 'connected') };
  }

  /** Sends filters to every read relay (and relays added later); events are de-duplicated by id. */
  subscribe(filters: RelayFilter[], handlers: RelaySubscriptionHandlers): { subId: string; close(): void } {
    this.counter += 1;
    const subId = `strucc-${this.counter}`;
    this.handlers.set(subId, { handlers, seen: new Set() });
    this.pool.send({ type: 'SUBSCRIBE', subId, filters });
    return {
      subId,
      close: () => {
        if (!this.handlers.delete(subId)) return;
        this.pool.send({ type: 'UNSUBSCRIBE', subId });
      },
    };
  }

  /**
   * Sends one event to one relay and reports its answer once: the relay's OK, 'failed' when the
   * relay is not connected (a first connection in progress is waited for), or 'No publish
   * confirmation' when the connection drops before the OK. Returns a cancel function.
   */
  sendEvent(url: string, event: NostrEvent, done: (answer: RelayAnswer) => void): () => void {
    const child = relayOf(this.pool.getSnapshot(), url);
    let finished = false;
    let sent = false;
    let stateSub: XSubscription | undefined;
    const finish = (ok: boolean, message: string) => {
      if (finished) return;
      finished = true;
      cancel();
      done({ relay: url, ok, message });
    };
    const onOk = (from: string, msg: Extract<RelayMessage, { type: 'OK' }>) => {
      if (from === url && msg.id === event.id) finish(msg.ok, msg.message);
    };
    const cancel = () => {
      this.okWaiters.delete(onOk);
      stateSub?.unsubscribe();
    };
    if (!child) {
      queueMicrotask(() => finish(false, REASON_FAILED));
      return cancel;
    }
    this.okWaiters.add(onOk);
    const check = () => {
      const state = relayStateOf(child.getSnapshot());
      if (state === 'connected' && !sent) {
        sent = true;
        child.send({ type: 'PUBLISH', event });
      } else if (state !== 'connected' && state !== 'connecting') {
        finish(false, sent ? REASON_NO_CONFIRMATION : REASON_FAILED);
      } else if (state === 'connecting' && sent) {
        finish(false, REASON_NO_CONFIRMATION);
      }
    };
    stateSub = child.subscribe(check);
    check();
    return cancel;
  }

  /**
   * The signer that answers NIP-42 challenges (the logged-in user's), or none. The pool
   * authenticates only when a relay refuses a request with `auth-required:` (gift wraps, NIP-17),
   * so relays that do not need to know who reads do not learn it.
   */
  setAuthSigner(signer: ((template: UnsignedEvent) => Promise<NostrEvent>) | undefined): void {
    this.authSigner = signer;
  }

  private authenticate(url: string): void {
    const child = relayOf(this.pool.getSnapshot(), url);
    const signer = this.authSigner;
    if (!child || !signer) return;
    const ctx = child.getSnapshot().context;
    const waiting = Object.values(ctx.subs).some((s) => s.waitingAuth);
    if (!waiting || ctx.challenge === undefined || ctx.authId !== undefined) return;
    const challenge = ctx.challenge;
    const template: UnsignedEvent = {
      kind: KIND_CLIENT_AUTH,
      created_at: this.now(),
      tags: [['relay', url], ['challenge', challenge]],
      content: '',
    };
    signer(template).then(
      (event) => {
        // A reconnect meanwhile brings a new challenge: this answer would be refused.
        if (child.getSnapshot().context.challenge === challenge) child.send({ type: 'AUTHENTICATE', event });
      },
      () => undefined,
    );
  }

  dispose(): void {
    this.poolSub.unsubscribe();
    for (const { subs } of this.childSubs.values()) for (const s of subs) s.unsubscribe();
    this.childSubs.clear();
    this.watchers.clear();
    this.handlers.clear();
    this.okWaiters.clear();
    this.pool.stop();
  }

  private syncChildren(): void {
    const snap = this.pool.getSnapshot();
    for (const [url, entry] of [...this.childSubs]) {
      if (relayOf(snap, url) === entry.actor) continue;
      for (const s of entry.subs) s.unsubscribe();
      this.childSubs.delete(url);
    }
    for (const url of snap.context.urls) {
      const actor = relayOf(snap, url);
      if (!actor || this.childSubs.has(url)) continue;
      const subs = [actor.subscribe(() => this.schedule()), actor.on('message', (e) => this.route(e.url, e.message))];
      this.childSubs.set(url, { actor, subs });
    }
  }

  private route(url: string, msg: RelayMessage): void {
    if (msg.type === 'AUTH' || (msg.type === 'CLOSED' && msg.message.startsWith('auth-required:'))) {
      // After the machine has taken the message in (the sub marked as waiting, the challenge kept).
      queueMicrotask(() => this.authenticate(url));
      return;
    }
    if (msg.type === 'OK') {
      for (const waiter of [...this.okWaiters]) waiter(url, msg);
      return;
    }
    if (msg.type !== 'EVENT' && msg.type !== 'EOSE') return;
    const entry = this.handlers.get(msg.subId);
    if (!entry) return;
    if (msg.type === 'EOSE') {
      entry.handlers.onEose?.(url);
      return;
    }
    if (typeof msg.event.id !== 'string' || entry.seen.has(msg.event.id)) return;
    // Bounded memory for long-lived subscriptions; a repeat after the reset is harmless to consumers keyed by id.
    if (entry.seen.size >= 10_000) entry.seen.clear();
    entry.seen.add(msg.event.id);
    entry.handlers.onEvent(msg.event, url);
  }

  /** Coalesces a burst of machine updates into one snapshot per watcher, sent only when it changed. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      const snapshot = this.snapshot();
      const key = JSON.stringify(snapshot);
      if (key === this.last) return;
      this.last = key;
      for (const cb of [...this.watchers]) cb(snapshot);
    });
  }
}
