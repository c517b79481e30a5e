import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import type { ServerContext } from '../context.ts';
import { startOnDemandFetch } from './fetch.ts';

const FIRST_CONNECT_LOOKBACK = 24 * 3600;
/** Events asked for per catch-up page (UPSTREAM_PAGE_LIMIT); relays commonly cap a REQ at 500 or more. */
export const DEFAULT_PAGE_LIMIT = 500;
const PAGE_TIMEOUT_MS = 60_000;
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
 * Follows each upstream relay as a firehose (S §5.1): a live REQ for what arrives from now on,
 * and a catch-up that pages back from there to the saved cursor (relay_cursors: the newest
 * created_at seen minus one, never past now). The cursor moves only once that catch-up is
 * complete, so a restart after downtime, or a crash in the middle of one, fetches the whole gap.
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
  const pageLimit = ctx.config.upstreamPageLimit ?? DEFAULT_PAGE_LIMIT;
  let ws: WebSocket | null = null;
  let stopped = false;
  let backoff = MIN_BACKOFF_MS;
  let retryTimer: NodeJS.Timeout | null = null;
  let flushTimer: NodeJS.Timeout | null = null;
  let batch: unknown[] = [];
  let newest = 0;
  /** Set once the catch-up of this connection has reached the saved cursor; only then may the cursor move. */
  let caughtUp = false;
  let importing: Promise<void> = Promise.resolve();
  const log = (msg: string) => {
    if (ctx.config.verbose) console.log(`[upstream ${url}] ${msg}`);
  };

  async function loadCursor(): Promise<number> {
    const row = await ctx.db.get<{ since: number }>('SELECT since FROM relay_cursors WHERE url = ?', [url]);
    return row ? Number(row.since) : ctx.now() - FIRST_CONNECT_LOOKBACK;
  }

  /** Imports in order; the cursor moves past what is stored, and only after a complete catch-up. */
  function enqueue(events: unknown[]): Promise<boolean> {
    const done = importing.then(async () => {
      try {
        for (let i = 0; i < events.length; i += BATCH_SIZE) await ctx.importer.importEvents(events.slice(i, i + BATCH_SIZE), url);
        // Counted once stored, so a cursor saved now never passes an event still waiting in a batch.
        for (const event of events) {
          const t = createdAt(event);
          if (t <= ctx.now()) newest = Math.max(newest, t);
        }
        await saveCursor();
        return true;
      } catch (err) {
        log(`import failed: ${(err as Error).message}`);
        return false;
      }
    });
    importing = done.then(() => undefined);
    return done;
  }

  async function saveCursor(): Promise<void> {
    if (!caughtUp || newest <= 0) return;
    const since = Math.min(newest - 1, ctx.now());
    await ctx.db.run('INSERT INTO relay_cursors (url, since) VALUES (?, ?) ON CONFLICT (url) DO UPDATE SET since = excluded.since', [url, since]);
  }

  function flush(): void {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    if (batch.length === 0) return;
    const events = batch;
    batch = [];
    void enqueue(events);
  }

  function onLive(event: unknown): void {
    batch.push(event);
    if (batch.length >= BATCH_SIZE) flush();
    else flushTimer ??= setTimeout(flush, BATCH_DELAY_MS);
  }

  /**
   * Relays answer a REQ with at most their own limit of newest events, so the gap since the cursor is
   * fetched newest first, one page per REQ, each ending (`until`) at the oldest event of the one before,
   * until a page reaches the cursor or brings nothing older. Pages overlap by that one second; the
   * importer drops the repeats.
   */
  async function catchUp(socket: WebSocket, since: number, until: number): Promise<boolean> {
    let upper = until;
    for (;;) {
      const page = await requestPage(socket, { since, until: upper, limit: pageLimit });
      // A page that never ended or could not be stored leaves the catch-up incomplete: the cursor must
      // not pass it, and a new connection (after the usual backoff) starts the catch-up again.
      if (page === null || !(await enqueue(page))) {
        socket.terminate();
        return false;
      }
      if (stopped || socket.readyState !== WebSocket.OPEN) return false;
      let oldest = Infinity;
      for (const event of page) oldest = Math.min(oldest, createdAt(event) || Infinity);
      if (page.length === 0 || oldest <= since || oldest >= upper) return true;
      upper = oldest;
    }
  }

  /** One REQ up to its EOSE; null when the socket closed first or the relay refused it. */
  function requestPage(socket: WebSocket, filter: Record<string, number>): Promise<unknown[] | null> {
    const subId = randomBytes(15).toString('hex');
    const events: unknown[] = [];
    return new Promise((resolve) => {
      // A relay that never ends the page leaves the catch-up incomplete rather than stuck forever.
      const timer = setTimeout(() => done(null), PAGE_TIMEOUT_MS);
      timer.unref();
      const done = (value: unknown[] | null) => {
        clearTimeout(timer);
        socket.off('message', onMessage);
        socket.off('close', onClose);
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(['CLOSE', subId]));
        resolve(value);
      };
      const onClose = () => done(null);
      const onMessage = (data: WebSocket.RawData) => {
        const msg = parse(data);
        if (!msg || msg[1] !== subId) return;
        if (msg[0] === 'EVENT' && typeof msg[2] === 'object' && msg[2] !== null) events.push(msg[2]);
        else if (msg[0] === 'EOSE') done(events);
        else if (msg[0] === 'CLOSED') {
          log(`CLOSED: ${String(msg[2])}`);
          done(null);
        }
      };
      socket.on('message', onMessage);
      socket.on('close', onClose);
      socket.send(JSON.stringify(['REQ', subId, filter]));
    });
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
    const liveId = randomBytes(15).toString('hex');
    const socket = new WebSocket(url, { handshakeTimeout: CONNECT_TIMEOUT_MS, maxPayload: 16 * 1024 * 1024 });
    ws = socket;
    caughtUp = false;
    let openedAt = 0;
    socket.on('open', () => {
      openedAt = Date.now();
      const start = ctx.now();
      log(`connected, since ${since}`);
      // Live from the cursor, not from now: an event created a little before it reaches the relay is
      // still new to us. limit 0 asks for no stored events (the pages fetch those); a relay that
      // ignores it sends some twice, which the importer drops.
      socket.send(JSON.stringify(['REQ', liveId, { since, limit: 0 }]));
      void catchUp(socket, since, start).then(async (complete) => {
        // A catch-up of a connection that has since been replaced says nothing about the new one's gap.
        if (!complete || ws !== socket) return;
        caughtUp = true;
        log('caught up');
        await importing;
        await saveCursor().catch((err: unknown) => log(`cursor not saved: ${(err as Error).message}`));
      });
    });
    socket.on('message', (data) => {
      const msg = parse(data);
      if (!msg || msg[1] !== liveId) {
        if (msg && msg[0] === 'NOTICE') log(`NOTICE: ${String(msg[1])}`);
        return;
      }
      if (msg[0] === 'EVENT' && typeof msg[2] === 'object' && msg[2] !== null) onLive(msg[2]);
      else if (msg[0] === 'EOSE') flush();
      else if (msg[0] === 'CLOSED') log(`CLOSED: ${String(msg[2])}`);
    });
    socket.on('error', (err) => log(`error: ${err.message}`));
    socket.on('close', () => {
      flush();
      caughtUp = false;
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

/** created_at of an event as received, 0 when it has none. */
function createdAt(event: unknown): number {
  const t = (event as { created_at?: unknown }).created_at;
  return typeof t === 'number' && Number.isFinite(t) ? t : 0;
}

function parse(data: WebSocket.RawData): unknown[] | null {
  try {
    const msg = JSON.parse(data.toString()) as unknown;
    return Array.isArray(msg) ? msg : null;
  } catch {
    return null;
  }
}
