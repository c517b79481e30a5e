/** Runs searches against the index the search indexer keeps (server/ingest/index-search.ts). */
import type { Queryable, SqlValue } from '../store/db.ts';
import type { FeedItem } from '../cache/enrich.ts';
import { decodePubkey, type ParsedQuery } from './grammar.ts';
import { buildSearch, type SearchOptions } from './sql.ts';
import { fold, terms } from './tokens.ts';

export async function searchItems(db: Queryable, q: ParsedQuery, opts: Omit<SearchOptions, 'dialect'>): Promise<FeedItem[]> {
  const { sql, params } = buildSearch(q, { ...opts, dialect: db.dialect });
  const rows = await db.all<{ id: string; k: number | string | null }>(sql, params);
  return rows.map((r) => ({ id: r.id, key: Number(r.k ?? 0) }));
}

/** Users ranked per query are picked from at most this many matches (short prefixes match many). */
const USER_CANDIDATES = 1000;
const MAX_USER_TERMS = 8;
/** S §3.3: such queries return nothing. */
const BLOCKED_QUERY = /lolicon/;

export interface UserSearch {
  query: string;
  limit: number;
  /** Only accounts this pubkey follows. */
  followedBy?: string;
}

/**
 * user_search (S §3.3): an npub / nprofile / hex pubkey is that user; otherwise every word is
 * a prefix of some name field (name, display_name, username, nip05, lud16), most-followed first.
 */
export async function searchUsers(db: Queryable, s: UserSearch): Promise<string[]> {
  const query = s.query.trim();
  const direct = query ? decodePubkey(query) : null;
  if (direct) return [direct];
  if (BLOCKED_QUERY.test(fold(query))) return [];
  const words = terms(query).slice(0, MAX_USER_TERMS);
  const params: SqlValue[] = [];
  let candidates: string;
  if (words.length === 0) {
    if (!s.followedBy) return [];
    // Only accounts with a profile: the reply is their kind 0s.
    candidates = `SELECT f.follows AS pubkey FROM follows f
      WHERE f.pubkey = ? AND EXISTS (SELECT 1 FROM replaceable r WHERE r.pubkey = f.follows AND r.kind = 0 AND r.d = '')
      LIMIT ${USER_CANDIDATES}`;
    params.push(s.followedBy);
  } else {
    // Every word a prefix of some name word: FTS5's "w"* / tsquery's 'w':*, ANDed. The words are
    // folded like the indexed ones (tokens.ts), so "Ádám", "adam" and "ád" meet on both stores; being
    // letters and digits only, they need no escaping inside the quotes.
    const sqlite = db.dialect === 'sqlite';
    params.push(sqlite ? words.map((w) => `"${w}"*`).join(' ') : words.map((w) => `'${w}':*`).join(' & '));
    const where = [sqlite ? 'search_user_fts MATCH ?' : 'u.names @@ CAST(? AS tsquery)'];
    if (s.followedBy) {
      where.push('u.pubkey IN (SELECT follows FROM follows WHERE pubkey = ?)');
      params.push(s.followedBy);
    }
    candidates = sqlite
      ? `SELECT u.pubkey AS pubkey FROM search_user_fts JOIN search_users u ON u.id = search_user_fts.rowid
         WHERE ${where.join(' AND ')} LIMIT ${USER_CANDIDATES}`
      : `SELECT u.pubkey AS pubkey FROM search_users u WHERE ${where.join(' AND ')} LIMIT ${USER_CANDIDATES}`;
  }
  const rows = await db.all<{ pubkey: string }>(
    `SELECT c.pubkey AS pubkey FROM (${candidates}) c
     ORDER BY (SELECT COUNT(*) FROM follows f WHERE f.follows = c.pubkey) DESC, c.pubkey ASC LIMIT ?`,
    [...params, s.limit],
  );
  return rows.map((r) => r.pubkey);
}
