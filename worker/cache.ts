/**
 * Request multiplexing over the one cache socket every tab shares. Each request gets its own
 * subid; replies are routed back by subid. Requests survive reconnects (re-sent) and never hang
 * (timeout), because a restarting cache server must not freeze a tab.
 */
import type { CacheObject, CacheReply } from '../core/types.ts';
import { encodeClose, encodeReq, type ServerMessage } from '../core/protocol.ts';
import { REQUEST_TIMEOUT_MS } from '../core/config.ts';

export interface CacheTransport {
  /** Hands one frame to the socket machine (which queues it while disconnected). */
  send(data: string): void;
  /** Whether the socket is connected right now. */
  isConnected(): boolean;
}

export interface SubscriptionHandlers {
  onEvent(event: CacheObject): void;
  onEose?(): void;
  onNotice?(message: string): void;
}

export interface Subscription {
  readonly subid: string;
  close(): void;
}

interface Pending {
  subid: string;
  frame: string;
  /** Connection generation the frame will be (or was) delivered on; older means lost on a dropped socket. */
  generation: number;
  kind: 'request' | 'subscription';
  events: CacheObject[];
  notice?: string;
  resolve?: (reply: CacheReply) => void;
  handlers?: SubscriptionHandlers;
  timer?: ReturnType<typeof setTimeout>;
}

export interface CacheClientOptions {
  timeoutMs?: number;
  /** Prefix of subids, so that two workers sharing a server log are easy to tell apart. */
  prefix?: string;
}

export class CacheClient {
  private readonly pending = new Map<string, Pending>();
  private generation = 0;
  private counter = 0;
  private timeoutMs: number;
  private readonly prefix: string;

  constructor(
    private readonly transport: CacheTransport,
    options: CacheClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    this.prefix = options.prefix ?? 'strucc';
  }

  /** A devMode tab's shorter timeout (ClientConfig.devTimings); applies to requests sent from now on. */
  setTimeoutMs(ms: number): void {
    this.timeoutMs = ms;
  }

  /** One cache command, resolved at its EOSE, at a timeout (notice 'timeout'), never rejected. */
  request(command: string, payload?: Record<string, unknown>): Promise<CacheReply> {
    const subid = this.nextSubid(command);
    return new Promise<CacheReply>((resolve) => {
      const entry: Pending = {
        subid,
        frame: encodeReq(subid, command, payload),
        generation: 0,
        kind: 'request',
        events: [],
        resolve,
      };
      entry.timer = setTimeout(() => this.finish(entry, 'timeout'), this.timeoutMs);
      this.pending.set(subid, entry);
      this.deliver(entry);
    });
  }

  /** A long-lived subscription (net_stats, counts...): events keep flowing after EOSE until close(). */
  subscribe(command: string, payload: Record<string, unknown> | undefined, handlers: SubscriptionHandlers): Subscription {
    const subid = this.nextSubid(command);
    const entry: Pending = {
      subid,
      frame: encodeReq(subid, command, payload),
      generation: 0,
      kind: 'subscription',
      events: [],
      handlers,
    };
    this.pending.set(subid, entry);
    this.deliver(entry);
    return {
      subid,
      close: () => {
        if (this.pending.delete(subid)) this.transport.send(encodeClose(subid));
      },
    };
  }

  /** Routes frames decoded by the socket; unknown subids (late replies, the handshake) are ignored. */
  handle(messages: ServerMessage[]): void {
    for (const msg of messages) {
      const entry = this.pending.get(msg.subid);
      if (!entry) continue;
      if (entry.kind === 'subscription') {
        if (msg.type === 'EVENT') entry.handlers?.onEvent(msg.event);
        else if (msg.type === 'EOSE') entry.handlers?.onEose?.();
        else entry.handlers?.onNotice?.(msg.message);
        continue;
      }
      if (msg.type === 'EVENT') entry.events.push(msg.event);
      else if (msg.type === 'NOTICE') entry.notice = msg.message;
      else this.finish(entry, entry.notice);
    }
  }

  /**
   * Called on every transition into the connected state. Frames handed over on an earlier
   * connection died with it, so they are sent again; the server answers a repeated REQ afresh.
   */
  onConnected(): void {
    this.generation += 1;
    for (const entry of this.pending.values()) {
      if (entry.generation < this.generation) {
        // Partial replies from the dead socket would be duplicated by the fresh answer.
        entry.events = [];
        entry.notice = undefined;
        entry.generation = this.generation;
        this.transport.send(entry.frame);
      }
    }
  }

  /** Requests and subscriptions waiting for an answer; for diagnostics and tests. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Resolves every request as timed out and forgets subscriptions (worker shutdown). */
  dispose(): void {
    for (const entry of [...this.pending.values()]) {
      if (entry.kind === 'request') this.finish(entry, 'timeout');
    }
    this.pending.clear();
  }

  private deliver(entry: Pending): void {
    // A frame handed over while disconnected sits in the socket machine's queue and goes out on
    // the next connection, so it must not be re-sent by onConnected as well.
    entry.generation = this.transport.isConnected() ? this.generation : this.generation + 1;
    this.transport.send(entry.frame);
  }

  private finish(entry: Pending, notice: string | undefined): void {
    if (this.pending.get(entry.subid) !== entry) return;
    this.pending.delete(entry.subid);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    // The server keeps every REQ's subid until CLOSE (S §1.1) and drops sockets holding over 200.
    this.transport.send(encodeClose(entry.subid));
    const reply: CacheReply = { events: entry.events };
    if (notice !== undefined) reply.notice = notice;
    entry.resolve?.(reply);
  }

  private nextSubid(command: string): string {
    this.counter += 1;
    return `${this.prefix}_${command}_${this.counter}`;
  }
}
