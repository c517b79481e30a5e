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
import type { Command, CommandEnv, SpecFeed } from '../registry.ts';
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

const RANGE_LABEL = { created_at: 'created_at', score: 'score', replies: 'replies', satszapped: 'satszapped', likes: 'likes', relevance: 'relevance' } as const;

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
export const SAVED_SEARCHES: ReadonlyMap<string, SpecQuery> = new Map<string, SpecQuery>([
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

/** The reads scopes that are advanced searches; other reads specs stay with the reads feed. */
export const READS_SEARCH_SCOPES: ReadonlySet<unknown> = new Set(['follows', 'myfollowsinteractions']);

/** The query of a reads spec whose scope is in READS_SEARCH_SCOPES. */
export const readsSearchQuery: SpecQuery = (s) => {
  if (s.optStr('scope') === 'myfollowsinteractions') return 'kind:1 scope:myfollowsinteractions';
  const minwords = s.int('minwords', 100);
  if (minwords < 0) throw new CommandError('invalid minwords');
  return `${READS_FOLLOWS} minwords:${minwords}`;
};

/** A spec answered by the advanced search its `query` makes of it, paged by the outer request. */
export function searchSpecFeed(query: SpecQuery): SpecFeed {
  return async (args, spec, env) => {
    const q = query(new Args(spec))?.trim();
    if (!q) throw new CommandError('query is empty');
    return advancedSearchBundle(env, q, readPage(args, 20), args.optHex('user_pubkey'));
  };
}

const PAGE_KEYS = ['since', 'until', 'limit', 'offset', 'user_pubkey'];

/**
 * advanced_feed (S §3.7): the specification is a mega_feed_directive spec, as a JSON string
 * or object, or a command call `["advanced_search", {query}]` (C.2).
 */
const advancedFeed: Command = async (args, env) => {
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
    if (name === 'advanced_feed') throw new CommandError('unknown api request');
    return env.run(name, { ...paging, ...(kwargs as Record<string, unknown> | undefined) });
  }
  if (!spec || typeof spec !== 'object') throw new CommandError('invalid spec format');
  return env.run('mega_feed_directive', { ...paging, spec: JSON.stringify(spec) });
};

export const searchCommands: [string, Command][] = [
  ['user_search', userSearch],
  ['search', search],
  ['advanced_search', advancedSearch],
  ['parse_advanced_search_query', parseAdvancedSearchQuery],
  ['advanced_feed', advancedFeed],
];
