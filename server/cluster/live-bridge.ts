/**
 * Several server processes on one PostgreSQL: an event stored through one process must reach
 * the live subscriptions (relay REQs, cache live feeds, notifications) held by the others.
 * Each process NOTIFYs what it emits on its own `live` emitter and re-emits what the others
 * NOTIFY. SQLite has one process by construction and needs none of this.
 */
import type { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { NostrEvent } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { CHANGED_AREAS, ROWS_CHANGED, type ChangedArea } from '../cache/hot-cache.ts';

export const LIVE_CHANNEL = 'strucc_live';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; larger events travel by id. */
const MAX_INLINE_BYTES = 7800;
const RECONNECT_MS = 1000;

interface Envelope {
  /** The sending process, so a process ignores its own notifications. */
  o: string;
  e?: NostrEvent;
  id?: string;
  /** Rows of this area changed that no event announces (ROWS_CHANGED): what each process keeps of them is stale. */
  r?: ChangedArea;
}

type StoredEvent = Omit<NostrEvent, 'tags'> & { tags: string };

export interface LiveBridge {
  readonly processId: string;
  close(): Promise<void>;
}

export async function startLiveBridge(opts: {
  connectionString: string;
  live: EventEmitter;
  db: Queryable;
  verbose?: boolean;
}): Promise<LiveBridge> {
  const processId = randomBytes(8).toString('hex');
  // Events that came from a peer: re-emitted locally, never sent back out.
  const fromPeer = new WeakSet<NostrEvent>();
  let closed = false;
  let client: pg.Client | null = null;

  const deliver = async (payload: string | undefined) => {
    let env: Envelope;
    try {
      env = JSON.parse(payload ?? '') as Envelope;
    } catch {
      return;
    }
    if (env.o === processId) return;
    if (env.r !== undefined) {
      if (!closed && CHANGED_AREAS.includes(env.r)) opts.live.emit(ROWS_CHANGED, env.r, true);
      return;
    }
    let event = env.e;
    if (!event && typeof env.id === 'string') {
      const row = await opts.db
        .get<StoredEvent>('SELECT id, pubkey, created_at, kind, tags, content, sig FROM events WHERE id = ?', [env.id])
        .catch(() => undefined);
      if (row) event = { ...row, created_at: Number(row.created_at), tags: JSON.parse(row.tags) as string[][] };
    }
    if (!event || closed) return;
    fromPeer.add(event);
    try {
      opts.live.emit('event', event);
    } catch {
      // A faulty listener is the listener's problem, as with local events.
    }
  };

  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: opts.connectionString });
    c.on('notification', (msg) => {
      if (msg.channel === LIVE_CHANNEL) void deliver(msg.payload);
    });
    c.on('error', () => {
      // The listening connection dropped (PostgreSQL restart, network): listen again.
      if (client === c) client = null;
      c.end().catch(() => undefined);
      if (!closed) setTimeout(() => void connect().catch(retry), RECONNECT_MS).unref();
    });
    await c.connect();
    await c.query(`LISTEN ${LIVE_CHANNEL}`);
    if (closed) {
      await c.end();
      return;
    }
    client = c;
  };
  const retry = (err: unknown) => {
    if (opts.verbose) console.error('Élő híd: újrakapcsolódás…', err instanceof Error ? err.message : err);
    if (!closed) setTimeout(() => void connect().catch(retry), RECONNECT_MS).unref();
  };
  await connect();

  const notify = (payload: string) => {
    // Sent on the pool, not the listening client, so a slow NOTIFY never delays incoming ones.
    opts.db.run('SELECT pg_notify(?, ?)', [LIVE_CHANNEL, payload]).catch((err: unknown) => {
      if (opts.verbose) console.error('Élő híd: NOTIFY hiba:', err instanceof Error ? err.message : err);
    });
  };
  const onLocal = (event: NostrEvent) => {
    if (fromPeer.has(event)) return;
    const inline = JSON.stringify({ o: processId, e: event } satisfies Envelope);
    notify(Buffer.byteLength(inline) <= MAX_INLINE_BYTES ? inline : JSON.stringify({ o: processId, id: event.id } satisfies Envelope));
  };
  const onLocalRows = (area: ChangedArea, fromAPeer: boolean) => {
    if (!fromAPeer) notify(JSON.stringify({ o: processId, r: area } satisfies Envelope));
  };
  opts.live.on('event', onLocal);
  opts.live.on(ROWS_CHANGED, onLocalRows);

  return {
    processId,
    async close() {
      closed = true;
      opts.live.off('event', onLocal);
      opts.live.off(ROWS_CHANGED, onLocalRows);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
