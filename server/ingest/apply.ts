import type { NostrEvent } from '../context.ts';
import type { Queryable, SqlValue } from '../store/db.ts';
import { insertRows, rowInsert, write, writeRows } from '../store/db.ts';
import { dropGroupFacts, noteEventRow } from './action-facts.ts';
import { forgetContactList, recordContactList } from './contact-history.ts';
import { applyDeletion, arrivalOf, type Arrival } from './delete.ts';
import { INDEXERS } from './indexers.ts';
import { hasPointer, parseAddress, pointerD, POST_KINDS, REPLY_KINDS, ZAPPABLE_KINDS } from './kinds.ts';
import { rememberPost, writtenPost } from './post-rows.ts';
import { hasMedia, quotedRefs, replyInfo, type Ref } from './replies.ts';
import { mergeStats, recordAction, STATS_UPSERT, statsWrittenInGroup } from './scores.ts';
import { forgetTargets } from './target-rows.ts';
import { isHex64 } from './verify.ts';
import { parseZapReceipt } from './zaps.ts';

export interface ApplyOutcome {
  ok: boolean;
  reason: string;
  /** Newly stored and the current version, so readers and live subscribers should see it. */
  visible: boolean;
  /** Ids this event deleted (the importer drops them from its dedupe cache). */
  deleted: string[];
}

const MAX_TAG_VALUE = 1024;

/**
 * Stores one event that passed the stateless checks and updates every derived table.
 * Runs inside the batch transaction; throws only on database failure.
 */
export async function applyEvent(tx: Queryable, event: NostrEvent, now: number, known?: Arrival): Promise<ApplyOutcome> {
  // What an earlier attempt at this event read (a group written again) is not this attempt's.
  forgetTargets(event);
  // `known`: read for the whole group beforehand (arrivalsOf), where that answer still holds.
  const arrival = known ?? (await arrivalOf(tx, event));
  if (arrival.tombstoned) return { ok: false, reason: 'blocked: deleted', visible: false, deleted: [] };
  if (arrival.stored) return { ok: true, reason: 'duplicate: already have this event', visible: false, deleted: [] };
  if (event.kind === 3) await recordContactList(tx, event);

  let replaced: string | null = null;
  let replacedAt = 0;
  if (hasPointer(event.kind)) {
    const d = pointerD(event.kind, event.tags);
    // Read before recordContactList's writes, which touch only contact_list_history.
    const current = arrival.current;
    // Newest wins; on a tie the lowest id, for every kind (NIP-01; our decision over Primal's last-import-wins).
    const wins = !current || event.created_at > current.created_at || (event.created_at === current.created_at && event.id < current.event_id);
    // A superseded version is accepted but not kept: storage must not grow with every profile edit.
    if (!wins) return { ok: true, reason: '', visible: false, deleted: [] };
    await write(tx,
      `INSERT INTO replaceable (pubkey, kind, d, event_id, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (pubkey, kind, d) DO UPDATE SET event_id = excluded.event_id, created_at = excluded.created_at`,
      [event.pubkey, event.kind, d, event.id, event.created_at],
    );
    if (current) {
      replaced = current.event_id;
      replacedAt = Number(current.created_at);
      await write(tx, 'DELETE FROM event_tags WHERE event_id = ?', [replaced]);
    }
  }
  const row = [event.id, event.pubkey, event.created_at, event.kind, JSON.stringify(event.tags), event.content, event.sig, now];
  // A pipelined group (PostgreSQL) holds the row for one multi-row statement with the next events' rows,
  // sent before the first statement that names events (insertRows): ~4 rows a statement in the bench mix.
  if (tx.insertLater) {
    tx.insertLater(EVENTS_INSERT, row);
    noteEventRow(tx, event.id, event);
  } else await write(tx, 'INSERT INTO events (id, pubkey, created_at, kind, tags, content, sig, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', row);

  await insertTags(tx, event);

  let deleted: string[] = [];
  if (event.kind === 5) {
    dropGroupFacts(tx);
    deleted = await applyDeletion(tx, event);
    for (const id of deleted) await forgetContactList(tx, id);
  }
  else if (event.kind === 3) await applyFollows(tx, event);
  else if (event.kind === 7) await applyReaction(tx, event, now);
  else if (event.kind === 9735) await applyZap(tx, event, now);
  if (POST_KINDS.has(event.kind)) await applyPost(tx, event, now, replaced);
  // Actions that arrived first left a provisional row; a target that is not a post gets no stats.
  else if (arrival.statsRow || statsWrittenInGroup(tx, event.id)) await write(tx, 'DELETE FROM event_stats WHERE event_id = ?', [event.id]);
  for (const indexer of INDEXERS) {
    for (const id of deleted) await indexer.onDelete?.(tx, id, now);
    await indexer.onEvent(tx, event, now);
  }
  // Only now: indexers diff the new version against the one it replaced (index-followers.ts).
  if (replaced) {
    await write(tx, 'DELETE FROM events WHERE id = ?', [replaced]);
    noteEventRow(tx, replaced, null);
    if (POST_KINDS.has(event.kind)) await keepVersionId(tx, event, replaced, replacedAt);
  }
  return { ok: true, reason: '', visible: true, deleted };
}

/** The indexers' reads for a whole pipelined group, before its first event (Indexer.beforeGroup). */
export async function readGroupAhead(tx: Queryable, events: readonly NostrEvent[], stored: readonly NostrEvent[]): Promise<void> {
  for (const indexer of INDEXERS) await indexer.beforeGroup?.(tx, events, stored);
}

/** Superseded article ids kept per address (read by the thread view and the article stats). */
export const MAX_REPLACED_VERSIONS = 200;

async function keepVersionId(tx: Queryable, event: NostrEvent, replaced: string, replacedAt: number): Promise<void> {
  const d = pointerD(event.kind, event.tags);
  await write(tx,
    'INSERT INTO replaced_versions (pubkey, kind, d, event_id, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    [event.pubkey, event.kind, d, replaced, replacedAt],
  );
  const cut = await tx.get<{ created_at: number | string }>(
    `SELECT created_at FROM replaced_versions WHERE pubkey = ? AND kind = ? AND d = ? ORDER BY created_at DESC LIMIT 1 OFFSET ${MAX_REPLACED_VERSIONS}`,
    [event.pubkey, event.kind, d],
  );
  if (cut) {
    await write(tx, 'DELETE FROM replaced_versions WHERE pubkey = ? AND kind = ? AND d = ? AND created_at <= ?', [event.pubkey, event.kind, d, Number(cut.created_at)]);
  }
}

const EVENTS_INSERT = rowInsert('events', ['id', 'pubkey', 'created_at', 'kind', 'tags', 'content', 'sig', 'imported_at']);
const EVENT_TAGS = rowInsert('event_tags', ['event_id', 'name', 'value', 'kind', 'created_at']);

/**
 * The event's single-letter tags: on PostgreSQL in multi-row statements (with the other events' tags of
 * a pipelined group), on SQLite a statement per tag, which costs a third of the time of multi-row INSERTs
 * there (20,000 demo events: 1.0-1.3 s against 3.1-4.3 s, measured alternating; bench/RESULTS.md,
 * 2026-11-26 12:14).
 */
async function insertTags(tx: Queryable, event: NostrEvent): Promise<void> {
  const rows: SqlValue[][] = [];
  for (const tag of event.tags) {
    const [name, value] = tag;
    if (typeof name !== 'string' || name.length !== 1 || typeof value !== 'string' || value.length > MAX_TAG_VALUE) continue;
    rows.push([event.id, name, value, event.kind, event.created_at]);
  }
  await insertRows(tx, EVENT_TAGS, rows);
}

/** The current event id behind a ref, or null when an address has no known version yet. */
export async function resolveRef(tx: Queryable, ref: Ref): Promise<string | null> {
  if (ref.type === 'e') return ref.value;
  const addr = parseAddress(ref.value);
  if (!addr) return null;
  const row = await tx.get<{ event_id: string }>('SELECT event_id FROM replaceable WHERE pubkey = ? AND kind = ? AND d = ?', [
    addr.pubkey,
    addr.kind,
    addr.d,
  ]);
  return row?.event_id ?? null;
}

/**
 * posts.parent_id of `event`: what applyPost wrote for this very event object, without a query (on
 * PostgreSQL every read waits for a round trip); read from the table for an event applied elsewhere.
 */
export async function postParent(tx: Queryable, event: NostrEvent): Promise<string | null> {
  const written = writtenPost(event);
  if (written) return written.parent;
  const row = await tx.get<{ parent_id: string | null }>('SELECT parent_id FROM posts WHERE event_id = ?', [event.id]);
  return row?.parent_id ?? null;
}

async function applyPost(tx: Queryable, event: NostrEvent, now: number, replaced: string | null): Promise<void> {
  if (replaced) await carryOver(tx, replaced, event.id);
  const reply = REPLY_KINDS.has(event.kind) ? replyInfo(event) : null;
  const parent = reply ? ((await resolveRef(tx, reply.parent)) ?? reply.parent.value) : null;
  const root = reply ? ((await resolveRef(tx, reply.root)) ?? reply.root.value) : null;
  await write(tx,
    `INSERT INTO posts (event_id, pubkey, created_at, kind, is_reply, parent_id, root_id, has_media) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (event_id) DO NOTHING`,
    [event.id, event.pubkey, event.created_at, event.kind, reply ? 1 : 0, parent, root, hasMedia(event) ? 1 : 0],
  );
  // No posts row outlives its event (deletions and new versions remove both), so this is the row now.
  rememberPost(event, parent);
  // Counters may already hold actions that arrived before this event: keep them, fill in who and when.
  // Held in a pipelined group, as the events row (its key is the event's id, once per group).
  const stats = [event.id, event.pubkey, event.created_at, event.kind];
  if (tx.insertLater) tx.insertLater(STATS_UPSERT, [...stats, 0, 0, 0, 0, 0, 0, 0], event.id, mergeStats);
  else await write(tx,
    `INSERT INTO event_stats (event_id, author, created_at, kind) VALUES (?, ?, ?, ?)
     ON CONFLICT (event_id) DO UPDATE SET author = excluded.author, created_at = excluded.created_at, kind = excluded.kind`,
    stats,
  );

  if (event.kind === 6) {
    const first = event.tags.find((t) => t[0] === 'e' && isHex64(t[1]));
    if (first && first[1] !== event.id) await recordAction(tx, now, first[1], event, 'repost', 0, true);
    return;
  }
  if (parent && isHex64(parent) && parent !== event.id) await recordAction(tx, now, parent, event, 'reply', 0, true);
  if (event.kind === 1) {
    for (const ref of quotedRefs(event, reply)) {
      const target = await resolveRef(tx, ref);
      if (target && target !== event.id && target !== parent) await recordAction(tx, now, target, event, 'quote', 0, true);
    }
  }
}

/**
 * A new version of an addressable post (an edited article) inherits the old version's
 * engagement, so counters, scores, viewer flags and zaps follow the address.
 */
async function carryOver(tx: Queryable, oldId: string, newId: string): Promise<void> {
  // Moves the old version's action refs: a group's facts read before (action-facts.ts) no longer hold.
  dropGroupFacts(tx);
  const old = await tx.get<Record<string, number>>(
    'SELECT likes, replies, mentions, reposts, zaps, satszapped, score, score24h FROM event_stats WHERE event_id = ?',
    [oldId],
  );
  if (old) {
    const cols = ['likes', 'replies', 'mentions', 'reposts', 'zaps', 'satszapped', 'score', 'score24h'];
    await write(tx,
      `INSERT INTO event_stats (event_id, author, created_at, kind, ${cols.join(', ')}) VALUES (?, '', 0, 0, ${cols.map(() => '?').join(', ')})
       ON CONFLICT (event_id) DO UPDATE SET ${cols.map((c) => `${c} = event_stats.${c} + excluded.${c}`).join(', ')}`,
      [newId, ...cols.map((c) => Number(old[c]))],
    );
    await write(tx, 'DELETE FROM event_stats WHERE event_id = ?', [oldId]);
  }
  await write(tx,
    'DELETE FROM event_action_refs WHERE event_id = ? AND ref_event_id IN (SELECT ref_event_id FROM event_action_refs WHERE event_id = ?)',
    [oldId, newId],
  );
  await write(tx, 'UPDATE event_action_refs SET event_id = ? WHERE event_id = ?', [newId, oldId]);
  await write(tx, 'DELETE FROM event_actions WHERE event_id = ? AND pubkey IN (SELECT pubkey FROM event_actions WHERE event_id = ?)', [
    oldId,
    newId,
  ]);
  await write(tx, 'UPDATE event_actions SET event_id = ? WHERE event_id = ?', [newId, oldId]);
  await write(tx, 'UPDATE score_expiry SET event_id = ? WHERE event_id = ?', [newId, oldId]);
  await write(tx, 'UPDATE zaps SET target_event_id = ? WHERE target_event_id = ?', [newId, oldId]);
  await write(tx, 'DELETE FROM posts WHERE event_id = ?', [oldId]);
}

async function applyReaction(tx: Queryable, event: NostrEvent, now: number): Promise<void> {
  // Every reaction but "-" is a like (our decision; Primal counts only +, empty, 🤙 and ❤).
  if (event.content.trim() === '-') return;
  // NIP-25: the last e tag is the reacted-to event; earlier ones are thread context.
  let ref: Ref | null = null;
  for (const t of event.tags) if (t[0] === 'e' && isHex64(t[1])) ref = { type: 'e', value: t[1] };
  if (!ref) {
    const a = event.tags.find((t) => t[0] === 'a' && typeof t[1] === 'string' && parseAddress(t[1]));
    if (a) ref = { type: 'a', value: a[1] };
  }
  const target = ref ? await resolveRef(tx, ref) : null;
  if (target) await recordAction(tx, now, target, event, 'like', 0, true);
}

async function applyZap(tx: Queryable, event: NostrEvent, now: number): Promise<void> {
  const parsed = parseZapReceipt(event);
  if (typeof parsed === 'string') return;
  const zap = { ...parsed };
  // A receipt naming the article only by its address counts for the article's current version.
  if (!zap.target && zap.address) zap.target = await resolveRef(tx, { type: 'a', value: zap.address });
  if (zap.target) {
    let target = await tx.get<{ kind: number }>('SELECT kind FROM events WHERE id = ?', [zap.target]);
    if (!target) {
      // A zap on an edited article's old version counts for the version that replaced it (not kept in events).
      const current = await tx.get<{ event_id: string; kind: number }>(
        `SELECT r.event_id, r.kind FROM replaced_versions v JOIN replaceable r ON r.pubkey = v.pubkey AND r.kind = v.kind AND r.d = v.d
         WHERE v.event_id = ?`,
        [zap.target],
      );
      if (current) {
        zap.target = current.event_id;
        target = { kind: Number(current.kind) };
      }
    }
    if (!target || !ZAPPABLE_KINDS.has(target.kind)) return;
  }
  await write(tx,
    `INSERT INTO zaps (receipt_id, target_event_id, sender, receiver, amount_sats, created_at, message) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (receipt_id) DO NOTHING`,
    [zap.receiptId, zap.target, zap.sender, zap.receiver, zap.amountSats, zap.createdAt, zap.message],
  );
  if (zap.target) {
    // The zapper is the zap request's author, not the lightning service that signed the receipt.
    await recordAction(tx, now, zap.target, { ...event, pubkey: zap.sender }, 'zap', zap.amountSats);
  }
}

/** Diffs the follow graph against the author's new current contact list. */
async function applyFollows(tx: Queryable, event: NostrEvent): Promise<void> {
  const next = new Set<string>();
  for (const t of event.tags) if (t[0] === 'p' && isHex64(t[1])) next.add(t[1]);
  const rows = await tx.all<{ follows: string }>('SELECT follows FROM follows WHERE pubkey = ?', [event.pubkey]);
  const before = new Set(rows.map((r) => r.follows));
  // A contact list holds hundreds of follows: rows go in and out a statement per chunk, not per follow.
  const gone = [...before].filter((pk) => !next.has(pk));
  for (let i = 0; i < gone.length; i += FOLLOW_CHUNK) {
    const chunk = gone.slice(i, i + FOLLOW_CHUNK);
    await write(tx, `DELETE FROM follows WHERE pubkey = ? AND follows IN (${chunk.map(() => '?').join(', ')})`, [event.pubkey, ...chunk]);
  }
  const added = [...next].filter((pk) => !before.has(pk)).map((pk) => [event.pubkey, pk]);
  await writeRows(tx, (values) => `INSERT INTO follows (pubkey, follows) VALUES ${values} ON CONFLICT DO NOTHING`, 2, added);
}

/** Unfollowed pubkeys per DELETE (well below either store's limit on parameters). */
const FOLLOW_CHUNK = 500;

