/**
 * Notifications at import (S §3.8). Every recipient is notified, not only users with stored
 * app settings (our decision: a new user sees what happened before they first signed in),
 * but stored settings and the recipient's own mute list are honoured.
 */
import { inChunks, replaceableOf, sqlMarks, toEvent, type EventRow } from '../cache/data.ts';
import { extractRefs } from '../cache/refs.ts';
import type { NostrEvent } from '../context.ts';
import { parseSettingsContent } from '../moderation/settings-store.ts';
import type { Queryable, RowInsert } from '../store/db.ts';
import { insertRows, write } from '../store/db.ts';
import type { Indexer } from './indexers.ts';
import { MENTIONING_KINDS, notificationsFrom, type Candidate, type Sourced } from './notification-sources.ts';
import { makeNotification, N, TYPE_NAMES } from './notification-types.ts';
import { GROUP_RECIPIENTS } from './recipients-sql.ts';
import { isHex64 } from './verify.ts';

interface Prefs {
  off: Set<number>;
  ignoreCrowded: boolean;
  deepReplies: boolean;
  reactionsFromFollowsOnly: boolean;
}

interface Mutes {
  pubkeys: Set<string>;
  threads: Set<string>;
  hashtags: Set<string>;
  words: string[];
}

const DEFAULT_PREFS: Prefs = { off: new Set(), ignoreCrowded: true, deepReplies: true, reactionsFromFollowsOnly: false };
const REACTION_TYPES = new Set<number>([N.LIKED, N.MENTIONED_POST_LIKED, N.QUOTING_POST_LIKED]);
const NAME_TO_TYPE = new Map([...TYPE_NAMES].map(([type, name]) => [name, type]));

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** Settings as stored by set_app_settings: the signed event, whose content is the settings JSON. */
function parsePrefs(stored: string): Prefs {
  try {
    const ev = record(JSON.parse(stored));
    const settings = typeof ev?.content === 'string' ? parseSettingsContent(ev.content) : undefined;
    if (!settings) return DEFAULT_PREFS;
    const off = new Set<number>();
    const switches = record(settings.notifications) ?? {};
    for (const [name, on] of Object.entries(switches)) {
      const type = NAME_TO_TYPE.get(name);
      if (type !== undefined && on === false) off.add(type);
    }
    const extra = record(settings.notificationsAdditional) ?? {};
    return {
      off,
      ignoreCrowded: extra.ignore_events_with_too_many_mentions !== false,
      deepReplies: extra.include_deep_replies !== false,
      reactionsFromFollowsOnly: extra.only_show_reactions_from_users_i_follow === true,
    };
  } catch {
    return DEFAULT_PREFS;
  }
}

async function prefsOf(tx: Queryable, pubkeys: string[]): Promise<Map<string, Prefs>> {
  const rows = await inChunks(pubkeys, (chunk, marks) =>
    tx.all<{ pubkey: string; event: string }>(`SELECT pubkey, event FROM app_settings WHERE pubkey IN (${marks})`, chunk),
  );
  return new Map(rows.map((r) => [r.pubkey, parsePrefs(r.event)]));
}

/** The recipient's public mute list (kind 10000): people, threads, hashtags and words. */
export function mutesOf(list: NostrEvent | undefined): Mutes {
  const m: Mutes = { pubkeys: new Set(), threads: new Set(), hashtags: new Set(), words: [] };
  for (const t of list?.tags ?? []) {
    const v = t[1];
    if (typeof v !== 'string' || v === '') continue;
    if (t[0] === 'p') m.pubkeys.add(v);
    else if (t[0] === 'e') m.threads.add(v);
    else if (t[0] === 't') m.hashtags.add(v.toLowerCase());
    else if (t[0] === 'word') m.words.push(v.toLowerCase());
  }
  return m;
}

function muted(m: Mutes, c: Candidate, s: Sourced, lowerText: string): boolean {
  if (m.pubkeys.has(c.initiator)) return true;
  if (s.threadIds.some((id) => m.threads.has(id))) return true;
  if (s.hashtags.some((h) => m.hashtags.has(h))) return true;
  return m.words.some((w) => lowerText.includes(w));
}

async function followersAmong(tx: Queryable, initiator: string, pubkeys: string[]): Promise<Set<string>> {
  if (!pubkeys.length) return new Set();
  const rows = await inChunks(pubkeys, (chunk, marks) =>
    tx.all<{ pubkey: string }>(`SELECT pubkey FROM follows WHERE follows = ? AND pubkey IN (${marks})`, [initiator, ...chunk]),
  );
  return new Set(rows.map((r) => r.pubkey));
}

interface RecipientRows {
  prefs: Prefs | undefined;
  mutes: NostrEvent | undefined;
}

/**
 * Recipients' settings and mute lists as read earlier in the same pipelined group (PostgreSQL), by
 * transaction: a group of reactions notifies the same authors again and again, and every read there
 * waits for a round trip. A mute list the group brings (or a deletion, which may remove one) drops what
 * was kept; app settings are written only outside the importer (set_app_settings), so one saved while a
 * group is written counts from the next group on, as if it had come a moment later.
 */
const groupRows = new WeakMap<Queryable, Map<string, RecipientRows>>();

/** prefsOf and the mute lists of `recipients`, together: on PostgreSQL both go out in one write. */
async function recipientRows(tx: Queryable, recipients: string[]): Promise<Map<string, RecipientRows>> {
  const kept = tx.insertLater ? groupRows.get(tx) : undefined;
  const missing = kept ? recipients.filter((r) => !kept.has(r)) : recipients;
  const rows = new Map<string, RecipientRows>();
  if (missing.length > 0) {
    const [prefs, mutes] = await Promise.all([prefsOf(tx, missing), replaceableOf(tx, 10000, missing)]);
    for (const r of missing) rows.set(r, { prefs: prefs.get(r), mutes: mutes.get(r) });
  }
  if (!tx.insertLater) return rows;
  const group = kept ?? new Map<string, RecipientRows>();
  if (!kept) groupRows.set(tx, group);
  for (const [r, row] of rows) group.set(r, row);
  return group;
}

/**
 * The settings and mute lists of a pipelined group's likely recipients (PostgreSQL), read in one statement
 * before its first event: the people its events p-tag or mention in their text, and the authors of the
 * stored events its actions name (`stored`, from action-facts.ts) and the people those mention. Read
 * lazily, a note's recipients cost an awaited read each (12,000 in the bench's notes), and the mute
 * list's read named `events`, which sent the group's held events rows a statement at a time. The same
 * rows as recipientRows reads at the first need (the group's own mute lists and deletions drop them
 * alike); recipients not foreseen are read then.
 */
async function readGroupRecipients(tx: Queryable, events: readonly NostrEvent[], stored: readonly NostrEvent[]): Promise<void> {
  if (tx.dialect !== 'postgres' || !tx.insertLater) return;
  const pubkeys = new Set<string>();
  for (const ev of events) {
    for (const t of ev.tags) if (t[0] === 'p' && isHex64(t[1])) pubkeys.add(t[1]);
    if (MENTIONING_KINDS.has(ev.kind)) for (const pk of extractRefs(ev).pubkeys) pubkeys.add(pk);
  }
  for (const ev of stored) {
    pubkeys.add(ev.pubkey);
    for (const pk of extractRefs(ev).pubkeys) pubkeys.add(pk);
  }
  if (pubkeys.size === 0) return;
  const asked = [...pubkeys].map((pubkey) => ({ pubkey }));
  const rows = await tx.all<{ recipient: string; settings: string | null } & Partial<EventRow>>(GROUP_RECIPIENTS, [JSON.stringify(asked)]);
  const group = new Map<string, RecipientRows>();
  for (const r of rows) {
    group.set(r.recipient, { prefs: r.settings == null ? undefined : parsePrefs(r.settings), mutes: r.id == null ? undefined : toEvent(r as EventRow) });
  }
  groupRows.set(tx, group);
}

/** One notification per recipient and event: the first candidate wins, so sources list the most specific first. */
async function gate(tx: Queryable, s: Sourced): Promise<Candidate[]> {
  const first = new Map<string, Candidate>();
  for (const c of s.candidates) if (c.recipient !== c.initiator && !first.has(c.recipient)) first.set(c.recipient, c);
  if (!first.size) return [];
  const recipients = [...first.keys()];
  const rows = await recipientRows(tx, recipients);
  const prefs = (r: string) => rows.get(r)?.prefs ?? DEFAULT_PREFS;
  const wantFollows = recipients.filter((r) => prefs(r).reactionsFromFollowsOnly && REACTION_TYPES.has(first.get(r)!.type));
  const followers = await followersAmong(tx, s.candidates[0].initiator, wantFollows);
  const lowerText = s.text.toLowerCase();
  const kept: Candidate[] = [];
  for (const c of first.values()) {
    const p = prefs(c.recipient);
    if (p.off.has(c.type)) continue;
    if (c.crowded && p.ignoreCrowded) continue;
    if (c.type === N.REPLY_TO_REPLY && !p.deepReplies) continue;
    if (p.reactionsFromFollowsOnly && REACTION_TYPES.has(c.type) && !followers.has(c.recipient)) continue;
    if (muted(mutesOf(rows.get(c.recipient)?.mutes), c, s, lowerText)) continue;
    kept.push(c);
  }
  return kept;
}

/** PostgreSQL: notifications in, and their counters moved for the new ones only, in one statement. */
const pgNotify = (values: string) => `WITH added AS (
    INSERT INTO notifications (pubkey, id, created_at, type, source_id, content) VALUES ${values}
    ON CONFLICT (pubkey, id) DO NOTHING RETURNING pubkey, type)
  INSERT INTO notification_counts (pubkey, type, cnt) SELECT pubkey, type, COUNT(*) FROM added GROUP BY pubkey, type
  ON CONFLICT (pubkey, type) DO UPDATE SET cnt = notification_counts.cnt + excluded.cnt`;

const PG_NOTIFY: RowInsert = { table: 'notifications', width: 6, sql: pgNotify };

async function onEvent(tx: Queryable, ev: NostrEvent): Promise<void> {
  if (ev.kind === 10000) groupRows.get(tx)?.delete(ev.pubkey);
  const sourced = await notificationsFrom(tx, ev);
  if (!sourced) return;
  const rows = (await gate(tx, sourced)).map((c) => {
    const n = makeNotification(c.recipient, sourced.createdAt, c.type, c.args);
    return [c.recipient, n.id, n.created_at, n.type, ev.id, JSON.stringify(n)];
  });
  if (tx.dialect === 'postgres') {
    // A contact list notifies every followed user: a statement per up to 64 of them, none awaited in a
    // pipelined import, and the rows of a group's events go together (insertRows). No key is needed:
    // DO NOTHING takes a repeated (pubkey, id) in one statement, and the counters are grouped first.
    // Held rows go out before any statement naming `notifications`; the only other statement on
    // notification_counts in an import (take-back, onDelete) reads `notifications` before it.
    await insertRows(tx, PG_NOTIFY, rows);
    return;
  }
  for (const row of rows) {
    const inserted = await tx.run(
      `INSERT INTO notifications (pubkey, id, created_at, type, source_id, content) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (pubkey, id) DO NOTHING`,
      row,
    );
    if (!inserted.changes) continue;
    await write(tx,
      `INSERT INTO notification_counts (pubkey, type, cnt) VALUES (?, ?, 1)
       ON CONFLICT (pubkey, type) DO UPDATE SET cnt = notification_counts.cnt + 1`,
      [row[0], row[3]],
    );
  }
}

/** Upper bound on what one deleted event can have notified (MAX_NEW_FOLLOWS plus headroom). */
const MAX_TAKE_BACK = 5000;

/** Takes back what a deleted event notified; counters only for notifications not yet seen. */
async function onDelete(tx: Queryable, deletedId: string): Promise<void> {
  groupRows.get(tx)?.clear();
  const rows = await tx.all<{ pubkey: string; type: number; created_at: number | string }>(
    `SELECT pubkey, type, created_at FROM notifications WHERE source_id = ? LIMIT ${MAX_TAKE_BACK}`,
    [deletedId],
  );
  if (!rows.length) return;
  const pubkeys = [...new Set(rows.map((r) => r.pubkey))];
  const seenRows = await inChunks(pubkeys, (chunk) =>
    tx.all<{ pubkey: string; seen_until: number | string }>(
      `SELECT pubkey, seen_until FROM notifications_seen WHERE pubkey IN (${sqlMarks(chunk.length)})`,
      chunk,
    ),
  );
  const seen = new Map(seenRows.map((r) => [r.pubkey, Number(r.seen_until)]));
  for (const r of rows) {
    if (Number(r.created_at) <= (seen.get(r.pubkey) ?? -1)) continue;
    await write(tx, 'UPDATE notification_counts SET cnt = cnt - 1 WHERE pubkey = ? AND type = ? AND cnt > 0', [r.pubkey, Number(r.type)]);
  }
  await write(tx, 'DELETE FROM notifications WHERE source_id = ?', [deletedId]);
}

export const notificationIndexer: Indexer = {
  name: 'notifications',
  onEvent: (tx, ev) => onEvent(tx, ev),
  onDelete: (tx, id) => onDelete(tx, id),
  beforeGroup: (tx, events, stored) => readGroupRecipients(tx, events, stored),
};
