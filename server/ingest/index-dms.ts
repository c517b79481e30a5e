/**
 * NIP-04 direct messages (kind 4) at import (S §3.6): the message index that conversations
 * page through, and per (owner, peer) rows holding unread counts and the latest message.
 */
import { replaceableOf } from '../cache/data.ts';
import type { NostrEvent } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { write } from '../store/db.ts';
import type { Indexer } from './indexers.ts';
import { isHex64 } from './verify.ts';

/** Both directions of a conversation share one key. */
export function dmPair(a: string, b: string): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

/** Row of peer '' holds the owner's total unread count. */
export const TOTAL_PEER = '';

/** The receiver is the first p tag (S §3.6). */
function receiverOf(ev: NostrEvent): string | undefined {
  const p = ev.tags.find((t) => t[0] === 'p')?.[1];
  return isHex64(p) ? p : undefined;
}

/** Adds `unread` to (owner, peer) and moves its latest message forward when this one is newer. */
async function bump(tx: Queryable, owner: string, peer: string, unread: number, ev: NostrEvent): Promise<void> {
  await write(tx,
    `INSERT INTO dm_threads (owner, peer, cnt, latest_at, latest_event_id) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (owner, peer) DO UPDATE SET
       cnt = dm_threads.cnt + excluded.cnt,
       latest_event_id = CASE WHEN excluded.latest_at >= dm_threads.latest_at THEN excluded.latest_event_id ELSE dm_threads.latest_event_id END,
       latest_at = CASE WHEN excluded.latest_at >= dm_threads.latest_at THEN excluded.latest_at ELSE dm_threads.latest_at END`,
    [owner, peer, unread, ev.created_at, ev.id],
  );
}

async function onEvent(tx: Queryable, ev: NostrEvent): Promise<void> {
  if (ev.kind !== 4) return;
  const receiver = receiverOf(ev);
  if (!receiver) return;
  const sender = ev.pubkey;
  await write(tx,
    `INSERT INTO dm_messages (event_id, sender, receiver, pair, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (event_id) DO NOTHING`,
    [ev.id, sender, receiver, dmPair(sender, receiver), ev.created_at],
  );
  // The sender's side lists the conversation too ("everyone the user sent one to"), with nothing unread.
  await bump(tx, sender, receiver, 0, ev);
  if (sender === receiver) return;
  const mutes = (await replaceableOf(tx, 10000, [receiver])).get(receiver);
  if (mutes?.tags.some((t) => t[0] === 'p' && t[1] === sender)) return;
  await bump(tx, receiver, sender, 1, ev);
  await bump(tx, receiver, TOTAL_PEER, 1, ev);
}

/** Marks one conversation of `owner` read: its unread count leaves the owner's total too. */
export async function markDmThreadRead(tx: Queryable, owner: string, peer: string): Promise<void> {
  const row = await tx.get<{ cnt: number | string }>('SELECT cnt FROM dm_threads WHERE owner = ? AND peer = ?', [owner, peer]);
  const cnt = Number(row?.cnt ?? 0);
  if (cnt <= 0) return;
  await write(tx, 'UPDATE dm_threads SET cnt = 0 WHERE owner = ? AND peer = ?', [owner, peer]);
  await write(tx, 'UPDATE dm_threads SET cnt = CASE WHEN cnt > ? THEN cnt - ? ELSE 0 END WHERE owner = ? AND peer = ?', [
    cnt,
    cnt,
    owner,
    TOTAL_PEER,
  ]);
}

/** After a message is deleted, each side's latest message is the newest one left, or the row goes. */
async function refreshLatest(tx: Queryable, owner: string, peer: string): Promise<void> {
  const row = await tx.get<{ event_id: string; created_at: number | string }>(
    'SELECT event_id, created_at FROM dm_messages WHERE pair = ? ORDER BY created_at DESC, event_id ASC LIMIT 1',
    [dmPair(owner, peer)],
  );
  if (!row) {
    await write(tx, 'DELETE FROM dm_threads WHERE owner = ? AND peer = ?', [owner, peer]);
    return;
  }
  await write(tx, 'UPDATE dm_threads SET latest_at = ?, latest_event_id = ? WHERE owner = ? AND peer = ?', [
    Number(row.created_at),
    row.event_id,
    owner,
    peer,
  ]);
}

/**
 * Unread counters stay as they are: whether the deleted message was already read is not
 * recorded, and taking back a read one would hide an unread one.
 */
async function onDelete(tx: Queryable, deletedId: string): Promise<void> {
  const msg = await tx.get<{ sender: string; receiver: string }>('SELECT sender, receiver FROM dm_messages WHERE event_id = ?', [
    deletedId,
  ]);
  if (!msg) return;
  await write(tx, 'DELETE FROM dm_messages WHERE event_id = ?', [deletedId]);
  const stale = await tx.all<{ owner: string; peer: string }>(
    'SELECT owner, peer FROM dm_threads WHERE latest_event_id = ? AND owner IN (?, ?)',
    [deletedId, msg.sender, msg.receiver],
  );
  for (const s of stale) {
    if (s.peer !== TOTAL_PEER) await refreshLatest(tx, s.owner, s.peer);
  }
}

export const dmIndexer: Indexer = {
  name: 'dms',
  onEvent: (tx, ev) => onEvent(tx, ev),
  onDelete: (tx, id) => onDelete(tx, id),
};
