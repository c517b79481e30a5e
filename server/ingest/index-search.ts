/**
 * Keeps the full-text search index (server/search, server/store/search-schema.ts) in step with the
 * store: every note, article, media post and profile gets a search_docs row and its folded text in
 * the engine's index (FTS5 on SQLite, a tsvector on PostgreSQL); a newer version of a replaceable or
 * addressable event replaces the older one's, and deletions take them away.
 */
import type { NostrEvent } from '../context.ts';
import type { Queryable, SqlValue } from '../store/db.ts';
import { write } from '../store/db.ts';
import { countWords, docKey, hashtagsOf, indexText, mediaFlags, tagToken, terms } from '../search/tokens.ts';
import { PG_TS_CONFIG } from '../store/search-schema.ts';
import type { Indexer } from './indexers.ts';
import { writtenPost } from './post-rows.ts';
import { addressOf, hasPointer, pointerD, REPLY_KINDS } from './kinds.ts';

/** Kinds whose text is searchable: notes, comments, pictures, videos, articles and profiles. */
export const SEARCH_KINDS = new Set([0, 1, 20, 1111, 30023, 34235, 34236]);
/** Profile fields user_search matches (S §3.3). */
const NAME_FIELDS = ['name', 'display_name', 'displayName', 'username', 'nip05', 'lud16'];
/** Terms past this are not indexed: a book-length article costs no more than a long one. */
const MAX_TERMS = 3000;
/** A reply of at least this many characters counts for minlongreplies:. */
export const LONG_REPLY_CHARS = 100;

function tagValue(tags: string[][], name: string): string {
  const t = tags.find((x) => x[0] === name && typeof x[1] === 'string');
  return t ? t[1] : '';
}

function profileFields(content: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(content);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) if (typeof v === 'string') out[k] = v.slice(0, 2000);
    return out;
  } catch {
    return {};
  }
}

/** The searchable text of an event, as separate fields so a phrase never spans two of them. */
function searchText(event: Pick<NostrEvent, 'kind' | 'tags' | 'content'>): string[] {
  if (event.kind === 0) {
    const f = profileFields(event.content);
    return [...NAME_FIELDS.map((k) => f[k] ?? ''), f.about ?? ''];
  }
  if (event.kind === 30023) return [tagValue(event.tags, 'title'), tagValue(event.tags, 'summary'), event.content];
  if (event.kind === 20 || event.kind === 34235 || event.kind === 34236) return [tagValue(event.tags, 'title'), event.content];
  return [event.content];
}

/** The folded text the engine indexes of an event, fields apart (search_fts.body, search_docs.fts). */
export function searchBody(event: Pick<NostrEvent, 'kind' | 'tags' | 'content'>): string {
  return indexText(searchText(event), MAX_TERMS);
}

/** What the engine indexes of an event: its text and its hashtags. */
export function searchFields(event: Pick<NostrEvent, 'kind' | 'tags' | 'content'>): { body: string; tags: string[] } {
  return { body: searchBody(event), tags: event.kind === 0 ? [] : hashtagsOf(event.tags, event.content) };
}

/** user_search's words of a profile: the folded words of its name fields, space-separated. */
export function userNames(content: string): string {
  const f = profileFields(content);
  const words = new Set<string>();
  for (const k of NAME_FIELDS) for (const t of terms(f[k] ?? '')) words.add(t);
  return [...words].join(' ');
}

interface DocRow {
  doc: number;
  event_id: string;
  pubkey: string;
  kind: number;
  address: string;
  parent_id: string | null;
  long_reply: number;
}

const DOC_COLS = 'doc, event_id, pubkey, kind, address, parent_id, long_reply';

async function removeDoc(tx: Queryable, doc: DocRow): Promise<void> {
  if (tx.dialect === 'sqlite') await write(tx, 'DELETE FROM search_fts WHERE rowid = ?', [doc.doc]);
  await write(tx, 'DELETE FROM search_docs WHERE doc = ?', [doc.doc]);
  if (Number(doc.long_reply) && doc.parent_id) {
    await write(tx, 'UPDATE search_docs SET long_replies = long_replies - 1 WHERE event_id = ? AND long_replies > 0', [doc.parent_id]);
  }
}

/** Lightning addresses past this are refused by user_of_ln_address, so none is kept. */
export const MAX_LN_CHARS = 320;

/** The lud16 user_of_ln_address looks up: trimmed and lowercased, as the command's argument is. */
function lnAddressOf(fields: Record<string, string>): string | null {
  const addr = (fields.lud16 ?? '').trim().toLowerCase();
  return addr && addr.length <= MAX_LN_CHARS ? addr : null;
}

async function removeUser(tx: Queryable, pubkey: string): Promise<void> {
  if (tx.dialect === 'sqlite') {
    const old = await tx.get<{ id: number }>('SELECT id FROM search_users WHERE pubkey = ?', [pubkey]);
    if (old) await write(tx, 'DELETE FROM search_user_fts WHERE rowid = ?', [old.id]);
  }
  await write(tx, 'DELETE FROM search_users WHERE pubkey = ?', [pubkey]);
}

/** user_search's row of a profile (search-schema.ts userSchema): its name words and its lightning address. */
async function indexUser(tx: Queryable, pubkey: string, content: string): Promise<void> {
  const names = userNames(content);
  const lud16 = lnAddressOf(profileFields(content));
  if (tx.dialect === 'sqlite') {
    await removeUser(tx, pubkey);
    const row = await tx.get<{ id: number }>('INSERT INTO search_users (pubkey, lud16) VALUES (?, ?) RETURNING id', [pubkey, lud16]);
    await write(tx, 'INSERT INTO search_user_fts (rowid, names) VALUES (?, ?)', [row!.id, names]);
    return;
  }
  // Lexemes as they are: the words are folded already, and a name is not stemmed.
  await write(tx,
    `INSERT INTO search_users (pubkey, lud16, names) VALUES (?, ?, array_to_tsvector(string_to_array(?, ' ')))
     ON CONFLICT (pubkey) DO UPDATE SET lud16 = excluded.lud16, names = excluded.names`,
    [pubkey, lud16, names],
  );
}

const DOC_INSERT_COLS =
  'doc, event_id, pubkey, kind, created_at, address, is_reply, parent_id, chars, words, long_reply, long_replies, has_image, has_video, has_audio, has_url, has_summary';
const SQLITE_DOC_INSERT = `INSERT INTO search_docs (${DOC_INSERT_COLS}) VALUES (${DOC_INSERT_COLS.split(',').map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`;
// The text is folded and split already (tokens.ts), so PostgreSQL's parser sees plain words; tags are
// lexemes as they are ('#tag'), which no parsed word can equal.
const PG_DOC_INSERT = `INSERT INTO search_docs (${DOC_INSERT_COLS}, fts)
  VALUES (${DOC_INSERT_COLS.split(',').map(() => '?').join(', ')}, to_tsvector('${PG_TS_CONFIG}', ?) || array_to_tsvector(string_to_array(?, ' ')))
  ON CONFLICT DO NOTHING`;

/** Events of one second share a key now and then: the next free key keeps both (key order stays time order). */
const MAX_KEY_PROBES = 64;

/**
 * PG_DOC_INSERT with the first free key of doc … doc + MAX_KEY_PROBES chosen by PostgreSQL (see
 * indexEvent); none free leaves doc NULL, which its NOT NULL refuses. The keys taken are read as one
 * range of the primary key (the bounds come twice): a NOT EXISTS per candidate becomes an anti join,
 * and the generic plan PostgreSQL settles on after five runs of the prepared statement hashed the whole
 * of search_docs for it on every insert (73 % of PostgreSQL's time at 10k events). NOT IN is never
 * turned into a join. `longReplies`: the value of that column, a parameter or an expression.
 */
function freeKeyInsert(longReplies: string): string {
  const values = DOC_INSERT_COLS.split(', ').slice(1).map((col) => (col === 'long_replies' ? longReplies : '?'));
  return `INSERT INTO search_docs (${DOC_INSERT_COLS}, fts)
  VALUES ((SELECT k FROM generate_series(?::bigint, ?::bigint) AS k
           WHERE k NOT IN (SELECT s.doc FROM search_docs s WHERE s.doc BETWEEN ?::bigint AND ?::bigint) ORDER BY k LIMIT 1),
          ${values.join(', ')}, to_tsvector('${PG_TS_CONFIG}', ?) || array_to_tsvector(string_to_array(?, ' ')))
  ON CONFLICT (event_id) DO NOTHING`;
}
/** `insert`, and the parent's count of long replies goes up when the doc is new. */
const countingParent = (insert: string) => `WITH added AS (${insert} RETURNING 1)
  UPDATE search_docs SET long_replies = long_replies + 1 WHERE event_id = ? AND EXISTS (SELECT 1 FROM added)`;
export const PG_DOC_INSERT_FREE_KEY = freeKeyInsert('?');
export const PG_DOC_INSERT_FREE_KEY_LONG = countingParent(PG_DOC_INSERT_FREE_KEY);

const POST_OF =
  '(SELECT is_reply FROM posts WHERE event_id = ?) AS is_reply, (SELECT parent_id FROM posts WHERE event_id = ?) AS parent_id';
const EARLIER_COUNT = '(SELECT COUNT(*) FROM posts p JOIN search_docs r ON r.event_id = p.event_id WHERE p.parent_id = ? AND r.long_reply = 1)';
const EARLIER_LONG_REPLIES = `${EARLIER_COUNT} AS n`;

/** Position of long_replies among DOC_INSERT_COLS. */
const LONG_REPLIES_AT = DOC_INSERT_COLS.split(', ').indexOf('long_replies');
/**
 * The free-key inserts with long_replies counted in the statement (its one parameter is the event id):
 * the count reads what every statement queued before it wrote, as the read it replaces did, and the
 * pipelined import waits for no answer (a read per indexed event was a third of its round trips).
 */
export const PG_DOC_INSERT_FREE_KEY_COUNTING = freeKeyInsert(EARLIER_COUNT);
export const PG_DOC_INSERT_FREE_KEY_LONG_COUNTING = countingParent(PG_DOC_INSERT_FREE_KEY_COUNTING);

async function indexEvent(tx: Queryable, event: NostrEvent, users = true): Promise<void> {
  if (!SEARCH_KINDS.has(event.kind)) return;
  let address = '';
  if (hasPointer(event.kind)) {
    address = addressOf(event.kind, event.pubkey, pointerD(event.kind, event.tags));
    // The importer only calls indexers for the winning version, so whatever is indexed under the address is older.
    const mine = await tx.all<DocRow>(`SELECT ${DOC_COLS} FROM search_docs WHERE pubkey = ? AND kind = ?`, [event.pubkey, event.kind]);
    for (const doc of mine) if (doc.address === address && doc.event_id !== event.id) await removeDoc(tx, doc);
  }
  if (event.kind === 0 && users) await indexUser(tx, event.pubkey, event.content);

  // Its own posts row (a reply's parent) and the long replies that arrived before it (posts has the
  // parent index), in one query where both are wanted: on PostgreSQL every query is a round trip.
  // A pipelined import (PostgreSQL) reads neither: the posts row is the one applyPost just wrote, and
  // the count goes into the insert (PG_DOC_INSERT_FREE_KEY_COUNTING).
  const pipelined = tx.dialect === 'postgres' && tx.write !== undefined;
  const written = REPLY_KINDS.has(event.kind) && pipelined ? writtenPost(event) : undefined;
  const wantPost = REPLY_KINDS.has(event.kind) && !written;
  const countEarlier = event.kind !== 0;
  const wantEarlier = countEarlier && !pipelined;
  const known =
    wantPost || wantEarlier
      ? await tx.get<{ is_reply: number | null; parent_id: string | null; n: number | string | null }>(
          `SELECT ${wantPost ? POST_OF : 'NULL AS is_reply, NULL AS parent_id'}, ${wantEarlier ? EARLIER_LONG_REPLIES : 'NULL AS n'}`,
          [...(wantPost ? [event.id, event.id] : []), ...(wantEarlier ? [event.id] : [])],
        )
      : undefined;
  const isReply = written ? written.isReply : Number(known?.is_reply ?? 0) ? 1 : 0;
  const parent = isReply ? (written ? written.parent : (known?.parent_id ?? null)) : null;
  const chars = [...event.content].length;
  const longReply = isReply && parent && chars >= LONG_REPLY_CHARS ? 1 : 0;
  const media = event.kind === 0 ? { image: false, video: false, audio: false, url: false } : mediaFlags(event.kind, event.tags, event.content);
  const earlier = wantEarlier ? { n: known?.n ?? 0 } : undefined;
  const hasSummary = event.kind === 30023 && tagValue(event.tags, 'summary').trim() !== '' ? 1 : 0;
  const { body, tags } = searchFields(event);

  const values: SqlValue[] = [
    0, event.id, event.pubkey, event.kind, event.created_at, address, isReply, parent, chars,
    event.kind === 0 ? 0 : countWords(event.content), longReply, Number(earlier?.n ?? 0),
    media.image ? 1 : 0, media.video ? 1 : 0, media.audio ? 1 : 0, media.url ? 1 : 0, hasSummary,
  ];
  const sqlite = tx.dialect === 'sqlite';
  if (!sqlite) values.push(body, tags.map((t) => `#${t}`).join(' '));
  let doc = docKey(event.id, event.created_at);
  if (!sqlite && tx.write) {
    // A pipelined import (PostgreSQL): the free key is found in the statement, so nothing waits for its
    // answer. A key taken meanwhile by another process, or no free key in reach, is a unique violation
    // on doc: the group is then written again one event at a time, through the loop below.
    const [, ...rest] = values;
    if (countEarlier) rest[LONG_REPLIES_AT - 1] = event.id;
    const sql = countEarlier
      ? (longReply ? PG_DOC_INSERT_FREE_KEY_LONG_COUNTING : PG_DOC_INSERT_FREE_KEY_COUNTING)
      : (longReply ? PG_DOC_INSERT_FREE_KEY_LONG : PG_DOC_INSERT_FREE_KEY);
    await write(tx, sql, [doc, doc + MAX_KEY_PROBES, doc, doc + MAX_KEY_PROBES, ...rest, ...(longReply ? [parent] : [])]);
    return;
  }
  for (let probe = 0; ; probe++, doc++) {
    values[0] = doc;
    if ((await tx.run(sqlite ? SQLITE_DOC_INSERT : PG_DOC_INSERT, values)).changes > 0) break;
    // Nothing inserted: either this event is indexed already, or another one holds the key.
    if (probe >= MAX_KEY_PROBES || (await tx.get('SELECT 1 AS x FROM search_docs WHERE event_id = ?', [event.id]))) return;
  }
  if (sqlite) await write(tx, 'INSERT INTO search_fts (rowid, body, tags) VALUES (?, ?, ?)', [doc, body, tags.map(tagToken).join(' ')]);
  if (longReply) await write(tx, 'UPDATE search_docs SET long_replies = long_replies + 1 WHERE event_id = ?', [parent]);
}

/** Events per page while a schema upgrade fills the index. */
const REBUILD_PAGE = 2000;

/**
 * Fills search_docs and the engine's index from the stored events (the upgrade from the term tables
 * of schema 3). Only current versions of replaceable and addressable events, oldest first, as the
 * importer would have indexed them; user_search's index is rebuildUserIndex's.
 */
async function rebuildSearchIndex(tx: Queryable): Promise<number> {
  const kinds = [...SEARCH_KINDS];
  let after: { at: number; id: string } = { at: -1, id: '' };
  let count = 0;
  for (;;) {
    const rows = await tx.all<NostrEvent & { tags: string; current: string | null }>(
      `SELECT e.id, e.pubkey, e.created_at, e.kind, e.tags, e.content, e.sig, r.event_id AS current FROM events e
       LEFT JOIN replaceable r ON r.pubkey = e.pubkey AND r.kind = e.kind AND r.event_id = e.id
       WHERE e.kind IN (${kinds.map(() => '?').join(', ')}) AND (e.created_at > ? OR (e.created_at = ? AND e.id > ?))
       ORDER BY e.created_at, e.id LIMIT ${REBUILD_PAGE}`,
      [...kinds, after.at, after.at, after.id],
    );
    for (const row of rows) {
      if (hasPointer(row.kind) && !row.current) continue;
      const event: NostrEvent = { ...row, created_at: Number(row.created_at), kind: Number(row.kind), tags: JSON.parse(row.tags) as string[][] };
      await indexEvent(tx, event, false);
      count++;
    }
    if (rows.length < REBUILD_PAGE) return count;
    const last = rows[rows.length - 1];
    after = { at: Number(last.created_at), id: last.id };
  }
}

/**
 * Fills user_search's index from each user's current kind 0 (the upgrade from search_user_terms of
 * schema 4), a page of pubkeys at a time.
 */
async function rebuildUserIndex(tx: Queryable): Promise<number> {
  let after = '';
  let count = 0;
  for (;;) {
    const rows = await tx.all<{ pubkey: string; content: string }>(
      `SELECT e.pubkey, e.content FROM replaceable r JOIN events e ON e.id = r.event_id
       WHERE r.kind = 0 AND r.d = '' AND r.pubkey > ? ORDER BY r.pubkey LIMIT ${REBUILD_PAGE}`,
      [after],
    );
    for (const row of rows) await indexUser(tx, row.pubkey, row.content);
    count += rows.length;
    if (rows.length < REBUILD_PAGE) return count;
    after = rows[rows.length - 1].pubkey;
  }
}

/** Refills what the upgrade from schema `from` dropped (search-schema.ts tablesDroppedFrom). */
export async function upgradeSearch(tx: Queryable, from: number): Promise<void> {
  if (from <= 3) await rebuildSearchIndex(tx);
  await rebuildUserIndex(tx);
}

export const searchIndexer: Indexer = {
  name: 'search',
  onEvent: (tx, event) => indexEvent(tx, event),
  async onDelete(tx, deletedId) {
    const doc = await tx.get<DocRow>(`SELECT ${DOC_COLS} FROM search_docs WHERE event_id = ?`, [deletedId]);
    if (!doc) return;
    await removeDoc(tx, doc);
    if (Number(doc.kind) === 0) await removeUser(tx, doc.pubkey);
  },
};
