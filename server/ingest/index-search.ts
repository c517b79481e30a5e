/**
 * Keeps the full-text search tables (server/search) in step with the store: every note,
 * article, media post and profile is tokenised at import, a newer version of a replaceable
 * or addressable event replaces the older one's rows, and deletions take rows away.
 */
import type { NostrEvent } from '../context.ts';
import type { Queryable, SqlValue } from '../store/db.ts';
import { countWords, docKey, hashtagsOf, mediaFlags, terms, tokenize } from '../search/tokens.ts';
import type { Indexer } from './indexers.ts';
import { addressOf, hasPointer, pointerD, REPLY_KINDS } from './kinds.ts';

/** Kinds whose text is searchable: notes, comments, pictures, videos, articles and profiles. */
export const SEARCH_KINDS = new Set([0, 1, 20, 1111, 30023, 34235, 34236]);
/** Profile fields user_search matches (S §3.3). */
const NAME_FIELDS = ['name', 'display_name', 'displayName', 'username', 'nip05', 'lud16'];
/** Positions past this are not indexed: a book-length article costs no more than a long one. */
const MAX_POSITIONS = 3000;
/** A reply of at least this many characters counts for minlongreplies:. */
export const LONG_REPLY_CHARS = 100;
/** Rows per multi-row INSERT; keeps PostgreSQL well under its bind-parameter limit. */
const ROWS_PER_INSERT = 200;
/** Keys per IN (...) list when removing a document's rows. */
const DELETE_CHUNK = 300;

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
function searchText(event: NostrEvent): string[] {
  if (event.kind === 0) {
    const f = profileFields(event.content);
    return [...NAME_FIELDS.map((k) => f[k] ?? ''), f.about ?? ''];
  }
  if (event.kind === 30023) return [tagValue(event.tags, 'title'), tagValue(event.tags, 'summary'), event.content];
  if (event.kind === 20 || event.kind === 34235 || event.kind === 34236) return [tagValue(event.tags, 'title'), event.content];
  return [event.content];
}

async function insertRows(tx: Queryable, table: string, cols: string[], rows: SqlValue[][]): Promise<void> {
  const one = `(${cols.map(() => '?').join(', ')})`;
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + ROWS_PER_INSERT);
    await tx.run(
      `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${chunk.map(() => one).join(', ')} ON CONFLICT DO NOTHING`,
      chunk.flat(),
    );
  }
}

interface DocRow {
  event_id: string;
  pubkey: string;
  kind: number;
  address: string;
  parent_id: string | null;
  long_reply: number;
  terms: string;
}

const DOC_COLS = 'event_id, pubkey, kind, address, parent_id, long_reply, terms';

/** Deletes by primary key, chunked: the document's own term list says which keys it has. */
async function deleteKeys(tx: Queryable, table: string, col: string, keys: string[], eventId: string): Promise<void> {
  for (let i = 0; i < keys.length; i += DELETE_CHUNK) {
    const chunk = keys.slice(i, i + DELETE_CHUNK);
    await tx.run(`DELETE FROM ${table} WHERE ${col} IN (${chunk.map(() => '?').join(', ')}) AND doc = ?`, [...chunk, docKey(eventId)]);
  }
}

async function removeDoc(tx: Queryable, doc: DocRow): Promise<void> {
  const listed = doc.terms ? doc.terms.split(' ') : [];
  await deleteKeys(tx, 'search_terms', 'term', listed.filter((t) => !t.startsWith('#')), doc.event_id);
  await deleteKeys(tx, 'search_hashtags', 'tag', listed.filter((t) => t.startsWith('#')).map((t) => t.slice(1)), doc.event_id);
  await tx.run('DELETE FROM search_docs WHERE event_id = ?', [doc.event_id]);
  if (Number(doc.long_reply) && doc.parent_id) {
    await tx.run('UPDATE search_docs SET long_replies = long_replies - 1 WHERE event_id = ? AND long_replies > 0', [doc.parent_id]);
  }
}

async function indexUser(tx: Queryable, event: NostrEvent): Promise<void> {
  await tx.run('DELETE FROM search_user_terms WHERE pubkey = ?', [event.pubkey]);
  const f = profileFields(event.content);
  const words = new Set<string>();
  for (const k of NAME_FIELDS) for (const t of terms(f[k] ?? '')) words.add(t);
  await insertRows(tx, 'search_user_terms', ['term', 'pubkey'], [...words].map((t) => [t, event.pubkey]));
}

async function indexEvent(tx: Queryable, event: NostrEvent): Promise<void> {
  if (!SEARCH_KINDS.has(event.kind)) return;
  let address = '';
  if (hasPointer(event.kind)) {
    address = addressOf(event.kind, event.pubkey, pointerD(event.kind, event.tags));
    // The importer only calls indexers for the winning version, so whatever is indexed under the address is older.
    const mine = await tx.all<DocRow>(`SELECT ${DOC_COLS} FROM search_docs WHERE pubkey = ? AND kind = ?`, [event.pubkey, event.kind]);
    for (const doc of mine) if (doc.address === address && doc.event_id !== event.id) await removeDoc(tx, doc);
  }
  if (event.kind === 0) await indexUser(tx, event);

  const post = REPLY_KINDS.has(event.kind)
    ? await tx.get<{ is_reply: number; parent_id: string | null }>('SELECT is_reply, parent_id FROM posts WHERE event_id = ?', [event.id])
    : undefined;
  const isReply = Number(post?.is_reply ?? 0) ? 1 : 0;
  const parent = isReply ? (post?.parent_id ?? null) : null;
  const chars = [...event.content].length;
  const longReply = isReply && parent && chars >= LONG_REPLY_CHARS ? 1 : 0;
  const media = event.kind === 0 ? { image: false, video: false, audio: false, url: false } : mediaFlags(event.kind, event.tags, event.content);
  // Replies that arrived before this event (posts has the parent index).
  const earlier =
    event.kind === 0
      ? undefined
      : await tx.get<{ n: number | string }>(
          'SELECT COUNT(*) AS n FROM posts p JOIN search_docs r ON r.event_id = p.event_id WHERE p.parent_id = ? AND r.long_reply = 1',
          [event.id],
        );
  const hasSummary = event.kind === 30023 && tagValue(event.tags, 'summary').trim() !== '' ? 1 : 0;

  const doc = docKey(event.id);
  const rows: SqlValue[][] = [];
  const distinct = new Set<string>();
  let pos = 0;
  for (const field of searchText(event)) {
    for (const term of tokenize(field)) {
      if (pos >= MAX_POSITIONS) break;
      if (term !== null) {
        rows.push([term, doc, pos]);
        distinct.add(term);
      }
      pos++;
    }
    // A gap between fields keeps a phrase from matching across a title and the text.
    pos++;
  }
  const tags = event.kind === 0 ? [] : hashtagsOf(event.tags, event.content);
  const listed = [...distinct, ...tags.map((t) => `#${t}`)].join(' ');

  await tx.run(
    `INSERT INTO search_docs (event_id, doc, pubkey, kind, created_at, address, is_reply, parent_id, chars, words, long_reply,
       long_replies, has_image, has_video, has_audio, has_url, has_summary, terms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING`,
    [
      event.id, doc, event.pubkey, event.kind, event.created_at, address, isReply, parent, chars,
      event.kind === 0 ? 0 : countWords(event.content), longReply, Number(earlier?.n ?? 0),
      media.image ? 1 : 0, media.video ? 1 : 0, media.audio ? 1 : 0, media.url ? 1 : 0, hasSummary, listed,
    ],
  );
  if (longReply) await tx.run('UPDATE search_docs SET long_replies = long_replies + 1 WHERE event_id = ?', [parent]);
  await insertRows(tx, 'search_terms', ['term', 'doc', 'pos'], rows);
  await insertRows(tx, 'search_hashtags', ['tag', 'doc'], tags.map((t) => [t, doc]));
}

export const searchIndexer: Indexer = {
  name: 'search',
  onEvent: (tx, event) => indexEvent(tx, event),
  async onDelete(tx, deletedId) {
    const doc = await tx.get<DocRow>(`SELECT ${DOC_COLS} FROM search_docs WHERE event_id = ?`, [deletedId]);
    if (!doc) return;
    await removeDoc(tx, doc);
    if (Number(doc.kind) === 0) await tx.run('DELETE FROM search_user_terms WHERE pubkey = ?', [doc.pubkey]);
  },
};
