/**
 * Turns a parsed query (grammar.ts) into one SELECT over search_docs. Text (words, phrases,
 * hashtags, with AND / OR / NOT between them) compiles to the store's own full-text engine: an
 * FTS5 MATCH on SQLite, a tsquery against the GIN-indexed tsvector on PostgreSQL. People go
 * through event_tags / zaps / follows, thresholds through event_stats by event id.
 */
import type { Database, SqlValue } from '../store/db.ts';
import { PG_TS_CONFIG } from '../store/search-schema.ts';
import { mentionsKind, type Metric, type Node, type ParsedQuery, type Scope } from './grammar.ts';
import { docKeyAfter, tagToken } from './tokens.ts';

export interface SearchPage {
  /** Bounds on the sort key: created_at, or the orderby metric (S §3.4 paging). */
  since?: number;
  until?: number;
  limit: number;
  offset: number;
}

export interface SearchOptions {
  viewer?: string;
  dialect: Database['dialect'];
  /** Kinds searched when the query names none (notes by default). */
  defaultKinds: number[];
  page: SearchPage;
  /** The orderby window in one statement, as PostgreSQL runs it: what tests compare SQLite's two-step form with. */
  plainWindow?: boolean;
  /** RANK_WINDOW unless a test asks for a smaller window. */
  rankWindow?: number;
}

export interface BuiltQuery {
  sql: string;
  params: SqlValue[];
}

/**
 * Orderings other than time rank the newest matches up to this many: a query that matches
 * half the store still sorts a bounded set.
 */
export const RANK_WINDOW = 5000;

const FOLLOWS = 'SELECT follows FROM follows WHERE pubkey = ?';
const FOLLOWS_OF_FOLLOWS = 'SELECT f2.follows FROM follows f1 JOIN follows f2 ON f2.pubkey = f1.follows WHERE f1.pubkey = ?';

const METRIC_SQL: Record<Metric, string> = {
  score: 'COALESCE(s.score, 0)',
  likes: 'COALESCE(s.likes, 0)',
  zaps: 'COALESCE(s.zaps, 0)',
  replies: 'COALESCE(s.replies, 0)',
  reposts: 'COALESCE(s.reposts, 0)',
  satszapped: 'COALESCE(s.satszapped, 0)',
  interactions: '(COALESCE(s.likes, 0) + COALESCE(s.replies, 0) + COALESCE(s.reposts, 0) + COALESCE(s.zaps, 0))',
  words: 'd.words',
};

/** A text leaf: what the full-text engine answers by itself. */
const isLeaf = (n: Node) => n.type === 'word' || n.type === 'phrase' || n.type === 'hashtag';

/**
 * Whether the engine can answer the node alone: text leaves joined by AND / OR, with negated text
 * inside an AND beside at least one positive part (neither engine can list "every document but").
 */
function isText(n: Node): boolean {
  if (isLeaf(n)) return true;
  if (n.type === 'or') return n.items.every(isText);
  if (n.type === 'and') {
    const negated = (x: Node) => x.type === 'not' && isText(x.item);
    return n.items.every((x) => isText(x) || negated(x)) && n.items.some((x) => isText(x));
  }
  return false;
}

/** The parts of an AND the engine can take in one query, and the rest; text is null without a positive part. */
function splitText(items: Node[]): { text: Node | null; rest: Node[] } {
  const mine = items.filter((x) => isText(x) || (x.type === 'not' && isText(x.item)));
  if (!mine.some(isText)) return { text: null, rest: items };
  return { text: mine.length === 1 ? mine[0] : { type: 'and', items: mine }, rest: items.filter((x) => !mine.includes(x)) };
}

const quoteFts = (terms: string[]) => `"${terms.join(' ')}"`;
/** A lexeme in tsquery syntax: quoted, with quotes and backslashes escaped. */
const quoteLexeme = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

class Builder {
  readonly params: SqlValue[] = [];

  constructor(
    private readonly viewer: string | undefined,
    private readonly dialect: Database['dialect'],
    /** Relevance ordering: a prefix word also matches as a whole word, so a note holding the word itself ranks first. */
    private readonly ranked = false,
  ) {}

  p(v: SqlValue): string {
    this.params.push(v);
    return '?';
  }

  /** FTS5 query syntax for a text node (isText). Terms hold only letters and digits, so quoting is enough. */
  private fts5(n: Node): string {
    switch (n.type) {
      case 'word': {
        const t = quoteFts([n.term]);
        if (!n.prefix) return `body : ${t}`;
        return this.ranked ? `body : (${t} OR ${t}*)` : `body : ${t}*`;
      }
      case 'phrase':
        return `body : ${quoteFts(n.terms)}`;
      case 'hashtag':
        return `tags : ${quoteFts([tagToken(n.tag)])}`;
      case 'or':
        return `(${n.items.map((x) => this.fts5(x)).join(' OR ')})`;
      case 'and': {
        const pos = n.items.filter((x) => x.type !== 'not').map((x) => this.fts5(x));
        const neg = n.items.flatMap((x) => (x.type === 'not' ? [this.fts5(x.item)] : []));
        const all = `(${pos.join(' AND ')})`;
        return neg.length ? `(${all} NOT (${neg.join(' OR ')}))` : all;
      }
      default:
        throw new Error(`not text: ${n.type}`);
    }
  }

  /** A tsquery expression for a text node (isText); its parameters are pushed in text order. */
  private tsquery(n: Node): string {
    const cfg = `'${PG_TS_CONFIG}'`;
    switch (n.type) {
      case 'word': {
        const t = quoteLexeme(n.term);
        if (!n.prefix) return `to_tsquery(${cfg}, ${this.p(t)})`;
        const prefix = `to_tsquery(${cfg}, ${this.p(`${t}:*`)})`;
        return this.ranked ? `(to_tsquery(${cfg}, ${this.p(t)}) || ${prefix})` : prefix;
      }
      case 'phrase':
        return `to_tsquery(${cfg}, ${this.p(n.terms.map(quoteLexeme).join(' <-> '))})`;
      case 'hashtag':
        // Stored as the lexeme '#tag' (index-search.ts), matched as it is, without the parser.
        return `CAST(${this.p(quoteLexeme(`#${n.tag}`))} AS tsquery)`;
      case 'or':
        return `(${n.items.map((x) => this.tsquery(x)).join(' || ')})`;
      case 'and':
        return `(${n.items.map((x) => (x.type === 'not' ? `!!${this.tsquery(x.item)}` : this.tsquery(x))).join(' && ')})`;
      default:
        throw new Error(`not text: ${n.type}`);
    }
  }

  /** The engine query of a text node: an FTS5 MATCH string parameter, or a tsquery expression. */
  textQuery(n: Node): string {
    return this.dialect === 'sqlite' ? this.p(this.fts5(n)) : this.tsquery(n);
  }

  /** A condition on d that holds for documents matching a text node. */
  private textMatch(n: Node): string {
    if (this.dialect === 'sqlite') return `d.doc IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ${this.textQuery(n)})`;
    return `d.fts @@ ${this.textQuery(n)}`;
  }

  node(n: Node): string {
    if (isText(n)) return this.textMatch(n);
    switch (n.type) {
      case 'and': {
        // The text of an AND goes to the engine as one query; the other conditions filter beside it.
        const { text, rest } = splitText(n.items);
        const parts = text ? [this.textMatch(text), ...rest.map((x) => this.node(x))] : n.items.map((x) => this.node(x));
        return `(${parts.join(' AND ')})`;
      }
      case 'or':
        return `(${n.items.map((x) => this.node(x)).join(' OR ')})`;
      case 'not':
        return `NOT (${this.node(n.item)})`;
      case 'word':
      case 'hashtag':
      case 'phrase':
        return this.textMatch(n);
      case 'kind':
        return `d.kind = ${this.p(n.kind)}`;
      case 'media':
        return { image: 'd.has_image = 1', video: 'd.has_video = 1', audio: 'd.has_audio = 1', url: 'd.has_url = 1' }[n.media];
      case 'url':
        return `(d.has_url = 1 AND ${this.textMatch(n.terms.length === 1 ? { type: 'word', term: n.terms[0], prefix: false, raw: '' } : { type: 'phrase', terms: n.terms, raw: '' })})`;
      case 'ref': {
        const names = n.ref === 'e' ? "'e', 'q'" : "'a', 'q'";
        return `d.event_id IN (SELECT event_id FROM event_tags WHERE name IN (${names}) AND value = ${this.p(n.value)})`;
      }
      case 'repliestokind':
        return `(d.is_reply = 1 AND EXISTS (SELECT 1 FROM events pe WHERE pe.id = d.parent_id AND pe.kind = ${this.p(n.kind)}))`;
      case 'person':
        switch (n.role) {
          case 'from':
            return `d.pubkey = ${this.p(n.pubkey)}`;
          case 'to':
            return `(d.is_reply = 1 AND d.event_id IN (SELECT event_id FROM event_tags WHERE name = 'p' AND value = ${this.p(n.pubkey)}))`;
          case 'mention':
            return `d.event_id IN (SELECT event_id FROM event_tags WHERE name = 'p' AND value = ${this.p(n.pubkey)})`;
          case 'zappedby':
            return `d.event_id IN (SELECT target_event_id FROM zaps WHERE sender = ${this.p(n.pubkey)} AND target_event_id IS NOT NULL)`;
          case 'following':
            return `d.pubkey IN (${FOLLOWS.replace('?', this.p(n.pubkey))})`;
        }
    }
  }

  scope(scope: Scope): string {
    const v = this.viewer;
    if (!v) return scope === 'notmyfollows' ? '1 = 1' : '1 = 0';
    switch (scope) {
      case 'myfollows':
        return `d.pubkey IN (${FOLLOWS.replace('?', this.p(v))})`;
      case 'mynetwork':
        return `(d.pubkey IN (${FOLLOWS.replace('?', this.p(v))}) OR d.pubkey IN (${FOLLOWS_OF_FOLLOWS.replace('?', this.p(v))}))`;
      case 'myfollowsinteractions':
        return `EXISTS (SELECT 1 FROM event_action_refs a JOIN follows f ON f.follows = a.ref_pubkey
                 WHERE a.event_id = d.event_id AND f.pubkey = ${this.p(v)})`;
      case 'mynetworkinteractions':
        return `EXISTS (SELECT 1 FROM event_action_refs a WHERE a.event_id = d.event_id AND (a.ref_pubkey IN (${FOLLOWS.replace('?', this.p(v))})
                 OR a.ref_pubkey IN (${FOLLOWS_OF_FOLLOWS.replace('?', this.p(v))})))`;
      case 'mynotifications':
        return `(d.pubkey <> ${this.p(v)} AND d.event_id IN (SELECT event_id FROM event_tags WHERE name = 'p' AND value = ${this.p(v)}))`;
      case 'notmyfollows':
        return `(d.pubkey <> ${this.p(v)} AND d.pubkey NOT IN (${FOLLOWS.replace('?', this.p(v))}))`;
    }
  }

  feature(name: string): string | null {
    switch (name) {
      case 'summary':
        return 'd.has_summary = 1';
      case 'cdnmedia':
        return '(d.has_image = 1 OR d.has_video = 1)';
      case 'bookmarked-by-follows':
        if (!this.viewer) return '1 = 0';
        return `EXISTS (SELECT 1 FROM event_tags bt JOIN events be ON be.id = bt.event_id JOIN follows f ON f.follows = be.pubkey
                 WHERE bt.name = 'e' AND bt.value = d.event_id AND bt.kind = 10003 AND f.pubkey = ${this.p(this.viewer)})`;
      default:
        // Other feature flags describe data we do not keep; they do not narrow the result.
        return null;
    }
  }

  kinds(kinds: number[]): string {
    return `d.kind IN (${kinds.map((k) => this.p(k)).join(', ')})`;
  }

  bound(expr: string, op: '>=' | '<=', v: number | undefined, out: string[]): void {
    if (v !== undefined) out.push(`${expr} ${op} ${this.p(v)}`);
  }
}

/** Whether a min / max bound reads event_stats, so the window itself needs the counts. */
export const thresholdOnStats = (q: ParsedQuery) => [...Object.keys(q.min), ...Object.keys(q.max)].some((m) => m !== 'words');

const needsStats = (q: ParsedQuery) => !['created_at', 'relevance'].includes(q.orderBy) || thresholdOnStats(q);

/** Relevance as an integer sort key (bigger is better) for the RANGE. */
const RANK_SCALE = 1_000_000;

/**
 * The conditions every form of a query shares: what it reads (`from`), the WHERE list (query-wide
 * bounds included, no paging), the window's order (`order`, newest first) and relevance's `rank`.
 */
export function queryParts(q: ParsedQuery, opts: Pick<SearchOptions, 'viewer' | 'dialect' | 'defaultKinds'>) {
  const sqlite = opts.dialect === 'sqlite';
  const relevance = q.orderBy === 'relevance';
  const b = new Builder(opts.viewer, opts.dialect, relevance);
  const where: string[] = [];
  // The required text of the query, answered by the engine first.
  const { text, rest } = !q.expr ? { text: null, rest: [] } : q.expr.type === 'and' ? splitText(q.expr.items) : splitText([q.expr]);
  // SQLite: the FTS index drives, newest key first (key order is time order, search-schema.ts), so a
  // common word stops after a page. PostgreSQL plans the GIN lookup against the time index itself.
  // Parameters go in text order: PostgreSQL's rank expression sits in the select list, before WHERE.
  let from = 'search_docs d';
  let rank = '0';
  let order = 'd.created_at';
  if (text && sqlite) {
    from = 'search_fts CROSS JOIN search_docs d';
    where.push(`search_fts MATCH ${b.textQuery(text)}`, 'd.doc = search_fts.rowid');
    rank = `CAST(-bm25(search_fts) * ${RANK_SCALE} AS INTEGER)`;
    order = 'search_fts.rowid';
  } else if (text) {
    if (relevance) rank = `CAST(ts_rank(d.fts, ${b.textQuery(text)}) * ${RANK_SCALE} AS BIGINT)`;
    where.push(`d.fts @@ ${b.textQuery(text)}`);
  }
  const others = text ? rest : q.expr ? [q.expr] : [];
  for (const n of others) where.push(b.node(n));
  if (!mentionsKind(q.expr)) where.push(b.kinds(opts.defaultKinds));
  if (q.scope) where.push(b.scope(q.scope));
  for (const f of q.features) {
    const cond = b.feature(f);
    if (cond) where.push(cond);
  }
  const timeBounds = (since: number | undefined, until: number | undefined) => {
    b.bound('d.created_at', '>=', since, where);
    b.bound('d.created_at', '<=', until, where);
    // The same window on the FTS rowid, so the engine skips what lies outside it.
    if (order === 'search_fts.rowid' && since !== undefined) where.push(`search_fts.rowid >= ${b.p(docKeyAfter(since - 1))}`);
    if (order === 'search_fts.rowid' && until !== undefined) where.push(`search_fts.rowid < ${b.p(docKeyAfter(until))}`);
  };
  timeBounds(q.since, q.until);
  for (const [m, v] of Object.entries(q.min)) b.bound(METRIC_SQL[m as Metric], '>=', v, where);
  for (const [m, v] of Object.entries(q.max)) b.bound(METRIC_SQL[m as Metric], '<=', v, where);
  b.bound('d.chars', '<=', q.maxChars, where);
  b.bound('d.long_replies', '>=', q.minLongReplies, where);
  return { sqlite, b, from, where, order, rank, timeBounds };
}

/** The SELECT returning (id, k) rows: k is the sort key that goes into the RANGE. */
export function buildSearch(q: ParsedQuery, opts: SearchOptions, withDocKey = false): BuiltQuery {
  const { sqlite, b, from, where, order, rank, timeBounds } = queryParts(q, opts);
  const windowSize = opts.rankWindow ?? RANK_WINDOW;
  const join = needsStats(q) ? 'LEFT JOIN event_stats s ON s.event_id = d.event_id' : '';
  const page = opts.page;
  if (q.orderBy === 'created_at') {
    timeBounds(page.since, page.until);
    // No tie-breaker: ordering by the index's own column lets a scan stop once the page is full.
    // withDocKey (engine.ts longPrefixPage, SQLite): each row's search key too, as r.
    const key = withDocKey && order === 'search_fts.rowid' ? ', search_fts.rowid AS r' : '';
    const sql = `SELECT d.event_id AS id, d.created_at AS k${key} FROM ${from} ${join}
      WHERE ${where.join(' AND ') || '1 = 1'} ORDER BY ${order} DESC LIMIT ? OFFSET ?`;
    return { sql, params: [...b.params, page.limit, page.offset] };
  }
  const metric = q.orderBy === 'relevance' ? rank : METRIC_SQL[q.orderBy];
  const outer: string[] = [];
  b.bound('w.k', '>=', page.since, outer);
  b.bound('w.k', '<=', page.until, outer);
  if (sqlite && !opts.plainWindow && join && !thresholdOnStats(q) && q.orderBy !== 'relevance') {
    // The window first without its counts, then the counts looked up in event_id order through the covering
    // event_stats_metrics (search-schema.ts): 5,000 lookups in key order read each index page once where
    // time order jumps about the whole table (0.7× the plain form's time at 1M, bench/RESULTS.md s8-hot1m).
    // Same rows and order as the plain form below (tests/integration/search-orderby-window.test.ts).
    const sql = `WITH w0 AS MATERIALIZED (
        SELECT d.event_id AS id, d.created_at AS t FROM ${from}
        WHERE ${where.join(' AND ') || '1 = 1'} ORDER BY ${order} DESC LIMIT ${windowSize}),
      w1 AS MATERIALIZED (SELECT id, t FROM w0 ORDER BY id)
      SELECT w.id AS id, w.k AS k FROM (
        SELECT w1.id AS id, w1.t AS t, ${metric} AS k FROM w1 LEFT JOIN event_stats s INDEXED BY event_stats_metrics ON s.event_id = w1.id) w
      ${outer.length ? `WHERE ${outer.join(' AND ')}` : ''} ORDER BY w.k DESC, w.t DESC, w.id ASC LIMIT ? OFFSET ?`;
    return { sql, params: [...b.params, page.limit, page.offset] };
  }
  const sql = `SELECT w.id AS id, w.k AS k FROM (
      SELECT d.event_id AS id, d.created_at AS t, ${metric} AS k FROM ${from} ${join}
      WHERE ${where.join(' AND ') || '1 = 1'} ORDER BY ${order} DESC LIMIT ${windowSize}) w
    ${outer.length ? `WHERE ${outer.join(' AND ')}` : ''} ORDER BY w.k DESC, w.t DESC, w.id ASC LIMIT ? OFFSET ?`;
  return { sql, params: [...b.params, page.limit, page.offset] };
}
