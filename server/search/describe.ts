/**
 * parse_advanced_search_query (S §3.7): a parsed query described in the fields the
 * advanced-search form edits, so a client can fill the form back in from a saved query.
 */
import { leaves, type Node, type ParsedQuery, type Scope } from './grammar.ts';

/** Reading speed the reads form converts word counts with. */
export const WORDS_PER_MINUTE = 238;

export interface QueryDescription {
  includes: string;
  excludes: string;
  hashtags: string;
  kind: string;
  postedBy: string[];
  replingTo: string[];
  zappedBy: string[];
  userMentions: string[];
  following: string[];
  timeframe: string;
  customTimeframe: { since: string; until: string };
  scope: string;
  sortBy: string;
  orientation: string;
  sentiment: string;
  minDuration: number;
  maxDuration: number;
  minWords: number;
  maxWords: number;
  minScore: number;
  minInteractions: number;
  minLikes: number;
  minZaps: number;
  minReplies: number;
  minReposts: number;
}

const SCOPE_LABELS: Record<Scope, string> = {
  myfollows: 'My Follows',
  mynetwork: 'My Network',
  myfollowsinteractions: 'My Follows Interactions',
  mynetworkinteractions: 'My Network Interactions',
  mynotifications: 'My Notifications',
  notmyfollows: 'Not My Follows',
};
const SORT_LABELS = { created_at: 'Time', score: 'Score', replies: 'Replies', satszapped: 'Sats Zapped', likes: 'Likes', relevance: 'Relevance' } as const;
const SENTIMENT_LABELS = { positive: 'Positive', negative: 'Negative', question: 'Question' } as const;
const RELATIVE_LABELS: Record<string, string> = {
  last1h: 'Today',
  last4h: 'Today',
  last12h: 'Today',
  today: 'Today',
  yesterday: 'Today',
  lastday: 'Today',
  lastweek: 'This Week',
  lastmonth: 'This Month',
  lastyear: 'This Year',
};

const isoDay = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);
const minutes = (words: number | undefined) => (words ? Math.max(1, Math.round(words / WORDS_PER_MINUTE)) : 0);

function kindLabel(parts: { node: Node; negated: boolean }[]): string {
  const kinds = new Set<number>();
  const media = new Set<string>();
  let repliesTo: number | undefined;
  for (const { node, negated } of parts) {
    if (negated) continue;
    if (node.type === 'kind') kinds.add(node.kind);
    if (node.type === 'media') media.add(node.media);
    if (node.type === 'repliestokind') repliesTo = node.kind;
  }
  if (repliesTo === 30023) return 'Reads Comments';
  if (repliesTo !== undefined) return 'Note Replies';
  if (kinds.has(30023)) return 'Reads';
  if (media.has('video') || kinds.has(34235) || kinds.has(34236) || kinds.has(21) || kinds.has(22)) return 'Video';
  if (media.has('image') || kinds.has(20)) return 'Images';
  if (media.has('audio')) return 'Audio';
  return 'Notes';
}

export function describeQuery(q: ParsedQuery): QueryDescription {
  const parts = leaves(q.expr);
  const includes: string[] = [];
  const excludes: string[] = [];
  const hashtags: string[] = [];
  const people: Record<string, string[]> = { from: [], to: [], zappedby: [], mention: [], following: [] };
  for (const { node, negated } of parts) {
    if (node.type === 'word') (negated ? excludes : includes).push(node.raw);
    else if (node.type === 'phrase') (negated ? excludes : includes).push(`"${node.raw}"`);
    else if (node.type === 'hashtag') (negated ? excludes : hashtags).push(`#${node.tag}`);
    else if (node.type === 'person' && !negated && !people[node.role].includes(node.pubkey)) people[node.role].push(node.pubkey);
  }
  let timeframe = 'Anytime';
  const custom = { since: '', until: '' };
  if (q.since !== undefined || q.until !== undefined) {
    const label = q.relative && q.until === undefined ? RELATIVE_LABELS[q.relative] : undefined;
    if (label) timeframe = label;
    else {
      timeframe = 'Custom';
      if (q.since !== undefined) custom.since = isoDay(q.since);
      if (q.until !== undefined) custom.until = isoDay(q.until);
    }
  }
  return {
    includes: includes.join(' '),
    excludes: excludes.join(' '),
    hashtags: hashtags.join(' '),
    kind: kindLabel(parts),
    postedBy: people.from,
    replingTo: people.to,
    zappedBy: people.zappedby,
    userMentions: people.mention,
    following: people.following,
    timeframe,
    customTimeframe: custom,
    scope: q.scope ? SCOPE_LABELS[q.scope] : 'Global',
    sortBy: SORT_LABELS[q.orderBy],
    orientation: q.orientation === 'vertical' ? 'Vertical' : q.orientation === 'horizontal' ? 'Horizontal' : 'Any',
    sentiment: q.sentiment ? SENTIMENT_LABELS[q.sentiment] : 'Neutral',
    minDuration: q.minDuration ?? 0,
    maxDuration: q.maxDuration ?? 0,
    minWords: minutes(q.min.words),
    maxWords: minutes(q.max.words),
    minScore: q.min.score ?? 0,
    minInteractions: q.min.interactions ?? 0,
    minLikes: q.min.likes ?? 0,
    minZaps: q.min.zaps ?? 0,
    minReplies: q.min.replies ?? 0,
    minReposts: q.min.reposts ?? 0,
  };
}
