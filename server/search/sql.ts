/**
 * Turns a parsed query (grammar.ts) into one portable SELECT over search_docs. Every
 * condition is an indexed lookup: terms by (term, doc, pos), hashtags by tag, people
 * through event_tags / zaps / follows, thresholds through event_stats by event id.
 */
import type { SqlValue } from '../store/db.ts';
import { mentionsKind, type Metric, type Node, type ParsedQuery, type Scope } from './grammar.ts';
import { prefixRange } from './tokens.ts';

export interface SearchPage {
  /** Bounds on the sort key: created_at, or the orderby metric (S §3.4 paging). */
  since?: number;
  until?: number;
  limit: number;
  offset: number;
}

export interface SearchOptions {
  viewer?: string;
  /**
   * A required text leaf (word, phrase or hashtag) rare enough to start from: the query then
   * reads that leaf's documents first instead of walking every document newest first.
   */
  driver?: Node;
  /** Kinds searched when the query names none (notes by default). */
  defaultKinds: number[];
  page: SearchPage;
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

class Builder {
  readonly params: SqlValue[] = [];

  constructor(private readonly viewer: string | undefined) {}

  private p(v: SqlValue): string {
    this.params.push(v);
    return '?';
  }

  private termMatch(term: string, prefix: boolean): string {
    if (!prefix) return `term = ${this.p(term)}`;
    const { lo, hi } = prefixRange(term);
    // Terms hold only letters and digits, so the LIKE pattern has no wildcards of its own.
    return hi === null ? `term >= ${this.p(lo)} AND term LIKE ${this.p(`${lo}%`)}` : `term >= ${this.p(lo)} AND term < ${this.p(hi)}`;
  }

  /** The docs of a text leaf, as a subquery selecting `doc` (with repeats: one row per position). */
  leafDocs(n: Node): string {
    switch (n.type) {
      case 'word':
        return `SELECT doc FROM search_terms WHERE ${this.termMatch(n.term, n.prefix)}`;
      case 'hashtag':
        return `SELECT doc FROM search_hashtags WHERE tag = ${this.p(n.tag)}`;
      case 'phrase':
      case 'url':
        return this.phraseDocs(n.terms);
      default:
        throw new Error(`not a text leaf: ${n.type}`);
    }
  }

  /** Docs holding the terms at consecutive positions; with `doc`, only that document is looked at. */
  private phraseDocs(terms: string[], doc?: string): string {
    let from = 'search_terms t0';
    const where: string[] = [`t0.term = ${this.p(terms[0])}`];
    if (doc) where.push(`t0.doc = ${doc}`);
    for (let i = 1; i < terms.length; i++) {
      from += ` JOIN search_terms t${i} ON t${i}.doc = t0.doc AND t${i}.pos = t0.pos + ${i}`;
      where.push(`t${i}.term = ${this.p(terms[i])}`);
    }
    return `SELECT t0.doc FROM ${from} WHERE ${where.join(' AND ')}`;
  }

  private phrase(terms: string[]): string {
    return `EXISTS (${this.phraseDocs(terms, 'd.doc')})`;
  }

  node(n: Node): string {
    switch (n.type) {
      case 'and':
        return `(${n.items.map((x) => this.node(x)).join(' AND ')})`;
      case 'or':
        return `(${n.items.map((x) => this.node(x)).join(' OR ')})`;
      case 'not':
        return `NOT (${this.node(n.item)})`;
      case 'word':
        // A prefix is a key range: list its docs once. An exact term is probed per document on
        // (term, doc), so a common word costs nothing until a scan actually reaches a row.
        if (n.prefix) return `d.doc IN (${this.leafDocs(n)})`;
        return `EXISTS (SELECT 1 FROM search_terms et WHERE et.term = ${this.p(n.term)} AND et.doc = d.doc)`;
      case 'hashtag':
        return `EXISTS (SELECT 1 FROM search_hashtags eh WHERE eh.tag = ${this.p(n.tag)} AND eh.doc = d.doc)`;
      case 'phrase':
        return `EXISTS (${this.phraseDocs(n.terms, 'd.doc')})`;
      case 'kind':
        return `d.kind = ${this.p(n.kind)}`;
      case 'media':
        return { image: 'd.has_image = 1', video: 'd.has_video = 1', audio: 'd.has_audio = 1', url: 'd.has_url = 1' }[n.media];
      case 'url':
        return `(d.has_url = 1 AND ${this.phrase(n.terms)})`;
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

const needsStats = (q: ParsedQuery) =>
  q.orderBy !== 'created_at' || Object.keys(q.min).some((m) => m !== 'words') || Object.keys(q.max).some((m) => m !== 'words');

/** The SELECT returning (id, k) rows: k is the sort key that goes into the RANGE. */
export function buildSearch(q: ParsedQuery, opts: SearchOptions): BuiltQuery {
  const b = new Builder(opts.viewer);
  const where: string[] = [];
  // The driver's parameters come first: its subquery is the first thing in the FROM clause.
  // CROSS JOIN keeps SQLite from reordering it; PostgreSQL plans it with its own statistics.
  const from = opts.driver
    ? `(SELECT DISTINCT doc FROM (${b.leafDocs(opts.driver)}) l) x CROSS JOIN search_docs d`
    : 'search_docs d';
  if (opts.driver) where.push('d.doc = x.doc');
  if (q.expr) where.push(b.node(q.expr));
  if (!mentionsKind(q.expr)) where.push(b.kinds(opts.defaultKinds));
  if (q.scope) where.push(b.scope(q.scope));
  for (const f of q.features) {
    const cond = b.feature(f);
    if (cond) where.push(cond);
  }
  b.bound('d.created_at', '>=', q.since, where);
  b.bound('d.created_at', '<=', q.until, where);
  for (const [m, v] of Object.entries(q.min)) b.bound(METRIC_SQL[m as Metric], '>=', v, where);
  for (const [m, v] of Object.entries(q.max)) b.bound(METRIC_SQL[m as Metric], '<=', v, where);
  b.bound('d.chars', '<=', q.maxChars, where);
  b.bound('d.long_replies', '>=', q.minLongReplies, where);

  const join = needsStats(q) ? 'LEFT JOIN event_stats s ON s.event_id = d.event_id' : '';
  const page = opts.page;
  if (q.orderBy === 'created_at') {
    b.bound('d.created_at', '>=', page.since, where);
    b.bound('d.created_at', '<=', page.until, where);
    // No tie-breaker: ordering by the index's own column lets a scan stop once the page is full.
    const sql = `SELECT d.event_id AS id, d.created_at AS k FROM ${from} ${join}
      WHERE ${where.join(' AND ') || '1 = 1'} ORDER BY d.created_at DESC LIMIT ? OFFSET ?`;
    return { sql, params: [...b.params, page.limit, page.offset] };
  }
  const metric = METRIC_SQL[q.orderBy];
  const outer: string[] = [];
  b.bound('w.k', '>=', page.since, outer);
  b.bound('w.k', '<=', page.until, outer);
  const sql = `SELECT w.id AS id, w.k AS k FROM (
      SELECT d.event_id AS id, d.created_at AS t, ${metric} AS k FROM ${from} ${join}
      WHERE ${where.join(' AND ') || '1 = 1'} ORDER BY d.created_at DESC LIMIT ${RANK_WINDOW}) w
    ${outer.length ? `WHERE ${outer.join(' AND ')}` : ''} ORDER BY w.k DESC, w.t DESC, w.id ASC LIMIT ? OFFSET ?`;
  return { sql, params: [...b.params, page.limit, page.offset] };
}

/** Counts a text leaf's rows up to `cap`, to judge whether it is rare enough to drive the query. */
export function leafCount(leaf: Node, cap: number): BuiltQuery {
  const b = new Builder(undefined);
  const sql = `SELECT COUNT(*) AS n FROM (${b.leafDocs(leaf)} LIMIT ${cap}) c`;
  return { sql, params: b.params };
}
