/**
 * The wallet socket (path /wallet): the membership commands and `wallet`, framed like the cache
 * socket (REQ in; EVENT, EOSE and NOTICE out, plain text). Requests run one after another per
 * connection; the two long-lived commands (purchase monitor, rebroadcast status) push through
 * an AsyncHub until CLOSE or disconnect.
 */
import type WebSocket from 'ws';
import { Args, CommandError } from '../cache/args.ts';
import { AsyncHub, type AsyncCommand, type AsyncSubscription } from '../cache/async.ts';
import { membershipAsyncCommands, membershipCommands } from '../cache/commands/membership.ts';
import { leaderboardCommands } from '../cache/commands/leaderboards.ts';
import type { CacheObject } from '../cache/data.ts';
import { MAX_FRAME_BYTES, parseCacheFilter, parseClientMessage, refuseUnread, Writer } from '../cache/framing.ts';
import { commandEnv, type Command, type ConnectionInfo } from '../cache/registry.ts';
import type { ServerContext } from '../context.ts';
import { walletCommands } from './ops.ts';

const COMMANDS: ReadonlyMap<string, Command> = new Map([...membershipCommands, ...walletCommands, ...leaderboardCommands]);
const ASYNC: ReadonlyMap<string, AsyncCommand> = new Map(membershipAsyncCommands);
/** Requests a client may have queued before it is cut off; replies are small, so a fair client never gets near. */
const MAX_PENDING = 64;
const MAX_SUBSCRIPTIONS = 50;
const COMMAND_BUDGET_MS = 10_000;

class Timeout extends Error {}

function withBudget<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), COMMAND_BUDGET_MS);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

function toBuffer(data: WebSocket.RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

export function handleWalletConnection(ws: WebSocket, ctx: ServerContext): void {
  const writer = new Writer(ws);
  const conn: ConnectionInfo = { localPort: (ws as unknown as { _socket?: { localPort?: number } })._socket?.localPort };
  let closed = false;
  let queue: Promise<void> = Promise.resolve();
  let pending = 0;
  const hub = new AsyncHub(
    (subid, objects, stillActive) => {
      // Pushes queue behind any reply being written, so frames never interleave.
      queue = queue
        .then(() => {
          if (!closed && stillActive()) for (const o of objects) writer.push(subid, o);
        })
        .catch(() => undefined);
    },
    (err) => {
      if (ctx.config.verbose) console.error('Pénztárca-feliratkozási hiba:', err);
    },
  );

  async function handle(text: string): Promise<void> {
    const msg = parseClientMessage(text);
    if (msg.type === 'bad') {
      writer.notice(msg.subid, msg.reason);
      if (msg.subid !== undefined) writer.eose(msg.subid);
      return;
    }
    if (msg.type === 'close') {
      hub.remove(msg.subid);
      return;
    }
    const { subid } = msg;
    hub.remove(subid);
    const out: CacheObject[] = [];
    let sub: AsyncSubscription | undefined;
    try {
      for (const filter of msg.filters) {
        const parsed = parseCacheFilter(filter);
        if ('error' in parsed) throw new CommandError(parsed.error);
        const env = commandEnv(ctx, conn, COMMANDS);
        const asyncCommand = ASYNC.get(parsed.command);
        if (asyncCommand) {
          if (hub.size >= MAX_SUBSCRIPTIONS) throw new CommandError('too many subscriptions');
          sub?.dispose?.();
          sub = await withBudget(asyncCommand(new Args(parsed.kwargs), env));
          continue;
        }
        const command = COMMANDS.get(parsed.command);
        if (!command) throw new CommandError('unknown api request');
        out.push(...(await withBudget(command(new Args(parsed.kwargs), env))));
      }
    } catch (err) {
      sub?.dispose?.();
      if (!(err instanceof CommandError) && !(err instanceof Timeout) && ctx.config.verbose) console.error('Pénztárca-parancs hiba:', err);
      writer.notice(subid, err instanceof CommandError ? err.message : err instanceof Timeout ? 'timeout' : 'error');
      writer.eose(subid);
      return;
    }
    if (closed) {
      sub?.dispose?.();
      return;
    }
    if (sub) hub.add(subid, sub);
    writer.reply(subid, out);
  }

  ws.on('message', (data) => {
    if (closed) return;
    if (pending >= MAX_PENDING) {
      writer.notice(undefined, 'too many pending requests');
      ws.close(1008, 'too many pending requests');
      return;
    }
    pending++;
    const bytes = toBuffer(data);
    queue = queue
      .then(() => {
        if (closed) return;
        if (bytes.length > MAX_FRAME_BYTES) return refuseUnread(writer, bytes, 'message too big');
        return handle(bytes.toString('utf8'));
      })
      .catch(() => undefined)
      .finally(() => {
        pending--;
      });
  });
  ws.on('error', () => {
    // 'close' follows every error.
  });
  ws.on('close', () => {
    closed = true;
    hub.clear();
  });
}
