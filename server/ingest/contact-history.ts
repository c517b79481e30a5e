/**
 * Past contact lists for membership_recovery_contact_lists. Superseded kind-3 versions are not
 * kept in `events` (storage would grow with every follow click), so this keeps, per author and
 * UTC day, the day's version with the most follows, for the newest RECOVERY_DAYS days only.
 */
import type { NostrEvent } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { write } from '../store/db.ts';

export const RECOVERY_DAYS = 30;

export interface HistoryRow {
  event_id: string;
  created_at: number | string;
  follows: number | string;
  tags: string;
  content: string;
  sig: string;
}

const UPSERT = `INSERT INTO contact_list_history (pubkey, day, event_id, created_at, follows, tags, content, sig) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (pubkey, day) DO UPDATE SET event_id = excluded.event_id, created_at = excluded.created_at, follows = excluded.follows,
       tags = excluded.tags, content = excluded.content, sig = excluded.sig`;
/** recordContactList's `better`, for the upsert's DO UPDATE. */
const BETTER = `excluded.follows > contact_list_history.follows OR (excluded.follows = contact_list_history.follows
  AND (excluded.created_at > contact_list_history.created_at
    OR (excluded.created_at = contact_list_history.created_at AND excluded.event_id < contact_list_history.event_id)))`;
/** The days past the newest RECOVERY_DAYS + 1, gone (none when there are not that many). */
const TRIM = `DELETE FROM contact_list_history WHERE pubkey = ? AND day <= (
  SELECT day FROM contact_list_history WHERE pubkey = ? ORDER BY day DESC LIMIT 1 OFFSET ${RECOVERY_DAYS})`;

/** Records a kind 3 whether or not it is the current version: a late older one may be a day's best. */
export async function recordContactList(tx: Queryable, event: NostrEvent): Promise<void> {
  const day = Math.floor(event.created_at / 86400);
  const follows = event.tags.filter((t) => Array.isArray(t) && t[0] === 'p').length;
  const row = [event.pubkey, day, event.id, event.created_at, follows, JSON.stringify(event.tags), event.content, event.sig];
  if (tx.dialect === 'postgres' && tx.write) {
    // A pipelined import: the day's comparison and the cut of old days in the statements, as the reads
    // below would decide them (ids compare in byte order, COLLATE "C"), so nothing waits for an answer.
    await write(tx, `${UPSERT} WHERE ${BETTER}`, row);
    await write(tx, TRIM, [event.pubkey, event.pubkey]);
    return;
  }
  const cur = await tx.get<{ event_id: string; created_at: number | string; follows: number | string }>(
    'SELECT event_id, created_at, follows FROM contact_list_history WHERE pubkey = ? AND day = ?',
    [event.pubkey, day],
  );
  if (cur) {
    const [f, at] = [Number(cur.follows), Number(cur.created_at)];
    // Most follows wins the day; on a tie the newer version, then the lower id.
    const better = follows > f || (follows === f && (event.created_at > at || (event.created_at === at && event.id < cur.event_id)));
    if (!better) return;
  }
  await write(tx, UPSERT, row);
  const oldest = await tx.get<{ day: number | string }>(
    `SELECT day FROM contact_list_history WHERE pubkey = ? ORDER BY day DESC LIMIT 1 OFFSET ${RECOVERY_DAYS}`,
    [event.pubkey],
  );
  if (oldest) await write(tx, 'DELETE FROM contact_list_history WHERE pubkey = ? AND day <= ?', [event.pubkey, Number(oldest.day)]);
}

/** A deleted kind 3 leaves the history too. */
export async function forgetContactList(tx: Queryable, eventId: string): Promise<void> {
  await write(tx, 'DELETE FROM contact_list_history WHERE event_id = ?', [eventId]);
}

/** The kept versions of `pubkey`, newest day first. */
export function contactListHistory(db: Queryable, pubkey: string): Promise<HistoryRow[]> {
  return db.all<HistoryRow>(
    `SELECT event_id, created_at, follows, tags, content, sig FROM contact_list_history WHERE pubkey = ? ORDER BY day DESC LIMIT ${RECOVERY_DAYS}`,
    [pubkey],
  );
}
