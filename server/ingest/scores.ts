import { rowsChanged } from '../cache/hot-cache.ts';
import type { NostrEvent } from '../context.ts';
import type { Database, Queryable, RowInsert, SqlValue } from '../store/db.ts';
import { rowInsert, write } from '../store/db.ts';
import { groupFactsOf, noteRecorded } from './action-facts.ts';
import { EVENT_COLS, toEvent, type EventRow } from '../cache/data.ts';
import { POST_KINDS } from './kinds.ts';
import { rememberTarget } from './target-rows.ts';

export type Action = 'like' | 'reply' | 'repost' | 'quote' | 'zap';

/** event_stats counter each action moves. */
const COUNTER: Record<Action, 'likes' | 'replies' | 'reposts' | 'zaps'> = {
  like: 'likes',
  reply: 'replies',
  repost: 'reposts',
  quote: 'reposts',
  zap: 'zaps',
};

/** Per-viewer flag each action sets in event_actions (10000115); a quote is not a repost button press. */
const FLAG: Partial<Record<Action, 'liked' | 'replied' | 'reposted' | 'zapped'>> = {
  like: 'liked',
  reply: 'replied',
  repost: 'reposted',
  zap: 'zapped',
};

/** Actions that count as the same "kind" for the first-action-only score rule. */
const SCORE_GROUP: Record<Action, Action[]> = {
  like: ['like'],
  reply: ['reply'],
  repost: ['repost', 'quote'],
  quote: ['repost', 'quote'],
  zap: ['zap'],
};

export const DAY = 86_400;

/** Weight of an action (S §4.3): like 1, repost or quote 7, zap 5, reply 1/5/10 by length. */
export function actionWeight(action: Action, content = ''): number {
  switch (action) {
    case 'like':
      return 1;
    case 'repost':
    case 'quote':
      return 7;
    case 'zap':
      return 5;
    case 'reply': {
      const length = [...content].length;
      return length <= 20 ? 1 : length <= 100 ? 5 : 10;
    }
  }
}

/** Stored score units: trunc(1e10 × weight / 91), so scores look like Primal's numbers. */
export function scoreUnits(weight: number): number {
  return Math.trunc((1e10 * weight) / 91);
}

/** Targets whose event_stats row recordAction wrote, by pipelined transaction (see statsWrittenInGroup). */
const statsWritten = new WeakMap<Queryable, Set<string>>();

/**
 * Whether an action earlier in this pipelined group (PostgreSQL) wrote `id`'s event_stats row: the
 * group's arrivals (delete.ts arrivalsOf) say only whether there was one when the group began, and a
 * target that arrives after its actions must lose the provisional row they left when it is not a post.
 */
export function statsWrittenInGroup(tx: Queryable, id: string): boolean {
  return statsWritten.get(tx)?.has(id) ?? false;
}

/**
 * recordAction's reads in one statement (on PostgreSQL each read waits for a round trip): whether this
 * acting event is recorded on `target` already, whether its author did an action of the same group
 * before, and, with `withTarget`, the target's events row (a stored target that is not a post gets no
 * counters; see recordAction). Both refs are read as separate scalar subqueries, as the two reads were.
 */
export function actionFactsSql(group: Action[], withTarget: boolean): string {
  const refs = `(SELECT 1 FROM event_action_refs WHERE event_id = ? AND ref_event_id = ? LIMIT 1) AS recorded,
    (SELECT 1 FROM event_action_refs WHERE event_id = ? AND ref_pubkey = ? AND action IN (${group.map(() => '?').join(', ')}) LIMIT 1) AS earlier`;
  return withTarget ? `SELECT ${EVENT_COLS}, ${refs} FROM (SELECT 1 AS one) o LEFT JOIN events e ON e.id = ?` : `SELECT ${refs}`;
}

/**
 * Records that `actor` acted on `target` and moves every derived number: the counter,
 * score and score24h (first action of its kind per actor only, S §4.3), the expiry of
 * the 24 h increment, the viewer flag and the action ref. The stats row is created on
 * demand so an action that arrives before its target still counts once the target comes.
 * `postsOnly`: a stored target that is not a post counts nothing (unknown targets may still arrive);
 * its events row, read for that, is kept for the indexers of `actor` (target-rows.ts).
 */
export async function recordAction(
  tx: Queryable,
  now: number,
  target: string,
  actor: NostrEvent,
  action: Action,
  sats = 0,
  postsOnly = false,
): Promise<void> {
  const group = SCORE_GROUP[action];
  // A pipelined group read the facts of its foreseeable actions up front (action-facts.ts).
  const known = postsOnly ? groupFactsOf(tx, target, actor, group) : undefined;
  let recorded: boolean;
  let earlier: boolean;
  if (known) {
    // Not kept in target-rows.ts: the notification indexer finds this row in the group's reads too.
    if (known.stored && !POST_KINDS.has(known.stored.kind)) return;
    ({ recorded, earlier } = known);
  } else {
    const facts = await tx.get<Partial<EventRow> & { recorded: unknown; earlier: unknown }>(actionFactsSql(group, postsOnly), [
      target, actor.id, target, actor.pubkey, ...group, ...(postsOnly ? [target] : []),
    ]);
    if (postsOnly) {
      const stored = facts?.id == null ? undefined : toEvent(facts as EventRow);
      rememberTarget(actor, target, stored);
      if (stored && !POST_KINDS.has(stored.kind)) return;
    }
    recorded = facts?.recorded != null;
    earlier = facts?.earlier != null;
  }
  if (recorded) return;
  const score = earlier ? 0 : scoreUnits(actionWeight(action, actor.content));
  const age = now - actor.created_at;
  const score24h = score > 0 && age < DAY ? score : 0;
  const counter = COUNTER[action];
  const flag = FLAG[action];
  if (tx.insertLater) {
    // A pipelined group holds these rows for its multi-row statements (insertRows): nothing between
    // here and the group's end reads the tables without naming them, which sends the held rows first.
    noteRecorded(tx, target, actor, action);
    let mine = statsWritten.get(tx);
    if (!mine) statsWritten.set(tx, (mine = new Set()));
    mine.add(target);
    tx.insertLater(ACTION_REFS_INSERT, [target, actor.id, actor.pubkey, actor.kind, actor.created_at, action, score]);
    const counts = [0, 0, 0, 0];
    counts[STATS_COUNTERS.indexOf(counter)] = 1;
    tx.insertLater(STATS_UPSERT, [target, '', 0, 0, ...counts, sats, score, score24h], target, mergeStats);
    if (score24h > 0) tx.insertLater(SCORE_EXPIRY_INSERT, [target, actor.id, score24h, actor.created_at + DAY]);
    if (flag) tx.insertLater(flagUpsert(flag), [target, actor.pubkey, 1], `${target} ${actor.pubkey}`, (held) => held);
    return;
  }

  await write(tx,
    `INSERT INTO event_action_refs (event_id, ref_event_id, ref_pubkey, ref_kind, ref_created_at, action, score)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [target, actor.id, actor.pubkey, actor.kind, actor.created_at, action, score],
  );
  await write(tx,
    `INSERT INTO event_stats (event_id, author, created_at, kind, ${counter}, satszapped, score, score24h)
     VALUES (?, '', 0, 0, 1, ?, ?, ?)
     ON CONFLICT (event_id) DO UPDATE SET ${counter} = event_stats.${counter} + 1,
       satszapped = event_stats.satszapped + ?, score = event_stats.score + ?, score24h = event_stats.score24h + ?`,
    [target, sats, score, score24h, sats, score, score24h],
  );
  if (score24h > 0) {
    await write(tx, 'INSERT INTO score_expiry (event_id, ref_event_id, change, expire_at) VALUES (?, ?, ?, ?)', [
      target,
      actor.id,
      score24h,
      actor.created_at + DAY,
    ]);
  }
  if (flag) {
    await write(tx,
      `INSERT INTO event_actions (event_id, pubkey, ${flag}) VALUES (?, ?, 1)
       ON CONFLICT (event_id, pubkey) DO UPDATE SET ${flag} = 1`,
      [target, actor.pubkey],
    );
  }
}

const ACTION_REFS_INSERT = rowInsert('event_action_refs', ['event_id', 'ref_event_id', 'ref_pubkey', 'ref_kind', 'ref_created_at', 'action', 'score']);
const SCORE_EXPIRY_INSERT = rowInsert('score_expiry', ['event_id', 'ref_event_id', 'change', 'expire_at']);

/** The counters an action moves, in STATS_UPSERT's order. */
const STATS_COUNTERS = ['likes', 'replies', 'reposts', 'zaps'] as const;
const STATS_SUMS = [...STATS_COUNTERS, 'satszapped', 'score', 'score24h'];

/**
 * One upsert for both kinds of event_stats row of a pipelined group, so a post's row and the actions on
 * posts share its multi-row statements: a post's row (author set) fills in who and when and adds
 * nothing; an action's (author '') keeps who and when and adds its counts. The same as the two
 * statements recordAction and applyPost send elsewhere, one after the other.
 */
export const STATS_UPSERT = rowInsert(
  'event_stats',
  ['event_id', 'author', 'created_at', 'kind', ...STATS_SUMS],
  `ON CONFLICT (event_id) DO UPDATE SET
     author = CASE WHEN excluded.author = '' THEN event_stats.author ELSE excluded.author END,
     created_at = CASE WHEN excluded.author = '' THEN event_stats.created_at ELSE excluded.created_at END,
     kind = CASE WHEN excluded.author = '' THEN event_stats.kind ELSE excluded.kind END,
     ${STATS_SUMS.map((c) => `${c} = event_stats.${c} + excluded.${c}`).join(', ')}`,
);

/** One STATS_UPSERT row that leaves what `held` and then `next` would (PostgreSQL meets a key once per statement). */
export function mergeStats(held: SqlValue[], next: SqlValue[]): SqlValue[] {
  const who = next[1] === '' ? held.slice(0, 4) : next.slice(0, 4);
  return [...who, ...held.slice(4).map((v, i) => Number(v) + Number(next[4 + i]))];
}

const flagUpserts = new Map<string, RowInsert>();
/** event_actions rows setting `flag`: a repeated key sets it again, so the held row stands for both. */
function flagUpsert(flag: string): RowInsert {
  let insert = flagUpserts.get(flag);
  if (!insert) {
    insert = rowInsert('event_actions', ['event_id', 'pubkey', flag], `ON CONFLICT (event_id, pubkey) DO UPDATE SET ${flag} = 1`);
    flagUpserts.set(flag, insert);
  }
  return insert;
}

interface RefRow {
  event_id: string;
  ref_pubkey: string;
  action: Action;
  score: number;
}

/** Takes back everything recordAction did for the acting event `refId` (used when it is deleted). */
export async function undoActionsOf(tx: Queryable, refId: string): Promise<void> {
  const refs = await tx.all<RefRow>('SELECT event_id, ref_pubkey, action, score FROM event_action_refs WHERE ref_event_id = ?', [refId]);
  for (const ref of refs) {
    const counter = COUNTER[ref.action];
    if (!counter) continue;
    const zap =
      ref.action === 'zap' ? await tx.get<{ amount_sats: number }>('SELECT amount_sats FROM zaps WHERE receipt_id = ?', [refId]) : undefined;
    const pending = await tx.get<{ total: number | null }>(
      'SELECT SUM(change) AS total FROM score_expiry WHERE event_id = ? AND ref_event_id = ?',
      [ref.event_id, refId],
    );
    await write(tx,
      `UPDATE event_stats SET ${counter} = ${counter} - 1, satszapped = satszapped - ?, score = score - ?, score24h = score24h - ?
       WHERE event_id = ?`,
      [zap?.amount_sats ?? 0, ref.score, Number(pending?.total ?? 0), ref.event_id],
    );
    await write(tx, 'DELETE FROM score_expiry WHERE event_id = ? AND ref_event_id = ?', [ref.event_id, refId]);
    await write(tx, 'DELETE FROM event_action_refs WHERE event_id = ? AND ref_event_id = ?', [ref.event_id, refId]);
    const flag = FLAG[ref.action];
    if (flag) {
      const still = await tx.get('SELECT 1 AS x FROM event_action_refs WHERE event_id = ? AND ref_pubkey = ? AND action = ?', [
        ref.event_id,
        ref.ref_pubkey,
        ref.action,
      ]);
      if (!still) await write(tx, `UPDATE event_actions SET ${flag} = 0 WHERE event_id = ? AND pubkey = ?`, [ref.event_id, ref.ref_pubkey]);
    }
  }
}

/** Subtracts the score24h increments whose acting event is now 24 h old. Returns how many expired. */
export async function expireScores(db: Database, now: number): Promise<number> {
  const expired = await db.transaction(async (tx) => {
    const rows = await tx.all<{ event_id: string; change: number }>('SELECT event_id, change FROM score_expiry WHERE expire_at <= ?', [now]);
    for (const row of rows) {
      await write(tx, 'UPDATE event_stats SET score24h = score24h - ? WHERE event_id = ?', [row.change, row.event_id]);
    }
    if (rows.length > 0) await write(tx, 'DELETE FROM score_expiry WHERE expire_at <= ?', [now]);
    return rows.map((r) => r.event_id);
  });
  // Committed: those notes' counters kept in memory (hot-cache.ts stats) are stale.
  if (expired.length > 0) rowsChanged(db, 'stats', expired);
  return expired.length;
}
