/**
 * Search commands (S §3.3 user_search, §3.7 search / advanced_search /
 * parse_advanced_search_query, advanced_feed), the mega_feed_directive specs that run an
 * advanced search (S §3.1), and the plain `{"search": …}` filter shortcuts (S §1.1).
 */
import { describeQuery } from '../../search/describe.ts';
import { searchItems, searchUsers } from '../../search/engine.ts';
import { GrammarError, parseQuery, type ParsedQuery } from '../../search/grammar.ts';
import type { SearchPage } from '../../search/sql.ts';
import { Args, CommandError } from '../args.ts';
import type { CacheObject } from '../data.ts';
import { enrich, synthetic } from '../enrich.ts';
import type { Command, CommandEnv } from '../registry.ts';
import { userInfos } from './users.ts';
import { CacheKind } from '../../../core/kinds.ts';

const MAX_PAGE = 100;

function parse(query: string, now: number): ParsedQuery {
  try {
    return parseQuery(query, now);
  } catch (err) {
    if (err instanceof GrammarError) throw new CommandError(err.message);
    throw err;
  }
}

function requireQuery(args: Args): string {
  const query = args.str('query', '').trim();
  if (!query) throw new CommandError('query is empty');
  return query;
}

function readPage(args: Args, fallbackLimit: number): SearchPage {
  return { since: args.optBound('since'), until: args.optBound('until'), limit: args.limit(fallbackLimit, MAX_PAGE), offset: args.offset() };
}

const RANGE_LABEL = { created_at: 'created_at', score: 'score', replies: 'replies', satszapped: 'satszapped', likes: 'likes' } as const;

/** Runs an advanced-search query and returns the enriched posts with a RANGE in its order. */
export async function advancedSearchBundle(
  env: CommandEnv,
  query: string,
  page: SearchPage,
  viewer: string | undefined,
  defaultKinds = [1],
): Promise<CacheObject[]> {
  const { ctx } = env;
  const parsed = parse(query, ctx.now());
  const items = await searchItems(ctx.db, parsed, { viewer, defaultKinds, page });
  return (await enrich(ctx.db, items, { viewer, orderBy: RANGE_LABEL[parsed.orderBy] })).objects;
}

const userSearch: Command = async (args, { ctx }) => {
  const query = args.str('query', '');
  const followedBy = args.optHex('pubkey');
  if (!query.trim() && !followedBy) throw new CommandError('query is empty');
  const pubkeys = await searchUsers(ctx.db, { query, limit: args.limit(10, MAX_PAGE), followedBy });
  return userInfos(ctx.db, pubkeys);
};

const search: Command = async (args, env) => {
  const query = requireQuery(args);
  const kind = args.optInt('kind');
  if (kind !== undefined && (kind < 0 || kind > 65535)) throw new CommandError('invalid kind');
  return advancedSearchBundle(env, query, readPage(args, 20), args.optHex('user_pubkey'), kind === undefined ? [1] : [kind]);
};

const advancedSearch: Command = async (args, env) =>
  advancedSearchBundle(env, requireQuery(args), readPage(args, 20), args.optHex('user_pubkey'));

const parseAdvancedSearchQuery: Command = async (args, { ctx }) => {
  const parsed = parse(args.str('query', ''), ctx.now());
  return [synthetic(CacheKind.PARSED_SEARCH_QUERY, describeQuery(parsed))];
};

type SpecQuery = (spec: Args) => string | undefined;

const READS_FOLLOWS = 'kind:30023 scope:myfollows features:summary';

/** mega_feed_directive ids that are saved advanced searches (S §3.1 table). */
const SPEC_QUERIES = new Map<string, SpecQuery>([
  ['advsearch', (s) => s.str('query', '')],
  ['nostr-reads-feed', () => 'kind:30023 scope:myfollowsinteractions minwords:100 features:summary'],
  ['video-reels', () => 'kind:1 filter:video orientation:vertical maxduration:90 mininteractions:2'],
  ['wide-net-notes', () => 'kind:1 scope:myfollowsinteractions'],
  ['strange-but-popular', () => 'kind:1 scope:notmyfollows minscore:50'],
  ['engaging-discussions', () => 'kind:1 minlongreplies:5'],
  ['only-tweets', () => 'kind:1 maxchars:140'],
  ['bookmarked-by-follows', () => 'kind:1 features:bookmarked-by-follows'],
  ['explore-media', () => 'kind:1 filter:image scope:mynetworkinteractions -#nsfw features:cdnmedia'],
]);

/** Reads feeds whose scope is an advanced search; other reads specs stay with the reads feed. */
function readsQuery(spec: Record<string, unknown>, s: Args): string | undefined {
  if (spec.id !== 'reads-feed' && spec.kind !== 'reads') return undefined;
  const scope = s.optStr('scope');
  if (scope === 'myfollowsinteractions') return 'kind:1 scope:myfollowsinteractions';
  if (scope !== 'follows') return undefined;
  const minwords = s.int('minwords', 100);
  if (minwords < 0) throw new CommandError('invalid minwords');
  return `${READS_FOLLOWS} minwords:${minwords}`;
}

/**
 * The mega_feed_directive hook: the search-backed specs, or undefined so the caller's own
 * dispatch handles the spec.
 */
export function runSearchSpec(spec: Record<string, unknown>, args: Args, env: CommandEnv): Promise<CacheObject[]> | undefined {
  const s = new Args(spec);
  const viewer = args.optHex('user_pubkey');
  const page = () => readPage(args, 20);
  if (spec.id === 'search' && spec.kind !== 'reads') {
    const query = s.str('query', '').trim();
    if (!query) return Promise.reject(new CommandError('query is empty'));
    return advancedSearchBundle(env, query, page(), viewer);
  }
  const reads = readsQuery(spec, s);
  if (reads) return advancedSearchBundle(env, reads, page(), viewer);
  const make = typeof spec.id === 'string' ? SPEC_QUERIES.get(spec.id) : undefined;
  if (!make) return undefined;
  const query = make(s)?.trim();
  if (!query) return Promise.reject(new CommandError('query is empty'));
  return advancedSearchBundle(env, query, page(), viewer);
}

const PAGE_KEYS = ['since', 'until', 'limit', 'offset', 'user_pubkey'];

/**
 * advanced_feed (S §3.7): the specification is a mega_feed_directive spec, as a JSON string
 * or object, or a command call `["advanced_search", {query}]` (C.2).
 */
const advancedFeed: Command = async (args, env) => {
  // Loaded on use: the registry imports this module, so a static import would be a cycle.
  const { COMMANDS } = await import('../registry.ts');
  let spec: unknown = args.raw.specification;
  if (typeof spec === 'string') {
    try {
      spec = JSON.parse(spec);
    } catch {
      throw new CommandError('invalid spec format');
    }
  }
  const paging: Record<string, unknown> = {};
  for (const k of PAGE_KEYS) if (args.raw[k] !== undefined) paging[k] = args.raw[k];
  if (Array.isArray(spec)) {
    const [name, kwargs] = spec as unknown[];
    if (typeof name !== 'string' || (kwargs !== undefined && (typeof kwargs !== 'object' || kwargs === null || Array.isArray(kwargs)))) {
      throw new CommandError('invalid spec format');
    }
    const command = name === 'advanced_feed' ? undefined : COMMANDS.get(name);
    if (!command) throw new CommandError('unknown api request');
    return command(new Args({ ...paging, ...(kwargs as Record<string, unknown> | undefined) }), env);
  }
  if (!spec || typeof spec !== 'object') throw new CommandError('invalid spec format');
  const mega = COMMANDS.get('mega_feed_directive');
  if (!mega) throw new CommandError('unknown api request');
  return mega(new Args({ ...paging, spec: JSON.stringify(spec) }), env);
};

export const searchCommands: [string, Command][] = [
  ['user_search', userSearch],
  ['search', search],
  ['advanced_search', advancedSearch],
  ['parse_advanced_search_query', parseAdvancedSearchQuery],
  ['advanced_feed', advancedFeed],
];
