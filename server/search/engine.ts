/** Runs searches against the index the search indexer keeps (server/ingest/index-search.ts). */
import type { Queryable, SqlValue } from '../store/db.ts';
import type { FeedItem } from '../cache/enrich.ts';
import { hotCaches } from '../cache/hot-cache.ts';
import { searchBody } from '../ingest/index-search.ts';
import { decodePubkey, type Node, type ParsedQuery } from './grammar.ts';
import { buildSearch, type SearchOptions } from './sql.ts';
import { fold, terms } from './tokens.ts';

export async function searchItems(db: Queryable, q: ParsedQuery, opts: Omit<SearchOptions, 'dialect'>): Promise<FeedItem[]> {
  // A server's store: orderby:<count> pages come from the ranking window kept in memory (window-cache.ts).
  const windows = hotCaches(db)?.searchWindows;
  const cached = windows ? await windows.page(db, q, { ...opts, dialect: db.dialect }) : null;
  if (cached) return cached;
  const shortcut = db.dialect === 'sqlite' ? await longPrefixPage(db, q, opts) : null;
  if (shortcut) return shortcut;
  const { sql, params } = buildSearch(q, { ...opts, dialect: db.dialect });
  const rows = await db.all<{ id: string; k: number | string | null }>(sql, params);
  return rows.map((r) => ({ id: r.id, key: Number(r.k ?? 0) }));
}

/** The longest prefix SQLite's search_fts has an index for (search-schema.ts, prefix='3 4'). */
const INDEXED_PREFIX = 4;
/**
 * Candidates worth checking for a page of `need` rows: each costs its event's row and a tokenisation
 * (~15 µs), so past this many the plain prefix query is cheaper for all but the commonest words.
 */
const candidateBudget = (need: number) => 3 * need + 10;
/** Pages longer than this run as they are. */
const MAX_PAGE_SHORTCUT = 200;

type Word = Extract<Node, { type: 'word' }>;
const longPrefix = (n: Node): n is Word => n.type === 'word' && n.prefix && n.term.length > INDEXED_PREFIX;

/** The query with each long prefix word of its top level (the word itself, or an AND's items) replaced. */
function replaceWords(q: ParsedQuery, f: (w: Word) => Word): ParsedQuery {
  const e = q.expr!;
  if (e.type === 'and') return { ...q, expr: { type: 'and', items: e.items.map((x) => (longPrefix(x) ? f(x) : x)) } };
  return { ...q, expr: longPrefix(e) ? f(e) : e };
}

/**
 * A time-ordered page of a query whose required text holds words of 5+ letters, which match as prefixes.
 * FTS5 has no index for such a prefix: it merges the whole doclist of every term that starts with it
 * before the first row comes out (1–8 ms for a common word at 1M events), where an exact word or an
 * indexed 4-letter prefix is read lazily, newest first, and stops when the page is full. So:
 * 1. the same query with those words exact finds a subset of the answer; if it fills the page, its
 *    last row's key is a floor: every row of the real page lies at or above it;
 * 2. the rows from the floor up that match the words' first 4 letters (a superset, indexed) are the
 *    candidates, each checked newest first in JS against the words the indexer gave the engine for its
 *    event (searchBody) until the page is full.
 * Null (run the query as it is) when the exact words do not fill the page, or the budget of candidates
 * does not fill it (a rarer word with a common 4-letter start: its plain query is cheap).
 */
async function longPrefixPage(db: Queryable, q: ParsedQuery, opts: Omit<SearchOptions, 'dialect'>): Promise<FeedItem[] | null> {
  if (q.orderBy !== 'created_at' || !q.expr) return null;
  const words = q.expr.type === 'and' ? q.expr.items.filter(longPrefix) : longPrefix(q.expr) ? [q.expr] : [];
  const need = opts.page.limit + opts.page.offset;
  if (!words.length || need <= 0 || need > MAX_PAGE_SHORTCUT) return null;
  const page = { ...opts.page, limit: need, offset: 0 };
  const exact = buildSearch(replaceWords(q, (w) => ({ ...w, prefix: false })), { ...opts, page, dialect: 'sqlite' }, true);
  const floor = await db.all<{ id: string; r: number }>(exact.sql, exact.params);
  if (floor.length < need) return null;
  const minDoc = floor[need - 1].r;
  // The floor is checked here rather than given to FTS5: a lower rowid bound on a newest-first read of a
  // prefix index costs it milliseconds.
  const budget = candidateBudget(need);
  const wide = replaceWords(q, (w) => ({ ...w, term: w.term.slice(0, INDEXED_PREFIX) }));
  const widePage = buildSearch(wide, { ...opts, page: { ...page, limit: budget + 1 }, dialect: 'sqlite' }, true);
  const rows = (await db.all<{ id: string; k: number | string; r: number }>(widePage.sql, widePage.params)).filter((r) => r.r >= minDoc);
  const found: FeedItem[] = [];
  // The exact rows match as they are; only the others need their event's words.
  const sure = new Set(floor.map((r) => r.id));
  // Events in chunks, newest first: a page found among the first candidates loads no more of them.
  for (let i = 0, chunk = need + 10; i < rows.length && i < budget; i += chunk) {
    const part = rows.slice(i, Math.min(i + chunk, budget));
    const unsure = part.filter((r) => !sure.has(r.id));
    const events = new Map(
      (unsure.length === 0 ? [] : await db.all<{ id: string; kind: number; tags: string; content: string }>(
        `SELECT id, kind, tags, content FROM events WHERE id IN (${unsure.map(() => '?').join(', ')})`,
        unsure.map((r) => r.id),
      )).map((e) => [e.id, e]),
    );
    for (const r of part) {
      const e = events.get(r.id);
      const body = e ? ` ${searchBody({ kind: Number(e.kind), tags: JSON.parse(e.tags) as string[][], content: e.content })}` : '';
      if (sure.has(r.id) || words.every((w) => body.includes(` ${w.term}`))) found.push({ id: r.id, key: Number(r.k ?? 0) });
      if (found.length >= need) return found.slice(opts.page.offset);
    }
  }
  // Past the budget, or (never, as every exact row lies at or above the floor) out of candidates: the
  // plain query decides.
  return null;
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
