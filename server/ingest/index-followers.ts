import type { NostrEvent } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { insertRows, rowInsert } from '../store/db.ts';
import type { Indexer } from './indexers.ts';
import { DAY } from './scores.ts';
import { isHex64 } from './verify.ts';

/** Keeps each batch's IN (...) list well below every driver's parameter limit. */
const CHUNK = 500;

const FOLLOWER_DAYS = rowInsert(
  'follower_days',
  ['pubkey', 'day', 'increase', 'cnt'],
  'ON CONFLICT (pubkey, day) DO UPDATE SET increase = follower_days.increase + excluded.increase, cnt = excluded.cnt',
);

function followSet(tags: string[][]): Set<string> {
  const out = new Set<string>();
  for (const t of tags) if (t[0] === 'p' && isHex64(t[1])) out.add(t[1]);
  return out;
}

const previousLists = new WeakMap<Queryable, WeakMap<NostrEvent, Promise<{ tags: string } | undefined>>>();

/**
 * The contact list `event` replaced (still stored while the indexers run: everything newer lost), read
 * once per event and transaction for the two indexers that diff against it (this one and the
 * notifications'): on PostgreSQL every read waits for a round trip. Nothing they run in between writes
 * events; a retried transaction is a new `tx`, so it reads again.
 */
export function previousContactList(tx: Queryable, event: NostrEvent): Promise<{ tags: string } | undefined> {
  let mine = previousLists.get(tx);
  if (!mine) {
    mine = new WeakMap();
    previousLists.set(tx, mine);
  }
  let list = mine.get(event);
  if (!list) {
    list = tx.get<{ tags: string }>(
      'SELECT tags FROM events WHERE pubkey = ? AND kind = 3 AND id <> ? ORDER BY created_at DESC, id ASC LIMIT 1',
      [event.pubkey, event.id],
    );
    mine.set(event, list);
  }
  return list;
}

/**
 * Daily follower gains (S §3.4 explore_people, spec "User stats" followers_increase). The
 * importer runs indexers only for a contact list that became current, after the follow graph
 * was updated, so the list it replaced is the newest other version still stored: diffing the
 * two gives who was followed and unfollowed. Each change lands on the UTC day of the contact
 * list's created_at, so an imported history keeps its days.
 */
export const followersIndexer: Indexer = {
  name: 'followers',
  async onEvent(tx: Queryable, event: NostrEvent): Promise<void> {
    if (event.kind !== 3) return;
    const previous = await previousContactList(tx, event);
    let before = new Set<string>();
    try {
      if (previous) before = followSet(JSON.parse(previous.tags) as string[][]);
    } catch {
      // An unreadable old list counts as empty: every current follow is then new.
    }
    const after = followSet(event.tags);
    const delta = new Map<string, number>();
    for (const pk of after) if (!before.has(pk)) delta.set(pk, 1);
    for (const pk of before) if (!after.has(pk)) delta.set(pk, -1);
    delta.delete(event.pubkey);
    if (!delta.size) return;

    const day = Math.floor(event.created_at / DAY);
    const keys = [...delta.keys()];
    for (let i = 0; i < keys.length; i += CHUNK) {
      const chunk = keys.slice(i, i + CHUNK);
      const rows = await tx.all<{ pubkey: string; n: unknown }>(
        `SELECT follows AS pubkey, COUNT(*) AS n FROM follows WHERE follows IN (${chunk.map(() => '?').join(',')}) GROUP BY follows`,
        chunk,
      );
      const counts = new Map(rows.map((r) => [r.pubkey, Number(r.n)]));
      // One statement per up to 64 rows, with the other contact lists' rows of a pipelined group; a
      // (pubkey, day) already held takes the sum of both increases and the later count, as the two
      // upserts one after the other would leave it.
      await insertRows(
        tx,
        FOLLOWER_DAYS,
        chunk.map((pk) => [pk, day, delta.get(pk)!, counts.get(pk) ?? 0]),
        (row) => `${row[0]} ${row[1]}`,
        (held, next) => [held[0], held[1], Number(held[2]) + Number(next[2]), next[3]],
      );
    }
  },
};
