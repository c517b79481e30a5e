/**
 * Batched reads shared by the cache commands. Every lookup takes a whole set of keys and
 * issues one `IN (...)` query per chunk, so a page of N posts costs a constant number of
 * round trips rather than N.
 */
import type { NostrEvent } from '../context.ts';
import type { Queryable, SqlValue } from '../store/db.ts';
import { hasPointer } from '../ingest/kinds.ts';
import { CACHED_REPLACEABLE_KINDS, hotCaches } from './hot-cache.ts';

/** SQLite's variable limit is generous, PostgreSQL's is 65535; this stays far below both. */
const CHUNK = 500;

export type CacheObject = Record<string, unknown>;

/** A stored event as a reply object: the same JSON, typed for the reply list. */
export const wire = (events: Iterable<NostrEvent>): CacheObject[] => [...events] as unknown as CacheObject[];

export function sqlMarks(n: number): string {
  return new Array(n).fill('?').join(',');
}

/** Runs `query` over `keys` in chunks and concatenates the rows. */
export async function inChunks<K extends SqlValue, R>(
  keys: K[],
  query: (chunk: K[], marks: string) => Promise<R[]>,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < keys.length; i += CHUNK) {
    const chunk = keys.slice(i, i + CHUNK);
    out.push(...(await query(chunk, sqlMarks(chunk.length))));
  }
  return out;
}

export interface EventRow {
  id: string;
  pubkey: string;
  created_at: number | string;
  kind: number | string;
  tags: string;
  content: string;
  sig: string;
}

export const EVENT_COLS = 'e.id, e.pubkey, e.created_at, e.kind, e.tags, e.content, e.sig';

export function toEvent(r: EventRow): NostrEvent {
  let tags: string[][] = [];
  try {
    const parsed: unknown = JSON.parse(r.tags);
    if (Array.isArray(parsed)) tags = parsed as string[][];
  } catch {
    // A corrupt tag column must not take a whole page down; the event still renders.
  }
  return {
    id: r.id,
    pubkey: r.pubkey,
    created_at: Number(r.created_at),
    kind: Number(r.kind),
    tags,
    content: r.content,
    sig: r.sig,
  };
}

/**
 * `found`'s entries in the order the uncached query returned them: chunk by chunk of `keys`, each
 * chunk sorted by key (SQLite walks an IN list through the index in key order).
 */
function inQueryOrder<V>(keys: string[], found: Map<string, V>): Map<string, V> {
  const out = new Map<string, V>();
  for (let i = 0; i < keys.length; i += CHUNK) {
    const chunk = keys.slice(i, i + CHUNK).filter((k) => found.has(k));
    for (const k of chunk.sort()) out.set(k, found.get(k)!);
  }
  return out;
}


async function loadEvents(db: Queryable, ids: string[]): Promise<Map<string, NostrEvent>> {
  const rows = await inChunks(ids, (chunk, marks) => db.all<EventRow>(`SELECT ${EVENT_COLS} FROM events e WHERE e.id IN (${marks})`, chunk));
  return new Map(rows.map((r) => [r.id, toEvent(r)]));
}

/**
 * Stored events by id. On a running server regular events come from memory (hot-cache.ts), frozen:
 * the same object goes into many replies, so nothing may change it.
 */
export async function eventsByIds(db: Queryable, ids: Iterable<string>): Promise<Map<string, NostrEvent>> {
  const unique = [...new Set(ids)];
  const cache = hotCaches(db)?.events;
  if (!cache) return loadEvents(db, unique);
  let others: Map<string, NostrEvent> | undefined;
  const found = await cache.getMany(unique, undefined, async (missing) => {
    const loaded = await loadEvents(db, missing);
    const regular = new Map<string, NostrEvent>();
    for (const [id, ev] of loaded) {
      // A kind with a pointer is removed by its newer version without being named; only regular ones are kept.
      if (!hasPointer(ev.kind)) regular.set(id, freeze(ev));
      else (others ??= new Map()).set(id, ev);
    }
    return regular;
  });
  if (others) for (const [id, ev] of others) found.set(id, ev);
  return inQueryOrder(unique, found);
}

function freeze(ev: NostrEvent): NostrEvent {
  for (const t of ev.tags) Object.freeze(t);
  Object.freeze(ev.tags);
  return Object.freeze(ev);
}

/**
 * Who left a deletion for each of these ids or addresses. Stored events are never deleted
 * (the importer removes what its author deletes), so this only matters for events we do
 * not have; a tombstone counts only when it comes from the target's author.
 */
export async function tombstones(db: Queryable, targets: Iterable<string>): Promise<Map<string, Set<string>>> {
  const rows = await inChunks([...new Set(targets)], (chunk, marks) =>
    db.all<{ target: string; pubkey: string }>(`SELECT target, pubkey FROM tombstones WHERE target IN (${marks})`, chunk),
  );
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    const set = out.get(r.target) ?? new Set<string>();
    set.add(r.pubkey);
    out.set(r.target, set);
  }
  return out;
}

/**
 * Current replaceable events (d = '') of one kind, by author, in the order of the query (inQueryOrder).
 * Profiles, contact, mute, relay and media-server lists come from memory on a running server
 * (hot-cache.ts), frozen: cached events are shared between replies, never to be changed.
 */
export async function replaceableOf(db: Queryable, kind: number, pubkeys: Iterable<string>): Promise<Map<string, NostrEvent>> {
  const unique = [...new Set(pubkeys)];
  const cache = CACHED_REPLACEABLE_KINDS.includes(kind) ? hotCaches(db)?.replaceable : undefined;
  if (!cache) return loadReplaceable(db, kind, unique);
  const prefix = `${kind}:`;
  const found = await cache.getMany(
    unique.map((pk) => prefix + pk),
    null,
    async (missing) => {
      const loaded = await loadReplaceable(db, kind, missing.map((k) => k.slice(prefix.length)));
      return new Map([...loaded].map(([pk, ev]) => [prefix + pk, freeze(ev)]));
    },
  );
  const byPubkey = new Map<string, NostrEvent>();
  for (const [k, ev] of found) if (ev) byPubkey.set(k.slice(prefix.length), ev);
  return inQueryOrder(unique, byPubkey);
}

async function loadReplaceable(db: Queryable, kind: number, pubkeys: string[]): Promise<Map<string, NostrEvent>> {
  const rows = await inChunks(pubkeys, (chunk, marks) =>
    db.all<EventRow>(
      `SELECT ${EVENT_COLS} FROM replaceable r JOIN events e ON e.id = r.event_id
       WHERE r.kind = ? AND r.d = '' AND r.pubkey IN (${marks})`,
      [kind, ...chunk],
    ),
  );
  return new Map(rows.map((r) => [r.pubkey, toEvent(r)]));
}

export const profilesOf = (db: Queryable, pubkeys: Iterable<string>) => replaceableOf(db, 0, pubkeys);

/** The users' Blossom server lists (kind 10063, BUD-03), which clients try when a picture fails (S §2.2 step 4). */
export const mediaServerListsOf = async (db: Queryable, pubkeys: Iterable<string>): Promise<NostrEvent[]> => [
  ...(await replaceableOf(db, 10063, pubkeys)).values(),
];

export interface Address {
  kind: number;
  pubkey: string;
  d: string;
}

export const addressKey = (a: Address) => `${a.kind}:${a.pubkey}:${a.d}`;

/** Resolves "kind:pubkey:d" addresses to their current events, keyed by the address string. */
export async function eventsByAddress(db: Queryable, addrs: Address[]): Promise<Map<string, NostrEvent>> {
  const wanted = new Set(addrs.map(addressKey));
  const pubkeys = [...new Set(addrs.map((a) => a.pubkey))];
  const kinds = [...new Set(addrs.map((a) => a.kind))];
  if (!pubkeys.length) return new Map();
  const rows = await inChunks(pubkeys, (chunk, marks) =>
    db.all<EventRow & { d: string; rkind: number | string }>(
      `SELECT ${EVENT_COLS}, r.d AS d, r.kind AS rkind FROM replaceable r JOIN events e ON e.id = r.event_id
       WHERE r.pubkey IN (${marks}) AND r.kind IN (${sqlMarks(kinds.length)})`,
      [...chunk, ...kinds],
    ),
  );
  const out = new Map<string, NostrEvent>();
  for (const r of rows) {
    const key = `${Number(r.rkind)}:${r.pubkey}:${r.d}`;
    if (wanted.has(key)) out.set(key, toEvent(r));
  }
  return out;
}

async function countFollowers(db: Queryable, pubkeys: string[]): Promise<Map<string, number>> {
  const rows = await inChunks(pubkeys, (chunk, marks) =>
    db.all<{ pubkey: string; n: number | string }>(
      `SELECT follows AS pubkey, COUNT(*) AS n FROM follows WHERE follows IN (${marks}) GROUP BY follows`,
      chunk,
    ),
  );
  return new Map(rows.map((r) => [r.pubkey, Number(r.n)]));
}

/**
 * Followers per pubkey (everyone is trusted, so every follower counts). Missing keys mean 0 (or,
 * from a running server's cache, are present with 0).
 */
export async function followerCounts(db: Queryable, pubkeys: Iterable<string>): Promise<Map<string, number>> {
  const cache = hotCaches(db)?.followerCounts;
  if (!cache) return countFollowers(db, [...new Set(pubkeys)]);
  return cache.getMany(pubkeys, 0, (missing) => countFollowers(db, missing));
}

export interface StatsRow {
  event_id: string;
  likes: number;
  replies: number;
  mentions: number;
  reposts: number;
  zaps: number;
  satszapped: number;
  score: number;
  score24h: number;
}

const STAT_FIELDS = ['likes', 'replies', 'mentions', 'reposts', 'zaps', 'satszapped', 'score', 'score24h'] as const;

async function loadStats(db: Queryable, ids: string[]): Promise<Map<string, StatsRow>> {
  const rows = await inChunks(ids, (chunk, marks) =>
    db.all<Record<string, number | string>>(
      `SELECT event_id, ${STAT_FIELDS.join(', ')} FROM event_stats WHERE event_id IN (${marks})`,
      chunk,
    ),
  );
  const out = new Map<string, StatsRow>();
  for (const r of rows) {
    const row = { event_id: String(r.event_id) } as StatsRow;
    for (const f of STAT_FIELDS) row[f] = Number(r[f] ?? 0);
    out.set(row.event_id, row);
  }
  return out;
}

/** Counters per note that has a row. On a running server they come from memory (hot-cache.ts stats), frozen. */
export async function statsByIds(db: Queryable, ids: Iterable<string>): Promise<Map<string, StatsRow>> {
  const unique = [...new Set(ids)];
  const cache = hotCaches(db)?.stats;
  if (!cache) return loadStats(db, unique);
  const found = await cache.getMany(unique, null, async (missing) => {
    const loaded = await loadStats(db, missing);
    for (const row of loaded.values()) Object.freeze(row);
    return loaded;
  });
  const out = new Map<string, StatsRow>();
  for (const [id, row] of found) if (row) out.set(id, row);
  return inQueryOrder(unique, out);
}

export function emptyStats(eventId: string): StatsRow {
  return { event_id: eventId, likes: 0, replies: 0, mentions: 0, reposts: 0, zaps: 0, satszapped: 0, score: 0, score24h: 0 };
}

export interface ActionsRow {
  event_id: string;
  liked: boolean;
  replied: boolean;
  reposted: boolean;
  zapped: boolean;
}

export async function actionsOf(db: Queryable, viewer: string, ids: Iterable<string>): Promise<Map<string, ActionsRow>> {
  const rows = await inChunks([...new Set(ids)], (chunk, marks) =>
    db.all<Record<string, number | string>>(
      `SELECT event_id, liked, replied, reposted, zapped FROM event_actions WHERE pubkey = ? AND event_id IN (${marks})`,
      [viewer, ...chunk],
    ),
  );
  return new Map(
    rows.map((r) => [
      String(r.event_id),
      {
        event_id: String(r.event_id),
        liked: Number(r.liked) > 0,
        replied: Number(r.replied) > 0,
        reposted: Number(r.reposted) > 0,
        zapped: Number(r.zapped) > 0,
      },
    ]),
  );
}

export interface ZapRow {
  receipt_id: string;
  target_event_id: string;
  sender: string;
  receiver: string;
  amount_sats: number;
  created_at: number;
}

async function loadTopZaps(db: Queryable, ids: string[], perEvent: number): Promise<ZapRow[]> {
  const rows = await inChunks(ids, (chunk, marks) =>
    db.all<Record<string, number | string>>(
      `SELECT receipt_id, target_event_id, sender, receiver, amount_sats, created_at FROM (
         SELECT z.*, ROW_NUMBER() OVER (PARTITION BY target_event_id ORDER BY amount_sats DESC, created_at ASC, receipt_id ASC) AS rn
         FROM zaps z WHERE target_event_id IN (${marks})) t
       WHERE rn <= ? ORDER BY target_event_id, amount_sats DESC, created_at ASC`,
      [...chunk, perEvent],
    ),
  );
  return rows.map((r) => ({
    receipt_id: String(r.receipt_id),
    target_event_id: String(r.target_event_id),
    sender: String(r.sender),
    receiver: String(r.receiver),
    amount_sats: Number(r.amount_sats),
    created_at: Number(r.created_at),
  }));
}

const NO_ZAPS: readonly ZapRow[] = Object.freeze([]);
/** The count the cache keeps per note: what every bundle asks (enrich.ts TOP_ZAPS). */
const CACHED_TOP_ZAPS = 5;

/**
 * The `perEvent` biggest zaps of each event, biggest first, events in id order. On a running server
 * the five of each note come from memory (hot-cache.ts zaps), frozen.
 */
export async function topZaps(db: Queryable, ids: Iterable<string>, perEvent = 5): Promise<ZapRow[]> {
  const unique = [...new Set(ids)];
  const cache = perEvent === CACHED_TOP_ZAPS ? hotCaches(db)?.zaps : undefined;
  if (!cache) return loadTopZaps(db, unique, perEvent);
  const found = await cache.getMany(unique, NO_ZAPS, async (missing) => {
    const byTarget = new Map<string, ZapRow[]>();
    for (const z of await loadTopZaps(db, missing, perEvent)) {
      const list = byTarget.get(z.target_event_id) ?? [];
      list.push(Object.freeze(z));
      byTarget.set(z.target_event_id, list);
    }
    for (const list of byTarget.values()) Object.freeze(list);
    return byTarget;
  });
  const out: ZapRow[] = [];
  // The uncached query's order: by target id, then as each list is.
  for (const id of [...found.keys()].sort()) out.push(...found.get(id)!);
  return out;
}

export interface Hidden {
  pubkeys: Set<string>;
  ids: Set<string>;
}

/** What the viewer's own public mute list (kind 10000) hides. */
export async function hiddenFor(db: Queryable, viewer: string | undefined): Promise<Hidden> {
  const hidden: Hidden = { pubkeys: new Set(), ids: new Set() };
  if (!viewer) return hidden;
  const mute = (await replaceableOf(db, 10000, [viewer])).get(viewer);
  for (const t of mute?.tags ?? []) {
    if (t[0] === 'p' && typeof t[1] === 'string') hidden.pubkeys.add(t[1]);
    if (t[0] === 'e' && typeof t[1] === 'string') hidden.ids.add(t[1]);
  }
  return hidden;
}

/** Whitespace-separated words, as the reads pipeline counts them. */
export function wordCount(text: string): number {
  const m = text.match(/\S+/g);
  return m ? m.length : 0;
}

/** The name a profile (kind 0) asks to be shown by; '' when it gives none. */
export function profileDisplayName(ev: NostrEvent | undefined): string {
  if (!ev) return '';
  try {
    const p = JSON.parse(ev.content) as Record<string, unknown>;
    for (const k of ['display_name', 'displayName', 'name']) if (typeof p[k] === 'string' && p[k]) return p[k] as string;
  } catch {
    // A profile with broken JSON still has a pubkey to show.
  }
  return '';
}
