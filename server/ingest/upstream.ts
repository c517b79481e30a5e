import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import type { ServerContext } from '../context.ts';
import { startOnDemandFetch } from './fetch.ts';

const FIRST_CONNECT_LOOKBACK = 24 * 3600;
const MIN_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 300_000;
const CONNECT_TIMEOUT_MS = 30_000;
/** Events per import call: one write transaction each, and commits cost more than statements. */
export const BATCH_SIZE = 2000;
const BATCH_DELAY_MS = 200;
/** A connection that stayed up this long counts as healthy, so the next failure retries quickly again. */
const HEALTHY_AFTER_MS = 60_000;

export interface Upstream {
  /** Stops following and resolves once the last received batch is imported. */
  close(): Promise<void>;
}

/**
 * Follows each upstream relay as a firehose (S §5.1): one REQ with only `since`, resumed
 * from the newest created_at seen (minus one, never past now), saved in relay_cursors.
 * Reconnects back off from 1 s to 300 s. Missing profiles and referenced events are asked
 * for on demand from the same relays (fetch.ts).
 */
export function startUpstream(ctx: ServerContext, urls: string[]): Upstream {
  const followers = urls.map((url) => followRelay(ctx, url));
  const fetcher = startOnDemandFetch(ctx, urls);
  return {
    async close() {
      await fetcher.close();
      await Promise.all(followers.map((f) => f.close()));
    },
  };
}

function followRelay(ctx: ServerContext, url: string): Upstream {
  let ws: WebSocket | null = null;
  let stopped = false;
  let backoff = MIN_BACKOFF_MS;
  let retryTimer: NodeJS.Timeout | null = null;
  let flushTimer: NodeJS.Timeout | null = null;
  let batch: unknown[] = [];
  let newest = 0;
  let importing: Promise<void> = Promise.resolve();
  const log = (msg: string) => {
    if (ctx.config.verbose) console.log(`[upstream ${url}] ${msg}`);
  };

  async function loadCursor(): Promise<number> {
    const row = await ctx.db.get<{ since: number }>('SELECT since FROM relay_cursors WHERE url = ?', [url]);
    return row ? Number(row.since) : ctx.now() - FIRST_CONNECT_LOOKBACK;
  }

  function flush(): void {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    if (batch.length === 0) return;
    const events = batch;
    batch = [];
    // Imports run one after another, so the cursor only moves past events that are stored.
    importing = importing.then(async () => {
      try {
        await ctx.importer.importEvents(events, url);
        if (newest > 0) {
          const since = Math.min(newest - 1, ctx.now());
          await ctx.db.run('INSERT INTO relay_cursors (url, since) VALUES (?, ?) ON CONFLICT (url) DO UPDATE SET since = excluded.since', [url, since]);
        }
      } catch (err) {
        log(`import failed: ${(err as Error).message}`);
      }
    });
  }

  function onMessage(subId: string, data: WebSocket.RawData): void {
    let msg: unknown;
    try {
      msg = JSON.parse(data.toString());
    } catch {
      return;
    }
    if (!Array.isArray(msg)) return;
    if (msg[0] === 'EVENT' && msg[1] === subId && typeof msg[2] === 'object' && msg[2] !== null) {
      const createdAt = (msg[2] as { created_at?: unknown }).created_at;
      if (typeof createdAt === 'number' && Number.isFinite(createdAt) && createdAt <= ctx.now()) newest = Math.max(newest, createdAt);
      batch.push(msg[2]);
      if (batch.length >= BATCH_SIZE) flush();
      else flushTimer ??= setTimeout(flush, BATCH_DELAY_MS);
    } else if (msg[0] === 'EOSE' && msg[1] === subId) {
      flush();
      log('caught up');
    } else if (msg[0] === 'CLOSED' || msg[0] === 'NOTICE') {
      log(`${String(msg[0])}: ${String(msg[msg.length - 1])}`);
    }
  }

  function scheduleReconnect(): void {
    if (stopped || retryTimer) return;
    const delay = backoff;
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    log(`reconnecting in ${delay} ms`);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, delay);
    retryTimer.unref();
  }

  async function connect(): Promise<void> {
    if (stopped) return;
    let since: number;
    try {
      since = await loadCursor();
    } catch {
      scheduleReconnect();
      return;
    }
    if (stopped) return;
    const subId = randomBytes(15).toString('hex');
    const socket = new WebSocket(url, { handshakeTimeout: CONNECT_TIMEOUT_MS, maxPayload: 16 * 1024 * 1024 });
    ws = socket;
    let openedAt = 0;
    socket.on('open', () => {
      openedAt = Date.now();
      log(`connected, since ${since}`);
      socket.send(JSON.stringify(['REQ', subId, { since }]));
    });
    socket.on('message', (data) => onMessage(subId, data));
    socket.on('error', (err) => log(`error: ${err.message}`));
    socket.on('close', () => {
      flush();
      if (ws === socket) ws = null;
      if (openedAt && Date.now() - openedAt > HEALTHY_AFTER_MS) backoff = MIN_BACKOFF_MS;
      scheduleReconnect();
    });
  }

  void connect();
  return {
    async close() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      ws?.terminate();
      ws = null;
      flush();
      await importing;
    },
  };
}
