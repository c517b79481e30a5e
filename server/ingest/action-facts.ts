import { EVENT_COLS, toEvent, type EventRow } from '../cache/data.ts';
import type { NostrEvent } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { REPLY_KINDS } from './kinds.ts';
import { quotedRefs, replyInfo } from './replies.ts';
import { isHex64 } from './verify.ts';

/**
 * recordAction's facts for a whole pipelined group (PostgreSQL), read in one statement before its first
 * event is applied, like the group's arrivals (delete.ts arrivalsOf): a read per action uncorked the
 * pipeline and made Node and PostgreSQL take turns (28,000 of the bench's 52,145 events are reactions),
 * and it named `events` and `event_action_refs`, so the group's held rows of both went out a statement
 * per action. An answer read at the group's start is brought up to the action's turn with what the
 * group wrote since — events rows (applyEvent notes them, and the rows a new version removes) and the
 * action refs recordAction adds. Deletions (which remove rows and refs) and edited posts (whose refs
 * move to the new version) are not followed: after one, every action of the group reads in its turn.
 */
interface StoredFacts {
  /** This acting event was recorded on the target. */
  recorded: boolean;
  /** Actions its author had recorded on the target. */
  actions: Set<string>;
}

interface GroupFacts {
  /** By factKey(target, acting event id, its author). */
  read: Map<string, StoredFacts>;
  /**
   * events rows when the group began (null: none): every foreseen target, and the posts those targets
   * quote by id, which the notification indexer reads for each action on them (notification-sources.ts).
   */
  rows: Map<string, NostrEvent | null>;
  /** events rows the group wrote (null: removed) since the facts were read. */
  written: Map<string, NostrEvent | null>;
  /** factKey(target, acting event, author) of the refs the group recorded. */
  recorded: Set<string>;
  /** target, author and action of the refs the group recorded. */
  acted: Set<string>;
}

const groups = new WeakMap<Queryable, GroupFacts>();

const factKey = (target: string, actorId: string, pubkey: string) => `${target} ${actorId} ${pubkey}`;
const actedKey = (target: string, pubkey: string, action: string) => `${target} ${pubkey} ${action}`;

/**
 * The (target, acting event) pairs recordAction will most likely ask about with postsOnly, as apply.ts
 * finds them without a read: a reaction's last e tag, a repost's first, a reply's parent by id and the
 * quotes by id. A pair not foreseen (an address resolved at the time, a zap) is read in its turn.
 */
function foreseenTargets(event: NostrEvent): string[] {
  if (event.kind === 7) {
    if (event.content.trim() === '-') return [];
    let last: string | undefined;
    for (const t of event.tags) if (t[0] === 'e' && isHex64(t[1])) last = t[1];
    return last ? [last] : [];
  }
  if (event.kind === 6) {
    const first = event.tags.find((t) => t[0] === 'e' && isHex64(t[1]));
    return first ? [first[1]] : [];
  }
  if (!REPLY_KINDS.has(event.kind)) return [];
  const reply = replyInfo(event);
  const out: string[] = [];
  if (reply?.parent.type === 'e') out.push(reply.parent.value);
  if (event.kind === 1) for (const ref of quotedRefs(event, reply)) if (ref.type === 'e') out.push(ref.value);
  return out;
}

/**
 * Reads the facts of a pipelined group's foreseeable actions (a no-op elsewhere). Returns the stored
 * events it read (the targets and the posts they quote): their authors and the people they mention are
 * whom those actions will most likely notify.
 */
export async function readGroupFacts(tx: Queryable, events: readonly NostrEvent[]): Promise<NostrEvent[]> {
  if (tx.dialect !== 'postgres' || !tx.insertLater) return [];
  const asked: { i: number; target: string; actor: string; pubkey: string }[] = [];
  const keys = new Set<string>();
  for (const event of events) {
    for (const target of foreseenTargets(event)) {
      if (target === event.id || !isHex64(target)) continue;
      const key = factKey(target, event.id, event.pubkey);
      if (keys.has(key)) continue;
      keys.add(key);
      asked.push({ i: asked.length, target, actor: event.id, pubkey: event.pubkey });
    }
  }
  const facts: GroupFacts = { read: new Map(), rows: new Map(), written: new Map(), recorded: new Set(), acted: new Set() };
  groups.set(tx, facts);
  if (asked.length === 0) return [];
  const rows = await tx.all<EventRow & { i: number; recorded: number | null; actions: string | null }>(GROUP_FACTS, [JSON.stringify(asked)]);
  const stored: NostrEvent[] = [];
  for (const r of rows) {
    const a = asked[r.i];
    facts.read.set(factKey(a.target, a.actor, a.pubkey), { recorded: r.recorded != null, actions: new Set(r.actions ? r.actions.split(' ') : []) });
    if (facts.rows.has(a.target)) continue;
    const row = r.id == null ? null : toEvent(r);
    facts.rows.set(a.target, row);
    if (row) stored.push(row);
  }
  // The posts the targets quote by id (quotedPosts reads them for every action on such a target).
  const quoted = new Set<string>();
  for (const target of stored) {
    for (const ref of quotedRefs(target, REPLY_KINDS.has(target.kind) ? replyInfo(target) : null)) {
      if (ref.type === 'e' && ref.value !== target.id && !facts.rows.has(ref.value)) quoted.add(ref.value);
    }
  }
  if (quoted.size > 0) {
    for (const id of quoted) facts.rows.set(id, null);
    const found = await tx.all<EventRow>(EVENTS_BY_ID, [JSON.stringify([...quoted].map((id) => ({ id })))]);
    for (const r of found) {
      const row = toEvent(r);
      facts.rows.set(r.id, row);
      stored.push(row);
    }
  }
  return stored;
}

/** Stored events by id, as LATERAL probes of the primary key. */
export const EVENTS_BY_ID = `SELECT ${EVENT_COLS} FROM json_to_recordset(?::json) AS a(id TEXT)
  JOIN LATERAL (SELECT ${EVENT_COLS} FROM events e WHERE e.id = a.id LIMIT 1) e ON TRUE`;

/**
 * The facts of every foreseen pair: the target's row, and the two probes of actionFactsSql, in one
 * statement. The row comes from a LATERAL probe with LIMIT 1, which the planner cannot turn into a join:
 * a plain LEFT JOIN got a generic plan hashing a full scan of events (query-plans.test.ts).
 */
export const GROUP_FACTS = `SELECT a.i, ${EVENT_COLS},
  (SELECT 1 FROM event_action_refs r WHERE r.event_id = a.target AND r.ref_event_id = a.actor LIMIT 1) AS recorded,
  (SELECT string_agg(r.action, ' ') FROM event_action_refs r WHERE r.event_id = a.target AND r.ref_pubkey = a.pubkey) AS actions
  FROM json_to_recordset(?::json) AS a(i INTEGER, target TEXT, actor TEXT, pubkey TEXT)
  LEFT JOIN LATERAL (SELECT ${EVENT_COLS} FROM events e WHERE e.id = a.target LIMIT 1) e ON TRUE`;

/**
 * recordAction's facts for `actor` on `target` as they stand now, from the group's read and what the
 * group wrote since; undefined when the group has none for the pair (it then reads them itself).
 */
export function groupFactsOf(
  tx: Queryable,
  target: string,
  actor: NostrEvent,
  scoreGroup: readonly string[],
): { stored: NostrEvent | undefined; recorded: boolean; earlier: boolean } | undefined {
  const g = groups.get(tx);
  const key = factKey(target, actor.id, actor.pubkey);
  const f = g?.read.get(key);
  if (!g || !f) return undefined;
  const row = groupEventRow(tx, target) ?? null;
  return {
    stored: row ?? undefined,
    recorded: f.recorded || g.recorded.has(key),
    earlier: scoreGroup.some((a) => f.actions.has(a) || g.acted.has(actedKey(target, actor.pubkey, a))),
  };
}

/**
 * The events row of `id` as it stands now, when the group's reads hold it (null: no such row);
 * undefined when they do not (it is then read as before).
 */
export function groupEventRow(tx: Queryable, id: string): NostrEvent | null | undefined {
  const g = groups.get(tx);
  if (!g) return undefined;
  return g.written.has(id) ? g.written.get(id) : g.rows.get(id);
}

/** recordAction wrote a ref of `actor` on `target`. */
export function noteRecorded(tx: Queryable, target: string, actor: NostrEvent, action: string): void {
  const g = groups.get(tx);
  if (!g) return;
  g.recorded.add(factKey(target, actor.id, actor.pubkey));
  g.acted.add(actedKey(target, actor.pubkey, action));
}

/** applyEvent wrote `event`'s row (or, with `removed`, deleted the row of the version it replaced). */
export function noteEventRow(tx: Queryable, id: string, event: NostrEvent | null): void {
  groups.get(tx)?.written.set(id, event);
}

/** The group did something the read facts do not follow (a deletion, an edited post): read from now on. */
export function dropGroupFacts(tx: Queryable): void {
  groups.delete(tx);
}
