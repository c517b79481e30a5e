import type { NostrEvent } from '../context.ts';
import type { Queryable, SqlValue } from '../store/db.ts';
import { write } from '../store/db.ts';
import { addressOf, hasPointer, parseAddress, pointerD, POST_KINDS } from './kinds.ts';
import { undoActionsOf } from './scores.ts';
import { isHex64 } from './verify.ts';

/** What the store already knows about an arriving event, read in one statement. */
export interface Arrival {
  /** Its author deleted it before it arrived: by id, or by its address for versions no newer than the deletion (NIP-09). */
  tombstoned: boolean;
  /** Already stored. */
  stored: boolean;
  /** For a replaceable or addressable kind: the current version at its address, if any. */
  current: { event_id: string; created_at: number } | null;
  /** For a kind that is not a post: an event_stats row exists under its id (left by actions that came first). */
  statsRow: boolean;
}

const ARRIVAL_BY_ID = `(SELECT 1 FROM tombstones WHERE target = ? AND pubkey = ?) AS by_id,
  (SELECT 1 FROM events WHERE id = ?) AS stored`;
const ARRIVAL_ADDRESS = `(SELECT 1 FROM tombstones WHERE target = ? AND pubkey = ? AND created_at >= ?) AS by_address,
  (SELECT event_id FROM replaceable WHERE pubkey = ? AND kind = ? AND d = ?) AS current_id,
  (SELECT created_at FROM replaceable WHERE pubkey = ? AND kind = ? AND d = ?) AS current_at`;
const ARRIVAL_STATS = '(SELECT 1 FROM event_stats WHERE event_id = ?) AS has_stats';
/** By [has a pointer][is not a post]. */
const ARRIVAL = [
  [`SELECT ${ARRIVAL_BY_ID}`, `SELECT ${ARRIVAL_BY_ID}, ${ARRIVAL_STATS}`],
  [`SELECT ${ARRIVAL_BY_ID}, ${ARRIVAL_ADDRESS}`, `SELECT ${ARRIVAL_BY_ID}, ${ARRIVAL_ADDRESS}, ${ARRIVAL_STATS}`],
];

/**
 * The tombstone, duplicate and current-version checks of one arriving event (only the author's own
 * deletions count), as one query: on PostgreSQL each query is a round trip, and these three or four
 * ran for every imported event. For a kind that is not a post it also asks whether actions that
 * arrived before it left a provisional stats row, so that row's DELETE runs only when there is one.
 */
export async function arrivalOf(tx: Queryable, event: NostrEvent): Promise<Arrival> {
  const params: SqlValue[] = [event.id, event.pubkey, event.id];
  const pointer = hasPointer(event.kind);
  const notPost = !POST_KINDS.has(event.kind);
  if (pointer) {
    const d = pointerD(event.kind, event.tags);
    const key = [event.pubkey, event.kind, d];
    params.push(addressOf(event.kind, event.pubkey, d), event.pubkey, event.created_at, ...key, ...key);
  }
  if (notPost) params.push(event.id);
  const row = await tx.get<{
    by_id: number | null; stored: number | null; by_address?: number | null; current_id?: string | null; current_at?: number | string | null; has_stats?: number | null;
  }>(ARRIVAL[pointer ? 1 : 0][notPost ? 1 : 0], params);
  return {
    tombstoned: row?.by_id != null || row?.by_address != null,
    stored: row?.stored != null,
    current: row?.current_id != null ? { event_id: row.current_id, created_at: Number(row.current_at) } : null,
    statsRow: row?.has_stats != null,
  };
}

/**
 * The arrivals of a pipelined group's events (PostgreSQL), read in one statement before the first is
 * applied: a read per event was a third of the group's round trips. An answer read at the start of the
 * group still holds when the event's turn comes unless an earlier event of the group could have changed
 * it, and only the same author's deletions (tombstones, removed versions) or the same address's earlier
 * versions can: such events get undefined and are read in their turn, as every event is elsewhere. A
 * provisional stats row can also be left by any earlier action of the group: statsRow says only whether
 * there was one when the group began, and the importer asks recordAction for the group's own
 * (statsWrittenInGroup).
 */
export async function arrivalsOf(tx: Queryable, events: readonly NostrEvent[]): Promise<(Arrival | undefined)[]> {
  if (tx.dialect !== 'postgres' || !tx.write || events.length === 0) return [];
  const out: (Arrival | undefined)[] = new Array(events.length).fill(undefined);
  const deleters = new Set<string>();
  const addresses = new Set<string>();
  const asked: { i: number; id: string; pubkey: string; addr: string | null; created_at: number; kind: number; d: string }[] = [];
  events.forEach((event, i) => {
    let addr: string | null = null;
    let d = '';
    if (hasPointer(event.kind)) {
      // As the driver sends a lone surrogate of a text parameter (U+FFFD); JSON would keep it escaped.
      d = pointerD(event.kind, event.tags).replace(/\p{Cs}/gu, '\ufffd');
      addr = addressOf(event.kind, event.pubkey, d);
    }
    const stale = deleters.has(event.pubkey) || (addr !== null && addresses.has(addr));
    if (event.kind === 5) deleters.add(event.pubkey);
    if (addr !== null) addresses.add(addr);
    if (!stale) asked.push({ i, id: event.id, pubkey: event.pubkey, addr, created_at: event.created_at, kind: event.kind, d });
  });
  if (asked.length === 0) return out;
  const rows = await tx.all<{
    i: number; by_id: number | null; stored: number | null; by_address: number | null; current_id: string | null; current_at: number | string | null;
    has_stats: number | null;
  }>(ARRIVALS, [JSON.stringify(asked)]);
  for (const row of rows) {
    const event = events[row.i];
    out[row.i] = {
      tombstoned: row.by_id != null || row.by_address != null,
      stored: row.stored != null,
      current: row.current_id != null ? { event_id: row.current_id, created_at: Number(row.current_at) } : null,
      statsRow: !POST_KINDS.has(event.kind) && row.has_stats != null,
    };
  }
  return out;
}

/** ARRIVAL for a group's events at once (arrivalsOf); scalar subqueries, so each is one index probe. */
export const ARRIVALS = `SELECT a.i,
  (SELECT 1 FROM tombstones t WHERE t.target = a.id AND t.pubkey = a.pubkey) AS by_id,
  (SELECT 1 FROM events e WHERE e.id = a.id) AS stored,
  (SELECT 1 FROM tombstones t WHERE a.addr IS NOT NULL AND t.target = a.addr AND t.pubkey = a.pubkey AND t.created_at >= a.created_at) AS by_address,
  (SELECT r.event_id FROM replaceable r WHERE a.addr IS NOT NULL AND r.pubkey = a.pubkey AND r.kind = a.kind AND r.d = a.d) AS current_id,
  (SELECT r.created_at FROM replaceable r WHERE a.addr IS NOT NULL AND r.pubkey = a.pubkey AND r.kind = a.kind AND r.d = a.d) AS current_at,
  (SELECT 1 FROM event_stats s WHERE s.event_id = a.id) AS has_stats
  FROM json_to_recordset(?::json) AS a(i INTEGER, id TEXT, pubkey TEXT, addr TEXT, created_at BIGINT, kind INTEGER, d TEXT)`;

async function tombstone(tx: Queryable, target: string, deletion: NostrEvent): Promise<void> {
  await write(tx,
    `INSERT INTO tombstones (target, pubkey, deletion_id, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (target, pubkey) DO UPDATE SET deletion_id = excluded.deletion_id, created_at = excluded.created_at
     WHERE excluded.created_at > tombstones.created_at`,
    [target, deletion.pubkey, deletion.id, deletion.created_at],
  );
}

interface StoredRow {
  id: string;
  pubkey: string;
  kind: number;
  created_at: number;
  tags: string;
}

/**
 * Applies a kind 5 (S §5.4, with our two fixes): only the author's events are removed,
 * `a` deletions are checked for ownership, and a tombstone is kept either way so a target
 * that arrives later is refused. Returns the ids removed.
 */
export async function applyDeletion(tx: Queryable, deletion: NostrEvent): Promise<string[]> {
  const removed: string[] = [];
  for (const tag of deletion.tags) {
    if (tag[0] === 'e' && isHex64(tag[1])) {
      const target = await tx.get<StoredRow>('SELECT id, pubkey, kind, created_at, tags FROM events WHERE id = ?', [tag[1]]);
      if (target && (target.pubkey !== deletion.pubkey || target.kind === 5)) continue;
      await tombstone(tx, tag[1], deletion);
      if (target) {
        await removeEvent(tx, target);
        removed.push(target.id);
      }
    } else if (tag[0] === 'a' && typeof tag[1] === 'string') {
      const addr = parseAddress(tag[1]);
      if (!addr || addr.pubkey !== deletion.pubkey || !hasPointer(addr.kind)) continue;
      await tombstone(tx, addressOf(addr.kind, addr.pubkey, addr.d), deletion);
      const versions = await tx.all<StoredRow>(
        'SELECT id, pubkey, kind, created_at, tags FROM events WHERE pubkey = ? AND kind = ? AND created_at <= ?',
        [addr.pubkey, addr.kind, deletion.created_at],
      );
      for (const version of versions) {
        if (pointerD(version.kind, JSON.parse(version.tags) as string[][]) !== addr.d) continue;
        await removeEvent(tx, version);
        removed.push(version.id);
      }
    }
  }
  return removed;
}

/** Removes a stored event and everything derived from it, taking back what it added to others' counters. */
async function removeEvent(tx: Queryable, target: StoredRow): Promise<void> {
  const id = target.id;
  await undoActionsOf(tx, id);
  const pointer = await tx.get('SELECT 1 AS x FROM replaceable WHERE event_id = ?', [id]);
  if (pointer) {
    await write(tx, 'DELETE FROM replaceable WHERE event_id = ?', [id]);
    if (target.kind === 3) await write(tx, 'DELETE FROM follows WHERE pubkey = ?', [target.pubkey]);
  }
  for (const sql of [
    'DELETE FROM events WHERE id = ?',
    'DELETE FROM event_tags WHERE event_id = ?',
    'DELETE FROM posts WHERE event_id = ?',
    'DELETE FROM event_stats WHERE event_id = ?',
    'DELETE FROM score_expiry WHERE event_id = ?',
    'DELETE FROM event_actions WHERE event_id = ?',
    'DELETE FROM event_action_refs WHERE event_id = ?',
    'DELETE FROM zaps WHERE receipt_id = ?',
  ]) {
    await write(tx, sql, [id]);
  }
}
