/**
 * Legacy and multi-kind feed entry points (S §3.1): `feed_directive(_2)`,
 * `multi_kind_mega_feed_directive`, `multi_kind_thread_view` and `enrich_feed_events`.
 * None of them has feed logic of its own: each translates its arguments and hands them to a
 * registered command (feed, search, explore, advanced_search, long_form_content_feed,
 * thread_view, events, mega_feed_directive), so there is one implementation of every feed.
 */
import { Args, CommandError, isHex64, type Kwargs } from '../args.ts';
import type { CacheObject } from '../data.ts';
import { range } from '../enrich.ts';
import type { Command, CommandEnv } from '../registry.ts';
import { exploreBundle, readExplore, SCOPES, TIMEFRAMES, type Scope, type Timeframe } from './explore.ts';
import { parseSpec } from './feeds.ts';
import { clampHours } from './scored.ts';

const HOUR = 3600;
/** A directive is a short string or one small JSON call; anything longer is not a client's. */
const MAX_DIRECTIVE_CHARS = 10_000;
/** The request keys that page a feed; they travel with every delegated call. */
const PAGE_KEYS = ['since', 'until', 'limit', 'offset', 'user_pubkey'] as const;
/**
 * Commands that themselves dispatch to other commands. The JSON form may not name them, so
 * a directive cannot nest directives (each level would be a fresh, unbounded dispatch).
 */
const DISPATCHERS = new Set(['feed_directive', 'feed_directive_2', 'advanced_feed', 'multi_kind_mega_feed_directive']);

/** Runs a registered command (through the environment: the registry imports this module). */
function delegate(name: string, kwargs: Kwargs, env: CommandEnv): Promise<CacheObject[]> {
  return env.run(name, kwargs);
}

function paging(args: Args): Kwargs {
  const out: Kwargs = {};
  for (const k of PAGE_KEYS) if (args.raw[k] !== undefined) out[k] = args.raw[k];
  return out;
}

const isObject = (v: unknown): v is Kwargs => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `["command", {args}]`: the named command with the request's paging under the given arguments. */
function runJsonDirective(text: string, page: Kwargs, env: CommandEnv): Promise<CacheObject[]> {
  let call: unknown;
  try {
    call = JSON.parse(text);
  } catch {
    throw new CommandError('invalid directive: not valid JSON');
  }
  if (!Array.isArray(call) || call.length < 1 || call.length > 2 || typeof call[0] !== 'string' || (call[1] !== undefined && !isObject(call[1]))) {
    throw new CommandError('invalid directive: expected ["command", {arguments}]');
  }
  const name = call[0];
  if (DISPATCHERS.has(name)) throw new CommandError(`invalid directive: ${name} cannot be nested`);
  return delegate(name, { ...page, ...(call[1] as Kwargs | undefined) }, env);
}

function directivePubkey(value: string, head: string): string {
  const pk = value.trim();
  if (!isHex64(pk)) throw new CommandError(`invalid directive: expected a hex pubkey after ${head};`);
  return pk.toLowerCase();
}

/** Notes types of the per-user directives, as `feed` arguments. */
const USER_DIRECTIVES: Record<string, Kwargs> = {
  authored: { notes: 'authored' },
  authoredreplies: { notes: 'replies' },
  withreplies: { notes: 'authored', include_replies: true },
  bookmarks: { notes: 'bookmarks' },
};

const isTimeframe = (v: string): v is Timeframe => (TIMEFRAMES as readonly string[]).includes(v);
const isScope = (v: string): v is Scope => (SCOPES as readonly string[]).includes(v);

/** The directive forms of S §3.1, in the order the reference lists them. */
const feedDirective: Command = async (args, env) => {
  const raw = args.optStr('directive');
  if (raw === undefined) throw new CommandError('missing directive');
  if (raw.length > MAX_DIRECTIVE_CHARS) throw new CommandError('directive too long');
  const directive = raw.trim();
  if (!directive) throw new CommandError('invalid directive: empty');
  const page = paging(args);
  if (directive.startsWith('[')) return runJsonDirective(directive, page, env);
  // A ternary, not an if: isHex64 narrows, and a string that fails it would read as `never` below.
  const followsOf = isHex64(directive) ? directive.toLowerCase() : undefined;
  if (followsOf) return delegate('feed', { ...page, pubkey: followsOf, notes: 'follows' }, env);

  const sep = directive.indexOf(';');
  if (sep < 0) throw new CommandError('invalid directive: expected a pubkey, "kind;value" or a JSON call');
  const head = directive.slice(0, sep).trim();
  const rest = directive.slice(sep + 1);
  if (head === 'search') {
    const query = rest.trim();
    if (!query) throw new CommandError('query is empty');
    return delegate('search', { ...page, query }, env);
  }
  const user = USER_DIRECTIVES[head];
  if (user) return delegate('feed', { ...page, ...user, pubkey: directivePubkey(rest, head) }, env);
  const tail = rest.trim();
  if (head === 'global' && tail === 'trending') return delegate('explore_global_trending_24h', page, env);
  if (head === 'global' && tail === 'mostzapped4h') return delegate('explore_global_mostzapped_4h', page, env);
  // `<timeframe>;<scope>` in either order, over the last 24 hours (the legacy explore tabs).
  const [timeframe, scope] = isTimeframe(head) && isScope(tail) ? [head, tail] : isTimeframe(tail) && isScope(head) ? [tail, head] : [];
  if (!timeframe || !scope) throw new CommandError(`invalid directive: unknown ${head};${tail}`);
  return delegate('explore', { ...page, timeframe, scope, created_after: env.ctx.now() - 24 * HOUR }, env);
};

/** Media feeds of multi_kind_mega_feed_directive, as advanced searches (S §3.1). */
const MEDIA_QUERIES: Record<string, string> = {
  photos: 'kind:20',
  short_videos: 'kind:34236',
  media: 'kind:20 OR kind:34236',
};
/** Spec ids that take the kinds list; every other id is mega_feed_directive's, kinds ignored. */
const KIND_IDS = new Set(['latest', 'global-trending', 'all-notes', 'most-zapped', 'feed', 'advsearch', 'nostr-reads-feed']);
const NOSTR_READS_REST = 'scope:myfollowsinteractions minwords:100 features:summary';
const KIND_LONG_FORM = 30023;

const kindClause = (kinds: number[]) => `(${kinds.map((k) => `kind:${k}`).join(' OR ')})`;

/** The rankings of mega_feed_directive over several kinds at once, through explore's query (everyone ranked, no follower floor). */
async function rankedMultiKind(id: string, spec: Args, page: Kwargs, kinds: number[], env: CommandEnv): Promise<CacheObject[]> {
  const now = env.ctx.now();
  const fixed = id === 'all-notes' ? 'latest' : id === 'most-zapped' ? 'mostzapped' : 'popular';
  const q = readExplore(new Args(page), now, { minFollowers: 0 }, { timeframe: fixed, scope: 'global' });
  q.kinds = kinds;
  // global-trending and most-zapped look back `hours` like their single-kind forms; all-notes keeps explore's week.
  if (id !== 'all-notes') q.createdAfter = Math.floor(now - clampHours(spec.raw.hours, id === 'most-zapped' ? 4 : 24) * HOUR);
  return exploreBundle(env.ctx.db, q);
}

/** A spec whose kinds include 30023 lists articles (S §3.1): the profile's, the follows', or everyone's. */
function longFormFeed(id: string, spec: Args, page: Kwargs, viewer: string | undefined, env: CommandEnv): Promise<CacheObject[]> {
  const { id: _id, kind: _kind, kinds: _kinds, ...rest } = spec.raw;
  if (id === 'feed') return delegate('long_form_content_feed', { ...rest, ...page, pubkey: spec.hex('pubkey'), notes: 'authored' }, env);
  if (id === 'latest') {
    if (!viewer) return Promise.resolve([range('published_at', [])]);
    return delegate('long_form_content_feed', { ...rest, ...page, pubkey: viewer, notes: 'follows' }, env);
  }
  return delegate('long_form_content_feed', { ...rest, ...page, pubkey: undefined, notes: 'all' }, env);
}

const multiKindMegaFeedDirective: Command = async (args, env) => {
  const kinds = args.optKinds();
  if (!kinds?.length) return delegate('mega_feed_directive', args.raw, env);
  const specObj = parseSpec(args.raw.spec);
  const spec = new Args(specObj);
  const id = typeof specObj.id === 'string' ? specObj.id : '';
  const page = paging(args);
  const viewer = args.optHex('user_pubkey');
  const media = MEDIA_QUERIES[id];
  if (media) return delegate('advanced_search', { ...page, query: media }, env);
  if (!KIND_IDS.has(id)) return delegate('mega_feed_directive', args.raw, env);

  // Searches take the kinds as a query clause, so 30023 among them is simply searched too.
  if (id === 'advsearch') {
    const query = spec.str('query', '').trim();
    if (!query) throw new CommandError('query is empty');
    return delegate('advanced_search', { ...page, query: `(${query}) ${kindClause(kinds)}` }, env);
  }
  if (id === 'nostr-reads-feed') return delegate('advanced_search', { ...page, query: `${kindClause(kinds)} ${NOSTR_READS_REST}` }, env);
  if (kinds.includes(KIND_LONG_FORM)) return longFormFeed(id, spec, page, viewer, env);

  const includeReplies = spec.bool('include_replies', false);
  if (id === 'latest') {
    if (!viewer) return [range('created_at', [])];
    return delegate('feed', { ...page, pubkey: viewer, notes: 'follows', include_replies: includeReplies, kinds }, env);
  }
  if (id === 'feed') {
    return delegate('feed', { ...page, pubkey: spec.hex('pubkey'), notes: spec.str('notes', 'authored'), include_replies: includeReplies, kinds }, env);
  }
  return rankedMultiKind(id, spec, page, kinds, env);
};

/** thread_view with the direct replies narrowed to `kinds` (thread_view reads the same argument). */
const multiKindThreadView: Command = async (args, env) => {
  args.optKinds();
  return delegate('thread_view', args.raw, env);
};

/** S §3.1: the bundle for the given ids, which is `events` with extended_response. */
const enrichFeedEvents: Command = async (args, env) => delegate('events', { ...args.raw, extended_response: true }, env);

export const legacyCommands: [string, Command][] = [
  ['feed_directive', feedDirective],
  ['feed_directive_2', feedDirective],
  ['multi_kind_mega_feed_directive', multiKindMegaFeedDirective],
  ['multi_kind_thread_view', multiKindThreadView],
  ['enrich_feed_events', enrichFeedEvents],
];
