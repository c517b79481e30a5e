/**
 * One cache-protocol websocket (path /v1). Messages are handled strictly one after another,
 * so each reply goes out whole and in request order; nothing a client sends can throw out
 * of here or take the socket down, except exceeding the subscription cap.
 */
import type WebSocket from 'ws';
import type { NostrEvent, ServerContext } from '../context.ts';
import { Args, CommandError, isHex64 } from './args.ts';
import type { CacheObject } from './data.ts';
import { MAX_FRAME_BYTES, parseCacheFilter, parseClientMessage, refuseUnread, Writer, type Filter } from './framing.ts';
import { ASYNC_COMMANDS, AsyncHub, counted, type AsyncSubscription } from './async.ts';
import { livePush, runPlainFilter, subscribeLive } from './plain.ts';
import { COMMANDS, commandEnv, PARTIAL_ON_TIMEOUT, type ConnectionInfo } from './registry.ts';
import { CacheKind } from '../../core/kinds.ts';
import { bulkDecorations, profileAuthors } from '../membership/legend.ts';

const MAX_SUBSCRIPTIONS = 200;
const COMMAND_BUDGET_MS = 10_000;

class Timeout extends Error {}

interface Subscription {
  filters: Filter[];
  live?: { idsonly: boolean };
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

/**
 * Every reply that carries profiles also carries those people's membership looks (legend
 * customization and cohort, spec "legendCustomization, memberCohortInfo"), one query per reply,
 * so a feed's cards never ask per author. Membership commands add their own and are left alone.
 */
export async function withMembership(ctx: ServerContext, objects: CacheObject[]): Promise<CacheObject[]> {
  if (objects.some((o) => o.kind === CacheKind.MEMBERSHIP_COHORTS)) return objects;
  const authors = profileAuthors(objects);
  if (!authors.length) return objects;
  return [...objects, ...(await bulkDecorations(ctx, authors))];
}

class CacheConnection {
  private readonly writer: Writer;
  private readonly subs = new Map<string, Subscription>();
  private readonly info: ConnectionInfo = {};
  private queue: Promise<void> = Promise.resolve();
  /** Frames received and not yet answered; bounded so a client cannot queue work without end. */
  private pending = 0;
  private closed = false;
  /** Set once we decided to hang up, so nothing more is processed while the close completes. */
  private closing = false;
  private unsubscribeLive?: () => void;
  private readonly asyncSubs: AsyncHub;

  constructor(
    private readonly ws: WebSocket,
    private readonly ctx: ServerContext,
  ) {
    this.writer = new Writer(ws);
    this.asyncSubs = new AsyncHub(
      (subid, objects, stillActive) => this.pushLater(subid, objects, stillActive),
      (err) => {
        if (ctx.config.verbose) console.error('async subscription failed:', err);
      },
    );
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
    if (this.pending >= this.ctx.config.limits.maxQueuedFrames) {
      // A dropped REQ still ends (NOTICE and EOSE under its subid), so the client's request does not hang.
      refuseUnread(this.writer, bytes, 'rate-limited: too many requests in flight');
      return;
    }
    this.pending++;
    this.queue = this.queue
      .then(() => {
        if (this.closed || this.closing) return;
        if (bytes.length > MAX_FRAME_BYTES) return refuseUnread(this.writer, bytes, 'message too big');
        return this.handle(bytes.toString('utf8'));
      })
      .catch(() => {
        // handle() answers every failure itself; this only keeps the queue alive.
      })
      .finally(() => {
        this.pending--;
      });
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.ctx.stats.cacheConnections--;
    this.subs.clear();
    this.unsubscribeLive?.();
    this.asyncSubs.clear();
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
      this.asyncSubs.remove(msg.subid);
      return;
    }
    const { subid, filters } = msg;
    // A re-used subid replaces whatever ran under it before (clients do not always CLOSE first).
    this.asyncSubs.remove(subid);
    this.subs.set(subid, { filters });
    if (this.subs.size > MAX_SUBSCRIPTIONS) {
      this.writer.notice(subid, 'too many subscriptions');
      this.closing = true;
      this.ws.close(1008, 'too many subscriptions');
      return;
    }

    const objects: CacheObject[] = [];
    const registered: { name: string; sub: AsyncSubscription }[] = [];
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
          const asyncCommand = ASYNC_COMMANDS.get(parsed.command);
          if (asyncCommand) {
            registered.push({ name: parsed.command, sub: await asyncCommand(new Args(parsed.kwargs), commandEnv(this.ctx, this.info)) });
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
      for (const { sub } of registered) sub.dispose?.();
      this.writer.notice(subid, this.reason(err));
      this.writer.eose(subid);
      return;
    }
    if (this.closed) {
      // The socket went away while the command ran; a timer registered now would never stop.
      for (const { sub } of registered) sub.dispose?.();
      return;
    }
    // Real clients send one filter per REQ; should several be async, the last one owns the subid.
    for (const { name, sub } of registered) this.asyncSubs.add(subid, counted(name, sub, this.ctx.stats.asyncSubscriptions));
    // The handshake is acknowledged with a bare text EOSE whatever the mode (S §1.3).
    if (handshake && objects.length === 0) this.writer.eose(subid);
    else await this.writer.replyOffThread(subid, objects);
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
      const objects = await withBudget(command(new Args(kwargs), commandEnv(this.ctx, this.info)));
      return await withMembership(this.ctx, objects);
    } catch (err) {
      if (err instanceof Timeout && PARTIAL_ON_TIMEOUT.has(name)) return [{ kind: CacheKind.PARTIAL_RESPONSE }];
      throw err;
    }
  }

  private reason(err: unknown): string {
    if (err instanceof CommandError) return err.message;
    if (err instanceof Timeout) return 'timeout';
    if (this.ctx.config.verbose) console.error('cache command failed:', err);
    return 'error';
  }

  /** Pushes wait for a reply being written, so they never land between its frames. */
  private pushLater(subid: string, objects: CacheObject[], stillActive: () => boolean): void {
    this.queue = this.queue
      .then(() => {
        if (this.closed || !stillActive()) return;
        for (const obj of objects) this.writer.push(subid, obj);
      })
      .catch(() => undefined);
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
