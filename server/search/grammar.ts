/**
 * The advanced-search query language (protocol S §3.7), parsed into a boolean tree of
 * match conditions plus query-wide settings (time window, scope, thresholds, ordering).
 * Pure: no database, the clock comes in as `now`. Broken syntax throws GrammarError;
 * operators we cannot honour (lang:, orientation: without media metadata, …) are kept
 * in `ignored` and do not narrow the result.
 */
import { decode } from 'nostr-tools/nip19';
import { GrammarError, lex, type Token } from './lexer.ts';
import { normaliseHashtag, PREFIX_MIN, tokenize } from './tokens.ts';

export { GrammarError };

export const SCOPES = ['myfollows', 'mynetwork', 'myfollowsinteractions', 'mynetworkinteractions', 'mynotifications', 'notmyfollows'] as const;
export type Scope = (typeof SCOPES)[number];
/** relevance: bm25 / ts_rank of the query's text (created_at order when it has no text). */
export const ORDERS = ['created_at', 'score', 'replies', 'satszapped', 'likes', 'relevance'] as const;
export type OrderBy = (typeof ORDERS)[number];
export const METRICS = ['score', 'likes', 'zaps', 'replies', 'reposts', 'satszapped', 'interactions', 'words'] as const;
export type Metric = (typeof METRICS)[number];
export type PersonRole = 'from' | 'to' | 'mention' | 'zappedby' | 'following';
export type Media = 'image' | 'video' | 'audio' | 'url';

export type Node =
  | { type: 'and'; items: Node[] }
  | { type: 'or'; items: Node[] }
  | { type: 'not'; item: Node }
  | { type: 'word'; term: string; prefix: boolean; raw: string }
  | { type: 'phrase'; terms: string[]; raw: string }
  | { type: 'hashtag'; tag: string }
  | { type: 'kind'; kind: number }
  | { type: 'person'; role: PersonRole; pubkey: string }
  | { type: 'media'; media: Media }
  | { type: 'url'; terms: string[] }
  | { type: 'ref'; ref: 'e' | 'a'; value: string }
  | { type: 'repliestokind'; kind: number };

export interface ParsedQuery {
  /** null matches everything (a query of settings only). */
  expr: Node | null;
  since?: number;
  until?: number;
  /** The relative window named by since: (last1h, lastweek, …), if one was used. */
  relative?: string;
  scope?: Scope;
  orderBy: OrderBy;
  min: Partial<Record<Metric, number>>;
  max: Partial<Record<Metric, number>>;
  maxChars?: number;
  minLongReplies?: number;
  features: string[];
  orientation?: 'vertical' | 'horizontal';
  minDuration?: number;
  maxDuration?: number;
  sentiment?: 'positive' | 'negative' | 'question';
  /** Accepted operators that do not filter here, as written. */
  ignored: string[];
}

export const MAX_QUERY_LENGTH = 2000;
const MAX_LEAVES = 40;
const MAX_PHRASE_TERMS = 12;
const MAX_DEPTH = 10;

const RELATIVE: Record<string, number> = {
  last1h: 3600,
  last4h: 4 * 3600,
  last12h: 12 * 3600,
  today: 24 * 3600,
  yesterday: 24 * 3600,
  lastday: 24 * 3600,
  lastweek: 7 * 86400,
  last2weeks: 14 * 86400,
  lastmonth: 30 * 86400,
  lastyear: 365 * 86400,
};

/** Operators we accept but cannot honour: there is no language, category or trust-rank data. */
const IGNORED_OPS = new Set(['lang', 'category', 'posttype', 'list', 'pas', 'mintrustrank', 'emoji', 'source']);
const PERSON_OPS = new Set<string>(['from', 'to', 'mention', 'zappedby', 'following']);
const OPERATORS = new Set([
  ...IGNORED_OPS,
  ...PERSON_OPS,
  'ref', 'kind', 'repliestokind', 'filter', 'url', 'orientation', 'minduration', 'maxduration', 'since', 'until',
  'scope', 'orderby', 'features', 'feature', 'maxchars', 'minlongreplies',
  ...METRICS.flatMap((m) => [`min${m}`, `max${m}`]),
]);
const FILTERS: Record<string, Media> = {
  image: 'image', images: 'image', video: 'video', videos: 'video', audio: 'audio',
  link: 'url', links: 'url', url: 'url', urls: 'url',
};

function unixDate(value: string, op: string, now: number): { at: number; relative?: string } {
  const v = value.toLowerCase();
  if (v in RELATIVE) return { at: now - RELATIVE[v], relative: v };
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[_t ](\d{2}):(\d{2}))?$/.exec(v);
  if (m) {
    const [, y, mo, d, h, mi] = m;
    const at = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0)) / 1000;
    const check = new Date(at * 1000);
    if (Number.isFinite(at) && check.getUTCMonth() === Number(mo) - 1 && check.getUTCDate() === Number(d)) return { at };
  } else if (/^\d{9,11}$/.test(v)) {
    return { at: Number(v) };
  }
  throw new GrammarError(`invalid date in ${op}: ${value}`);
}

function nonNegative(value: string, op: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new GrammarError(`invalid number in ${op}: ${value}`);
  return Number(value);
}

/** A pubkey from hex, npub, nprofile or naddr (its author). */
export function decodePubkey(value: string): string | null {
  if (/^[0-9a-f]{64}$/i.test(value)) return value.toLowerCase();
  try {
    const d = decode(value.replace(/^nostr:/, ''));
    if (d.type === 'npub') return d.data;
    if (d.type === 'nprofile' || d.type === 'naddr') return d.data.pubkey;
  } catch {
    // Not bech32: the caller reports the value.
  }
  return null;
}

function decodeRef(value: string): { ref: 'e' | 'a'; value: string } | null {
  if (/^[0-9a-f]{64}$/i.test(value)) return { ref: 'e', value: value.toLowerCase() };
  try {
    const d = decode(value.replace(/^nostr:/, ''));
    if (d.type === 'note') return { ref: 'e', value: d.data };
    if (d.type === 'nevent') return { ref: 'e', value: d.data.id };
    if (d.type === 'naddr') return { ref: 'a', value: `${d.data.kind}:${d.data.pubkey}:${d.data.identifier}` };
  } catch {
    // Reported by the caller.
  }
  return null;
}

class Parser {
  private pos = 0;
  private leaves = 0;
  readonly q: ParsedQuery = { expr: null, orderBy: 'created_at', min: {}, max: {}, features: [], ignored: [] };

  constructor(
    private readonly tokens: Token[],
    private readonly now: number,
  ) {}

  parse(): ParsedQuery {
    if (this.tokens.length === 0) return this.q;
    this.q.expr = this.orExpr(0);
    if (this.pos < this.tokens.length) throw new GrammarError('unbalanced parentheses');
    return this.q;
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private orExpr(depth: number): Node | null {
    if (depth > MAX_DEPTH) throw new GrammarError('too deeply nested parentheses');
    const items: (Node | null)[] = [this.andExpr(depth)];
    while (this.peek()?.t === 'or') {
      this.pos++;
      items.push(this.andExpr(depth));
    }
    if (items.length === 1) return items[0];
    // A settings-only side of an OR (since:, scope:) matches everything, so the OR does too.
    if (items.some((n) => n === null)) return null;
    return { type: 'or', items: items as Node[] };
  }

  private andExpr(depth: number): Node | null {
    const items: Node[] = [];
    let any = false;
    for (let tok = this.peek(); tok && tok.t !== 'or' && tok.t !== 'rparen'; tok = this.peek()) {
      any = true;
      const n = this.unary(depth);
      if (n) items.push(n);
    }
    if (!any) {
      const next = this.peek();
      if (next?.t === 'rparen') throw new GrammarError('empty parentheses');
      throw new GrammarError(!next && depth > 0 ? 'unbalanced parentheses' : 'OR needs a term on both sides');
    }
    if (items.length === 0) return null;
    return items.length === 1 ? items[0] : { type: 'and', items };
  }

  private unary(depth: number): Node | null {
    const tok = this.tokens[this.pos++];
    if (tok.t === 'not') {
      const next = this.peek();
      if (!next || next.t === 'or' || next.t === 'rparen') throw new GrammarError('nothing to negate after "-"');
      const item = this.unary(depth);
      return item ? { type: 'not', item } : null;
    }
    if (tok.t === 'lparen') {
      const inner = this.orExpr(depth + 1);
      if (this.peek()?.t !== 'rparen') throw new GrammarError('unbalanced parentheses');
      this.pos++;
      return inner;
    }
    if (tok.t === 'sentiment') {
      this.q.sentiment = tok.value;
      return null;
    }
    if (tok.t === 'text') return this.leaf(tok.text, tok.quoted);
    throw new GrammarError('unbalanced parentheses');
  }

  private count(): void {
    if (++this.leaves > MAX_LEAVES) throw new GrammarError('too many search terms');
  }

  private leaf(text: string, quoted: boolean): Node | null {
    if (quoted) return this.textNode(text, true);
    const op = /^([a-z]+):(.*)$/i.exec(text);
    if (op && OPERATORS.has(op[1].toLowerCase())) return this.operator(op[1].toLowerCase(), op[2]);
    if (text.startsWith('#')) {
      const tag = normaliseHashtag(text);
      if (tag) {
        this.count();
        return { type: 'hashtag', tag };
      }
    }
    return this.textNode(text, false);
  }

  private textNode(text: string, quoted: boolean): Node | null {
    const words = tokenize(text).filter((t): t is string => t !== null);
    if (words.length === 0) return null;
    this.count();
    if (words.length === 1) return { type: 'word', term: words[0], prefix: !quoted && words[0].length >= PREFIX_MIN, raw: text };
    if (words.length > MAX_PHRASE_TERMS) throw new GrammarError('phrase too long');
    return { type: 'phrase', terms: words, raw: text };
  }

  private operator(name: string, value: string): Node | null {
    if (value === '') throw new GrammarError(`missing value for ${name}:`);
    const q = this.q;
    if (IGNORED_OPS.has(name)) {
      q.ignored.push(`${name}:${value}`);
      return null;
    }
    if (PERSON_OPS.has(name)) {
      const pubkey = decodePubkey(value);
      if (!pubkey) throw new GrammarError(`invalid ${name}: expected npub, nprofile or hex pubkey`);
      this.count();
      return { type: 'person', role: name as PersonRole, pubkey };
    }
    const metric = /^(min|max)(.+)$/.exec(name);
    if (metric && (METRICS as readonly string[]).includes(metric[2])) {
      (metric[1] === 'min' ? q.min : q.max)[metric[2] as Metric] = nonNegative(value, name);
      return null;
    }
    switch (name) {
      case 'kind':
      case 'repliestokind': {
        const kind = nonNegative(value, name);
        if (kind > 65535) throw new GrammarError(`invalid ${name}: ${value}`);
        this.count();
        return name === 'kind' ? { type: 'kind', kind } : { type: 'repliestokind', kind };
      }
      case 'ref': {
        const ref = decodeRef(value);
        if (!ref) throw new GrammarError('invalid ref: expected note, nevent, naddr or hex id');
        this.count();
        return { type: 'ref', ...ref };
      }
      case 'filter': {
        const media = FILTERS[value.toLowerCase()];
        if (!media) {
          q.ignored.push(`filter:${value}`);
          return null;
        }
        this.count();
        return { type: 'media', media };
      }
      case 'url': {
        const words = tokenize(value).filter((t): t is string => t !== null).slice(0, MAX_PHRASE_TERMS);
        if (!words.length) throw new GrammarError(`invalid url: ${value}`);
        this.count();
        return { type: 'url', terms: words };
      }
      case 'since':
      case 'until': {
        const { at, relative } = unixDate(value, name, this.now);
        if (name === 'since') {
          q.since = at;
          q.relative = relative;
        } else q.until = at;
        return null;
      }
      case 'scope': {
        const scope = value.toLowerCase();
        if (!(SCOPES as readonly string[]).includes(scope)) throw new GrammarError(`unknown scope: ${value}`);
        q.scope = scope as Scope;
        return null;
      }
      case 'orderby': {
        const order = value.toLowerCase();
        if (order === 'time' || order === 'created_at' || order === 'latest') q.orderBy = 'created_at';
        else if ((ORDERS as readonly string[]).includes(order)) q.orderBy = order as OrderBy;
        else throw new GrammarError(`unknown orderby: ${value}`);
        return null;
      }
      case 'features':
      case 'feature':
        for (const f of value.toLowerCase().split(',')) if (f && !q.features.includes(f)) q.features.push(f);
        return null;
      case 'maxchars':
        q.maxChars = nonNegative(value, 'maxchars');
        return null;
      case 'minlongreplies':
        q.minLongReplies = nonNegative(value, 'minlongreplies');
        return null;
      case 'orientation': {
        const o = value.toLowerCase();
        if (o === 'vertical' || o === 'horizontal') q.orientation = o;
        q.ignored.push(`orientation:${value}`);
        return null;
      }
      case 'minduration':
      case 'maxduration': {
        const secs = nonNegative(value, name);
        if (name === 'minduration') q.minDuration = secs;
        else q.maxDuration = secs;
        q.ignored.push(`${name}:${value}`);
        return null;
      }
    }
    throw new GrammarError(`unknown operator ${name}:`);
  }
}

/** Parses an advanced-search query; throws GrammarError with a short reason when it is broken. */
export function parseQuery(query: string, now: number): ParsedQuery {
  if (query.length > MAX_QUERY_LENGTH) throw new GrammarError('query too long');
  return new Parser(lex(query), now).parse();
}

/** Whether the tree names a kind anywhere (otherwise a search covers notes). */
export function mentionsKind(node: Node | null): boolean {
  if (!node) return false;
  if (node.type === 'kind') return true;
  if (node.type === 'and' || node.type === 'or') return node.items.some(mentionsKind);
  if (node.type === 'not') return mentionsKind(node.item);
  return false;
}

/** Every leaf of the tree with whether it sits under an odd number of negations. */
export function leaves(node: Node | null, negated = false, out: { node: Node; negated: boolean }[] = []) {
  if (!node) return out;
  if (node.type === 'and' || node.type === 'or') for (const n of node.items) leaves(n, negated, out);
  else if (node.type === 'not') leaves(node.item, !negated, out);
  else out.push({ node, negated });
  return out;
}
