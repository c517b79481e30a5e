/**
 * On-demand fetching of missing data from the upstream relays (S §5.1): profiles and contact
 * lists (kinds 0 and 3) of authors we hold no profile for, and events that new posts name in
 * `e` tags but we do not have. Each pubkey or id is asked for at most once per 60 s, at most
 * one round runs at a time, and every queue is capped, so a firehose cannot make it unbounded.
 */
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import type { NostrEvent, ServerContext } from '../context.ts';
import { POST_KINDS } from './kinds.ts';
import { isHex64 } from './verify.ts';

export interface FetchOptions {
  /** Time between rounds; a round only runs when something is missing. */
  intervalMs?: number;
  /** How long one relay may take to answer a round. */
  timeoutMs?: number;
}

/** S §5.1: each filter at most once per 60 s. */
export const REFETCH_AFTER_MS = 60_000;
const MAX_CANDIDATES = 5_000;
/** Authors and ids per filter; a relay answers a few hundred events per round at most. */
const MAX_PER_FILTER = 100;
const MAX_EVENTS_PER_ROUND = 2_000;
const MAX_THROTTLE_ENTRIES = 50_000;
const LOOKUP_CHUNK = 500;

export interface OnDemandFetcher {
  /** Stops the timer and waits for a round in progress to finish. */
  close(): Promise<void>;
}

export function startOnDemandFetch(ctx: ServerContext, urls: string[], opts: FetchOptions = {}): OnDemandFetcher {
  const intervalMs = opts.intervalMs ?? 1_000;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const authors = new Set<string>();
  const ids = new Set<string>();
  /** When each "p:<pubkey>" or "e:<id>" was last asked for. */
  const asked = new Map<string, number>();
  let round: Promise<void> | null = null;
  let stopped = false;
  const log = (msg: string) => {
    if (ctx.config.verbose) console.log(`[fetch] ${msg}`);
  };

  const onEvent = (event: NostrEvent) => {
    if (authors.size < MAX_CANDIDATES) authors.add(event.pubkey);
    if (!POST_KINDS.has(event.kind)) return;
    for (const t of event.tags) if (t[0] === 'e' && isHex64(t[1]) && ids.size < MAX_CANDIDATES) ids.add(t[1]);
  };
  ctx.live.on('event', onEvent);

  /** The candidates not asked for in the last 60 s, minus those the database already has. */
  async function missing(candidates: Set<string>, prefix: string, sql: (marks: string) => string): Promise<string[]> {
    const now = Date.now();
    const fresh = [...candidates].filter((c) => now - (asked.get(prefix + c) ?? -Infinity) >= REFETCH_AFTER_MS);
    candidates.clear();
    const have = new Set<string>();
    for (let i = 0; i < fresh.length; i += LOOKUP_CHUNK) {
      const part = fresh.slice(i, i + LOOKUP_CHUNK);
      const rows = await ctx.db.all<{ k: string }>(sql(part.map(() => '?').join(', ')), part);
      for (const r of rows) have.add(r.k);
    }
    return fresh.filter((c) => !have.has(c)).slice(0, MAX_PER_FILTER);
  }

  async function runRound(): Promise<void> {
    const pks = await missing(authors, 'p:', (m) => `SELECT pubkey AS k FROM replaceable WHERE kind = 0 AND d = '' AND pubkey IN (${m})`);
    const eids = await missing(ids, 'e:', (m) => `SELECT id AS k FROM events WHERE id IN (${m})`);
    if (pks.length === 0 && eids.length === 0) return;
    const now = Date.now();
    for (const pk of pks) asked.set(`p:${pk}`, now);
    for (const id of eids) asked.set(`e:${id}`, now);
    if (asked.size > MAX_THROTTLE_ENTRIES) {
      for (const [k, at] of asked) if (now - at >= REFETCH_AFTER_MS) asked.delete(k);
    }
    const filters: Record<string, unknown>[] = [];
    if (pks.length > 0) filters.push({ kinds: [0, 3], authors: pks });
    if (eids.length > 0) filters.push({ ids: eids });
    log(`asking ${urls.length} relay(s) for ${pks.length} profile(s) and ${eids.length} event(s)`);
    await Promise.all(
      urls.map(async (url) => {
        const events = await fetchFrom(url, filters, timeoutMs);
        if (events.length > 0 && !stopped) await ctx.importer.importEvents(events, url);
      }),
    );
  }

  const timer = setInterval(() => {
    if (round || stopped || (authors.size === 0 && ids.size === 0)) return;
    round = runRound()
      .catch((err: unknown) => log(`round failed: ${(err as Error).message}`))
      .finally(() => {
        round = null;
      });
  }, intervalMs);
  timer.unref();

  return {
    async close() {
      stopped = true;
      clearInterval(timer);
      ctx.live.off('event', onEvent);
      await round;
    },
  };
}

/** One REQ with the given filters; resolves with what arrived before EOSE, a close or the time limit. */
export function fetchFrom(url: string, filters: Record<string, unknown>[], timeoutMs: number): Promise<unknown[]> {
  return new Promise((resolve) => {
    const events: unknown[] = [];
    const subId = randomBytes(15).toString('hex');
    let ws: WebSocket;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(['CLOSE', subId]));
      ws.close();
      // A relay that never completes the closing handshake must not keep the socket alive.
      setTimeout(() => ws.terminate(), 1_000).unref();
      resolve(events);
    };
    const timer = setTimeout(finish, timeoutMs);
    try {
      ws = new WebSocket(url, { handshakeTimeout: timeoutMs, maxPayload: 16 * 1024 * 1024 });
    } catch {
      clearTimeout(timer);
      resolve(events);
      return;
    }
    ws.on('open', () => ws.send(JSON.stringify(['REQ', subId, ...filters])));
    ws.on('message', (data) => {
      let msg: unknown;
      try {
        msg = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (!Array.isArray(msg) || msg[1] !== subId) return;
      if (msg[0] === 'EVENT' && typeof msg[2] === 'object' && msg[2] !== null) {
        events.push(msg[2]);
        if (events.length >= MAX_EVENTS_PER_ROUND) finish();
      } else if (msg[0] === 'EOSE' || msg[0] === 'CLOSED') finish();
    });
    ws.on('error', finish);
    ws.on('close', finish);
  });
}
