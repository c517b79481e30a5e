/**
 * mega_feed_directive (S §3.1) and the one table that says which code answers which feed spec.
 * The first rule whose `matches` holds answers; a spec no rule matches gets an empty page.
 * advanced_feed reaches this through the environment's run('mega_feed_directive', …).
 */
import type { CacheObject } from '../data.ts';
import type { Command, SpecFeed } from '../registry.ts';
import { exploreZapsSpecFeed, hallOfFameSpecFeed } from './explore.ts';
import { allNotesSpecFeed, authorSpecFeed, checkSpecArgs, latestSpecFeed, parseSpec, rankedSpecFeed, unknownSpecFeed } from './feeds.ts';
import { readsSpecFeed } from './reads.ts';
import { READS_SEARCH_SCOPES, readsSearchQuery, SAVED_SEARCHES, searchSpecFeed } from './search.ts';

type Spec = Record<string, unknown>;

export interface FeedSpecRule {
  /** What answers, for logs and tests: a spec id or a family of specs. */
  answers: string;
  matches(spec: Spec): boolean;
  feed: SpecFeed;
  /** Search rules read kinds and paging with the search grammar's own rules. */
  searches?: true;
}

const isReads = (spec: Spec) => spec.kind === 'reads' || spec.id === 'reads-feed';
const idIs =
  (...ids: string[]) =>
  (spec: Spec) =>
    typeof spec.id === 'string' && ids.includes(spec.id);

export const FEED_SPEC_RULES: readonly FeedSpecRule[] = [
  // Search first: a reads spec of a search scope is a search, not the reads listing.
  { answers: 'search', matches: (spec) => spec.id === 'search' && spec.kind !== 'reads', feed: searchSpecFeed((s) => s.str('query', '')), searches: true },
  { answers: 'reads search', matches: (spec) => isReads(spec) && READS_SEARCH_SCOPES.has(spec.scope), feed: searchSpecFeed(readsSearchQuery), searches: true },
  ...[...SAVED_SEARCHES].map(([id, query]) => ({ answers: id, matches: idIs(id), feed: searchSpecFeed(query), searches: true as const })),
  { answers: 'reads', matches: (spec) => isReads(spec) && (spec.scope === undefined || spec.scope === 'zappedbyfollows'), feed: readsSpecFeed },
  { answers: 'hall-of-fame-notes', matches: idIs('hall-of-fame-notes'), feed: hallOfFameSpecFeed },
  { answers: 'explore-zaps', matches: idIs('explore-zaps'), feed: exploreZapsSpecFeed },
  { answers: 'latest', matches: idIs('latest'), feed: latestSpecFeed },
  { answers: 'ranked', matches: idIs('global-trending', 'most-zapped'), feed: rankedSpecFeed },
  { answers: 'all-notes', matches: idIs('all-notes'), feed: allNotesSpecFeed },
  { answers: 'feed', matches: idIs('feed'), feed: authorSpecFeed },
];

const UNKNOWN: FeedSpecRule = { answers: 'unknown', matches: () => true, feed: unknownSpecFeed };

/** The rule that answers `spec`. */
export function resolveFeedSpec(spec: Spec): FeedSpecRule {
  return FEED_SPEC_RULES.find((rule) => rule.matches(spec)) ?? UNKNOWN;
}

const megaFeedDirective: Command = async (args, env): Promise<CacheObject[]> => {
  const spec = parseSpec(args.raw.spec);
  const rule = resolveFeedSpec(spec);
  if (!rule.searches) checkSpecArgs(args, spec);
  return rule.feed(args, spec, env);
};

export const feedSpecCommands: [string, Command][] = [['mega_feed_directive', megaFeedDirective]];
