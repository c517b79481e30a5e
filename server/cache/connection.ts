/**
 * One cache-protocol websocket (path /v1). Messages are handled strictly one after another,
 * so each reply goes out whole and in request order; nothing a client sends can throw out
 * of here or take the socket down, except exceeding the subscription cap.
 */
import type WebSocket from 'ws';
import type { NostrEvent, ServerContext } from '../context.ts';
import { Args, CommandError, isHex64 } from './args.ts';
import type { CacheObject } from './data.ts';
import { MAX_FRAME_BYTES, parseCacheFilter, parseClientMessage, Writer, type Filter } from './framing.ts';
import { netStats } from './netstats.ts';
import { livePush, runPlainFilter, subscribeLive } from './plain.ts';
import { COMMANDS, PARTIAL_ON_TIMEOUT, type ConnectionInfo } from './registry.ts';

const MAX_SUBSCRIPTIONS = 200;
const COMMAND_BUDGET_MS = 10_000;
const KIND_PARTIAL_RESPONSE = 10000123;
/** S §1.5: long-lived subscriptions are walked five times a second. */
const PUSH_INTERVAL_MS = 200;

class Timeout extends Error {}

interface Subscription {
  filters: Filter[];
  live?: { idsonly: boolean };
  /** Registered by `net_stats`: pushed on every tick until CLOSE. */
  netStats?: boolean;
}

function toText(data: WebSocket.RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

function withBudget<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), COMMAND_BUDGET_MS);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

class CacheConnection {
  private readonly writer: Writer;
  private readonly subs = new Map<string, Subscription>();
  private readonly info: ConnectionInfo = {};
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  /** Set once we decided to hang up, so nothing more is processed while the close completes. */
  private closing = false;
  private unsubscribeLive?: () => void;
  private pushTimer?: NodeJS.Timeout;
  private pushing = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly ctx: ServerContext,
  ) {
    this.writer = new Writer(ws);
    // The socket object keeps its net.Socket privately; its local port is the one clients reached.
    const socket = (ws as unknown as { _socket?: { localPort?: number } })._socket;
    this.info.localPort = socket?.localPort;
    ctx.stats.cacheConnections++;
    ctx.stats.cacheConnectionsTotal++;
    ws.on('message', (data) => this.enqueue(data));
    ws.on('close', () => this.onClose());
    ws.on('error', () => {
      // 'close' follows every error; counters are settled there.
    });
  }

  private enqueue(data: WebSocket.RawData): void {
    if (this.closed || this.closing) return;
    const bytes = toText(data);
    this.queue = this.queue
      .then(() => {
        if (this.closed || this.closing) return;
        if (bytes.length > MAX_FRAME_BYTES) return this.writer.notice(undefined, 'message too big');
        return this.handle(bytes.toString('utf8'));
      })
      .catch(() => {
        // handle() answers every failure itself; this only keeps the queue alive.
      });
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.ctx.stats.cacheConnections--;
    this.subs.clear();
    this.unsubscribeLive?.();
    clearInterval(this.pushTimer);
  }

  private async handle(text: string): Promise<void> {
    const msg = parseClientMessage(text);
    if (msg.type === 'bad') {
      this.writer.notice(msg.subid, msg.reason);
      if (msg.subid !== undefined) this.writer.eose(msg.subid);
      return;
    }
    if (msg.type === 'close') {
      this.subs.delete(msg.subid);
      return;
    }
    const { subid, filters } = msg;
    this.subs.set(subid, { filters });
    if (this.subs.size > MAX_SUBSCRIPTIONS) {
      this.writer.notice(subid, 'too many subscriptions');
      this.closing = true;
      this.ws.close(1008, 'too many subscriptions');
      return;
    }

    const objects: CacheObject[] = [];
    let handshake = false;
    try {
      for (const filter of filters) {
        if ('cache' in filter) {
          const parsed = parseCacheFilter(filter);
          if ('error' in parsed) throw new CommandError(parsed.error);
          if (parsed.command === 'set_primal_protocol') {
            handshake = true;
            this.setProtocol(parsed.kwargs);
            continue;
          }
          if (parsed.command === 'net_stats') {
            this.startNetStats(subid);
            continue;
          }
          objects.push(...(await this.runCommand(parsed.command, parsed.kwargs)));
        } else {
          const plain = await withBudget(runPlainFilter(filter, this.ctx));
          if (plain.delegate) objects.push(...(await this.runCommand(plain.delegate.command, plain.delegate.kwargs)));
          objects.push(...plain.objects);
          if (plain.live) this.makeLive(subid, plain.live);
        }
      }
    } catch (err) {
      this.writer.notice(subid, this.reason(err));
      this.writer.eose(subid);
      return;
    }
    // The handshake is acknowledged with a bare text EOSE whatever the mode (S §1.3).
    if (handshake && objects.length === 0) this.writer.eose(subid);
    else this.writer.reply(subid, objects);
  }

  private setProtocol(kwargs: Record<string, unknown>): void {
    const compression = kwargs.compression;
    if (compression !== undefined && compression !== null && typeof compression !== 'string') {
      throw new CommandError('invalid compression');
    }
    this.writer.compress = compression === 'zlib';
  }

  private async runCommand(name: string, kwargs: Record<string, unknown>): Promise<CacheObject[]> {
    const command = COMMANDS.get(name);
    if (!command) throw new CommandError('unknown api request');
    if (this.info.userPubkey === undefined && isHex64(kwargs.user_pubkey)) {
      this.info.userPubkey = kwargs.user_pubkey.toLowerCase();
    }
    try {
      return await withBudget(command(new Args(kwargs), { ctx: this.ctx, conn: this.info }));
    } catch (err) {
      if (err instanceof Timeout && PARTIAL_ON_TIMEOUT.has(name)) return [{ kind: KIND_PARTIAL_RESPONSE }];
      throw err;
    }
  }

  private reason(err: unknown): string {
    if (err instanceof CommandError) return err.message;
    if (err instanceof Timeout) return 'timeout';
    if (this.ctx.config.verbose) console.error('cache command failed:', err);
    return 'error';
  }

  private startNetStats(subid: string): void {
    const sub = this.subs.get(subid);
    if (sub) sub.netStats = true;
    this.pushTimer ??= setInterval(() => void this.tick(), PUSH_INTERVAL_MS);
  }

  private async tick(): Promise<void> {
    if (this.pushing || this.closed) return;
    const targets = [...this.subs].filter(([, s]) => s.netStats).map(([id]) => id);
    if (!targets.length) {
      clearInterval(this.pushTimer);
      this.pushTimer = undefined;
      return;
    }
    this.pushing = true;
    try {
      const stats = await netStats(this.ctx);
      // Pushes wait for a reply being written, so they never land between its frames.
      this.queue = this.queue.then(() => {
        for (const id of targets) if (this.subs.get(id)?.netStats) this.writer.push(id, stats);
      }).catch(() => undefined);
    } catch (err) {
      if (this.ctx.config.verbose) console.error('net_stats failed:', err);
    } finally {
      this.pushing = false;
    }
  }

  private makeLive(subid: string, live: { idsonly: boolean }): void {
    const sub = this.subs.get(subid);
    if (sub) sub.live = live;
    this.unsubscribeLive ??= subscribeLive(this.ctx, (ev: NostrEvent) => {
      if (this.closed) return;
      for (const [id, s] of this.subs) if (s.live) this.writer.push(id, livePush(ev, s.live.idsonly));
    });
  }
}

export function handleCacheConnection(ws: WebSocket, ctx: ServerContext): void {
  try {
    new CacheConnection(ws, ctx);
  } catch (err) {
    if (ctx.config.verbose) console.error('cache connection setup failed:', err);
  }
}
