import type { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { WebSocket, type RawData } from 'ws';
import type { ImportResult, NostrEvent, ServerContext, ServerLimits } from '../context.ts';
import { isEphemeralKind } from '../ingest/kinds.ts';
import { initVerifier, validateShape, verifySignature } from '../ingest/verify.ts';
import { headSubid } from '../cache/framing.ts';
import { overBuffered } from '../sockets.ts';
import { asksForGiftWraps, mayReceive, newChallenge, verifyAuth } from './auth.ts';
import { countEvents, type Filter, matchFilter, parseFilter, queryEvents } from './filters.ts';

export const MAX_FRAME_BYTES = 512 * 1024;
const MAX_SUB_ID = 64;
/** Live events are skipped for a client this far behind rather than buffered without bound. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
const IMPORT_BATCH = 1000;
/** EVENTs one connection may have waiting for the importer before further ones are refused. */
const MAX_PENDING_EVENTS = 1000;

interface Subscription {
  filters: Filter[];
  /** Live events that arrive while the stored ones are still being read; sent after EOSE. */
  backlog: NostrEvent[] | null;
}

interface Connection {
  ws: WebSocket;
  subs: Map<string, Subscription>;
  pendingEvents: number;
  /**
   * REQ and COUNT reads under way. Clients open their subscriptions in one burst, so the cap is the
   * subscription cap plus WS_MAX_QUEUED_FRAMES; it stops a flood of re-used ids or COUNTs.
   */
  queries: number;
  limits: ServerLimits;
  /** The NIP-42 challenge sent on connect, and the pubkeys that answered it. */
  challenge: string;
  authed: Set<string>;
  host: string | undefined;
}

/** One live listener per server, fanning out to every relay connection. */
const connectionsByEmitter = new WeakMap<EventEmitter, Set<Connection>>();

function connectionsOf(ctx: ServerContext): Set<Connection> {
  let set = connectionsByEmitter.get(ctx.live);
  if (!set) {
    const conns = new Set<Connection>();
    set = conns;
    connectionsByEmitter.set(ctx.live, conns);
    ctx.live.on('event', (event: NostrEvent) => {
      for (const conn of conns) deliver(conn, event);
    });
  }
  return set;
}

function send(ws: WebSocket, message: unknown[]): void {
  if (ws.readyState !== WebSocket.OPEN) return;
  try {
    ws.send(JSON.stringify(message));
  } catch {
    // The socket closed between the check and the send; close handling cleans up.
  }
  overBuffered(ws);
}

function deliver(conn: Connection, event: NostrEvent): void {
  if (conn.ws.readyState !== WebSocket.OPEN || conn.ws.bufferedAmount > MAX_BUFFERED_BYTES) return;
  if (!mayReceive(event, conn.authed)) return;
  for (const [id, sub] of conn.subs) {
    if (!sub.filters.some((f) => matchFilter(f, event))) continue;
    if (sub.backlog) sub.backlog.push(event);
    else send(conn.ws, ['EVENT', id, event]);
  }
}

/**
 * Gathers EVENTs from every connection into batches, so a burst of publishes costs one
 * transaction instead of one per event.
 */
const batchers = new WeakMap<ServerContext, (event: unknown) => Promise<ImportResult>>();

function importerFor(ctx: ServerContext): (event: unknown) => Promise<ImportResult> {
  let submit = batchers.get(ctx);
  if (submit) return submit;
  let queue: { event: unknown; resolve: (r: ImportResult) => void }[] = [];
  let running = false;
  const flush = async () => {
    running = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, IMPORT_BATCH);
      queue = queue.slice(IMPORT_BATCH);
      let results: ImportResult[];
      try {
        results = await ctx.importer.importEvents(batch.map((b) => b.event), 'relay');
      } catch (err) {
        results = batch.map((b) => ({ id: String((b.event as { id?: unknown }).id ?? ''), ok: false, reason: `error: ${(err as Error).message}` }));
      }
      batch.forEach((b, i) => b.resolve(results[i] ?? { id: '', ok: false, reason: 'error: no result' }));
    }
    running = false;
  };
  submit = (event: unknown) =>
    new Promise<ImportResult>((resolve) => {
      queue.push({ event, resolve });
      if (!running) setImmediate(() => void flush());
      running = true;
    });
  batchers.set(ctx, submit);
  return submit;
}

/** Serves one NIP-01 relay connection. Bad input gets NOTICE or CLOSED; nothing here throws. */
export function handleRelayConnection(ws: WebSocket, ctx: ServerContext, req?: IncomingMessage): void {
  const conn: Connection = {
    ws,
    subs: new Map(),
    pendingEvents: 0,
    queries: 0,
    limits: ctx.config.limits,
    challenge: newChallenge(),
    authed: new Set(),
    host: req?.headers.host,
  };
  const conns = connectionsOf(ctx);
  conns.add(conn);
  ctx.stats.relayConnections++;
  ctx.stats.relayConnectionsTotal++;
  let closed = false;
  const cleanup = () => {
    if (closed) return;
    closed = true;
    conns.delete(conn);
    conn.subs.clear();
    ctx.stats.relayConnections--;
  };
  ws.on('close', cleanup);
  ws.on('error', () => {
    cleanup();
    ws.terminate();
  });
  ws.on('message', (data: RawData) => {
    handleFrame(conn, ctx, data).catch((err: unknown) => send(ws, ['NOTICE', `error: ${(err as Error).message}`]));
  });
  send(ws, ['AUTH', conn.challenge]);
}

function frameBytes(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

async function handleFrame(conn: Connection, ctx: ServerContext, data: RawData): Promise<void> {
  const { ws } = conn;
  const bytes = frameBytes(data);
  if (bytes.length > MAX_FRAME_BYTES) {
    // A REQ or COUNT too big to read still gets its CLOSED, named from the frame's head.
    const subId = headSubid(bytes);
    if (subId !== undefined && subId.length <= MAX_SUB_ID) send(ws, ['CLOSED', subId, `invalid: message larger than ${MAX_FRAME_BYTES} bytes`]);
    else send(ws, ['NOTICE', `invalid: message larger than ${MAX_FRAME_BYTES} bytes`]);
    return;
  }
  let msg: unknown;
  try {
    msg = JSON.parse(bytes.toString('utf8'));
  } catch {
    send(ws, ['NOTICE', 'invalid: message is not JSON']);
    return;
  }
  if (!Array.isArray(msg) || typeof msg[0] !== 'string') {
    send(ws, ['NOTICE', 'invalid: message must be a JSON array starting with a verb']);
    return;
  }
  switch (msg[0]) {
    case 'EVENT':
      return onEvent(conn, ctx, msg[1]);
    case 'REQ':
    case 'COUNT': {
      if (conn.queries >= conn.limits.relayMaxSubscriptions + conn.limits.maxQueuedFrames) {
        const subId = typeof msg[1] === 'string' ? msg[1].slice(0, MAX_SUB_ID) : '';
        send(ws, ['CLOSED', subId, 'rate-limited: too many requests in flight']);
        return;
      }
      conn.queries++;
      try {
        return await (msg[0] === 'REQ' ? onReq(conn, ctx, msg) : onCount(conn, ctx, msg));
      } finally {
        conn.queries--;
      }
    }
    case 'AUTH':
      return onAuth(conn, ctx, msg[1]);
    case 'CLOSE':
      if (typeof msg[1] !== 'string') send(ws, ['NOTICE', 'invalid: CLOSE needs a subscription id']);
      else conn.subs.delete(msg[1]);
      return;
    default:
      send(ws, ['NOTICE', `invalid: unknown message type ${JSON.stringify(msg[0]).slice(0, 40)}`]);
  }
}

async function onEvent(conn: Connection, ctx: ServerContext, raw: unknown): Promise<void> {
  const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  if (typeof id !== 'string') {
    send(conn.ws, ['NOTICE', 'invalid: EVENT needs an event object with an id']);
    return;
  }
  const kind = (raw as { kind?: unknown }).kind;
  if (typeof kind === 'number' && isEphemeralKind(kind)) {
    // Ephemeral events (NWC requests, auth) go straight to subscribers and are never stored.
    const event = validateShape(raw);
    if (typeof event === 'string') return send(conn.ws, ['OK', id, false, `invalid: ${event}`]);
    await initVerifier();
    if (!verifySignature(event)) return send(conn.ws, ['OK', id, false, 'invalid: bad signature']);
    ctx.live.emit('event', event);
    return send(conn.ws, ['OK', id, true, '']);
  }
  if (conn.pendingEvents >= MAX_PENDING_EVENTS) {
    send(conn.ws, ['OK', id, false, 'rate-limited: too many events waiting to be stored']);
    return;
  }
  conn.pendingEvents++;
  try {
    const res = await importerFor(ctx)(raw);
    send(conn.ws, ['OK', id, res.ok, res.reason]);
  } finally {
    conn.pendingEvents--;
  }
}

async function onAuth(conn: Connection, ctx: ServerContext, raw: unknown): Promise<void> {
  const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  if (typeof id !== 'string') {
    send(conn.ws, ['NOTICE', 'invalid: AUTH needs an event object with an id']);
    return;
  }
  const result = await verifyAuth(raw, conn.challenge, conn.host, ctx.now());
  if ('reason' in result) return send(conn.ws, ['OK', id, false, result.reason]);
  conn.authed.add(result.pubkey);
  send(conn.ws, ['OK', id, true, '']);
}

/** Validates the common ["REQ"|"COUNT", subId, ...filters] shape; sends the refusal itself. */
function parseSubscription(conn: Connection, msg: unknown[]): { subId: string; filters: Filter[] } | null {
  const subId = msg[1];
  if (typeof subId !== 'string' || subId.length === 0 || subId.length > MAX_SUB_ID) {
    send(conn.ws, ['NOTICE', `invalid: subscription id must be a string of 1–${MAX_SUB_ID} characters`]);
    return null;
  }
  const rawFilters = msg.slice(2);
  const maxFilters = conn.limits.relayMaxFilters;
  if (rawFilters.length === 0) {
    send(conn.ws, ['CLOSED', subId, 'invalid: at least one filter is needed']);
    return null;
  }
  if (rawFilters.length > maxFilters) {
    send(conn.ws, ['CLOSED', subId, `blocked: at most ${maxFilters} filters per request`]);
    return null;
  }
  try {
    const filters = rawFilters.map(parseFilter);
    // A bounded LIMIT bounds how long one read can hold the event loop.
    for (const f of filters) f.limit = Math.min(f.limit, conn.limits.relayMaxLimit);
    return { subId, filters };
  } catch (err) {
    send(conn.ws, ['CLOSED', subId, `invalid: ${(err as Error).message}`]);
    return null;
  }
}

/** A filter naming no ids, authors, kinds or tags: counting it means reading the whole store. */
function isOpenFilter(f: Filter): boolean {
  return !f.ids && !f.authors && !f.kinds && f.tags.size === 0;
}

async function onReq(conn: Connection, ctx: ServerContext, msg: unknown[]): Promise<void> {
  const parsed = parseSubscription(conn, msg);
  if (!parsed) return;
  const { subId, filters } = parsed;
  if (conn.authed.size === 0 && filters.some(asksForGiftWraps)) {
    conn.subs.delete(subId);
    send(conn.ws, ['CLOSED', subId, 'auth-required: gift wraps are served only to their recipient after AUTH']);
    return;
  }
  const maxSubs = conn.limits.relayMaxSubscriptions;
  if (!conn.subs.has(subId) && conn.subs.size >= maxSubs) {
    send(conn.ws, ['CLOSED', subId, `blocked: at most ${maxSubs} open subscriptions per connection`]);
    return;
  }
  // Registered before the read so nothing stored meanwhile is missed; held back until EOSE.
  const sub: Subscription = { filters, backlog: [] };
  conn.subs.set(subId, sub);
  let events: NostrEvent[];
  try {
    events = await queryEvents(ctx.db, filters, conn.authed);
  } catch (err) {
    if (conn.subs.get(subId) === sub) conn.subs.delete(subId);
    send(conn.ws, ['CLOSED', subId, `error: ${(err as Error).message}`]);
    return;
  }
  // Closed or replaced by a newer REQ with the same id while reading.
  if (conn.subs.get(subId) !== sub) return;
  const sent = new Set<string>();
  for (const event of events) {
    if (!mayReceive(event, conn.authed)) continue;
    sent.add(event.id);
    send(conn.ws, ['EVENT', subId, event]);
  }
  send(conn.ws, ['EOSE', subId]);
  const backlog = sub.backlog ?? [];
  sub.backlog = null;
  for (const event of backlog) if (!sent.has(event.id) && mayReceive(event, conn.authed)) send(conn.ws, ['EVENT', subId, event]);
}

async function onCount(conn: Connection, ctx: ServerContext, msg: unknown[]): Promise<void> {
  const parsed = parseSubscription(conn, msg);
  if (!parsed) return;
  // A count cannot be filtered event by event, so it must name only authenticated recipients.
  const ownWraps = (f: Filter) => (f.tags.get('p') ?? []).length > 0 && (f.tags.get('p') ?? []).every((pk) => conn.authed.has(pk));
  if (parsed.filters.some((f) => asksForGiftWraps(f) && !ownWraps(f))) {
    send(conn.ws, ['CLOSED', parsed.subId, 'auth-required: gift wraps are counted only for their authenticated recipient']);
    return;
  }
  if (parsed.filters.some(isOpenFilter)) {
    send(conn.ws, ['CLOSED', parsed.subId, 'blocked: COUNT needs ids, authors, kinds or a tag in every filter']);
    return;
  }
  try {
    // Gift wraps for others are left out of every count, also of one that names no kinds.
    send(conn.ws, ['COUNT', parsed.subId, { count: await countEvents(ctx.db, parsed.filters, conn.authed) }]);
  } catch (err) {
    send(conn.ws, ['CLOSED', parsed.subId, `error: ${(err as Error).message}`]);
  }
}
