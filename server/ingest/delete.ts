import type { NostrEvent } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { write } from '../store/db.ts';
import { addressOf, hasPointer, parseAddress, pointerD } from './kinds.ts';
import { undoActionsOf } from './scores.ts';
import { isHex64 } from './verify.ts';

/**
 * Whether an author deleted this event before it arrived: by id, or by its address
 * for versions no newer than the deletion (NIP-09). Only the author's own deletions count.
 */
export async function isTombstoned(tx: Queryable, event: NostrEvent): Promise<boolean> {
  if (await tx.get('SELECT 1 AS x FROM tombstones WHERE target = ? AND pubkey = ?', [event.id, event.pubkey])) return true;
  if (!hasPointer(event.kind)) return false;
  const address = addressOf(event.kind, event.pubkey, pointerD(event.kind, event.tags));
  const row = await tx.get('SELECT 1 AS x FROM tombstones WHERE target = ? AND pubkey = ? AND created_at >= ?', [
    address,
    event.pubkey,
    event.created_at,
  ]);
  return row !== undefined;
}

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
