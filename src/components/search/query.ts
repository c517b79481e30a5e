/**
 * The advanced-search form and the query grammar of cache-protocol S §3.7, both ways: the form
 * writes a query, and parse_advanced_search_query's 10000180 description fills the form back in.
 */
import { decode, npubEncode } from 'nostr-tools/nip19';

export const KINDS = ['notes', 'reads', 'images', 'video', 'audio', 'noteReplies', 'readsComments'] as const;
export type SearchKind = (typeof KINDS)[number];
export const SCOPES = ['global', 'myfollows', 'mynetwork', 'myfollowsinteractions', 'mynetworkinteractions', 'notmyfollows'] as const;
export type SearchScope = (typeof SCOPES)[number];
export const ORDERS = ['time', 'score', 'replies', 'satszapped', 'likes'] as const;
export type SearchOrder = (typeof ORDERS)[number];

export interface SearchForm {
  words: string;
  phrase: string;
  excluded: string;
  hashtags: string;
  from: string;
  to: string;
  mention: string;
  kind: SearchKind;
  since: string;
  until: string;
  minLikes: string;
  minZaps: string;
  minReplies: string;
  scope: SearchScope;
  order: SearchOrder;
}

export const EMPTY_FORM: SearchForm = {
  words: '',
  phrase: '',
  excluded: '',
  hashtags: '',
  from: '',
  to: '',
  mention: '',
  kind: 'notes',
  since: '',
  until: '',
  minLikes: '',
  minZaps: '',
  minReplies: '',
  scope: 'global',
  order: 'time',
};

const KIND_QUERY: Record<SearchKind, string> = {
  notes: '',
  reads: 'kind:30023',
  images: 'kind:1 filter:image',
  video: 'kind:1 filter:video',
  audio: 'kind:1 filter:audio',
  noteReplies: 'repliestokind:1',
  readsComments: 'repliestokind:30023',
};

const ORDER_QUERY: Record<SearchOrder, string> = { time: '', score: 'score', replies: 'replies', satszapped: 'satszapped', likes: 'likes' };

/** Words and "quoted phrases", in order; an unclosed quote runs to the end. */
export function splitTerms(text: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"?|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[1] !== undefined) {
      const phrase = m[1].trim();
      if (phrase) out.push(`"${phrase}"`);
    } else if (m[2]) out.push(m[2]);
  }
  return out;
}

const HEX64 = /^[0-9a-f]{64}$/i;

/**
 * A user as the grammar takes it: npub and nprofile pass, a hex key becomes its npub, and
 * anything else is left out (a name is not a user reference).
 */
export function userRef(raw: string): string | null {
  const value = raw.trim().replace(/^nostr:/, '').replace(/^@/, '');
  if (HEX64.test(value)) return npubEncode(value.toLowerCase());
  if (!/^(npub1|nprofile1)/.test(value)) return null;
  try {
    const d = decode(value);
    return d.type === 'npub' || d.type === 'nprofile' ? value : null;
  } catch {
    return null;
  }
}

export function userRefs(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map(userRef)
    .filter((v): v is string => v !== null);
}

function count(text: string): number {
  const n = Math.floor(Number(text));
  return Number.isFinite(n) && n > 0 ? n : 0;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The query the form describes, terms in a stable order. */
export function buildQuery(form: SearchForm): string {
  const parts: string[] = [];
  parts.push(...splitTerms(form.words));
  const phrase = form.phrase.replace(/"/g, ' ').replace(/\s+/g, ' ').trim();
  if (phrase) parts.push(`"${phrase}"`);
  for (const tag of form.hashtags.split(/[\s,]+/)) {
    const clean = tag.replace(/^#+/, '').trim();
    if (clean) parts.push(`#${clean}`);
  }
  for (const term of splitTerms(form.excluded)) parts.push(`-${term.replace(/^-+/, '')}`);
  for (const ref of userRefs(form.from)) parts.push(`from:${ref}`);
  for (const ref of userRefs(form.to)) parts.push(`to:${ref}`);
  for (const ref of userRefs(form.mention)) parts.push(`mention:${ref}`);
  if (KIND_QUERY[form.kind]) parts.push(KIND_QUERY[form.kind]);
  if (DAY.test(form.since)) parts.push(`since:${form.since}`);
  if (DAY.test(form.until)) parts.push(`until:${form.until}`);
  if (count(form.minLikes)) parts.push(`minlikes:${count(form.minLikes)}`);
  if (count(form.minZaps)) parts.push(`minzaps:${count(form.minZaps)}`);
  if (count(form.minReplies)) parts.push(`minreplies:${count(form.minReplies)}`);
  if (form.scope !== 'global') parts.push(`scope:${form.scope}`);
  if (ORDER_QUERY[form.order]) parts.push(`orderby:${ORDER_QUERY[form.order]}`);
  return parts.join(' ');
}

const KIND_LABELS: Record<string, SearchKind> = {
  Notes: 'notes',
  Reads: 'reads',
  Images: 'images',
  Video: 'video',
  Audio: 'audio',
  'Note Replies': 'noteReplies',
  'Reads Comments': 'readsComments',
};
const SCOPE_LABELS: Record<string, SearchScope> = {
  Global: 'global',
  'My Follows': 'myfollows',
  'My Network': 'mynetwork',
  'My Follows Interactions': 'myfollowsinteractions',
  'My Network Interactions': 'mynetworkinteractions',
  'Not My Follows': 'notmyfollows',
};
const ORDER_LABELS: Record<string, SearchOrder> = { Time: 'time', Score: 'score', Replies: 'replies', 'Sats Zapped': 'satszapped', Likes: 'likes' };

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function npubs(v: unknown): string {
  if (!Array.isArray(v)) return '';
  return v
    .filter((x): x is string => typeof x === 'string')
    .map((x) => userRef(x))
    .filter((x): x is string => x !== null)
    .join(' ');
}

function positive(v: unknown): string {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? String(n) : '';
}

/** The form from a parse_advanced_search_query description (S §3.7); unknown labels keep the defaults. */
export function formFromDescription(description: Record<string, unknown>): SearchForm {
  const includes = splitTerms(str(description.includes));
  const words = includes.filter((t) => !t.startsWith('"'));
  const phrases = includes.filter((t) => t.startsWith('"'));
  const custom = (description.customTimeframe ?? {}) as Record<string, unknown>;
  const isCustom = description.timeframe === 'Custom';
  return {
    ...EMPTY_FORM,
    // The form has one phrase field; further phrases stay among the words, still quoted.
    words: [...words, ...phrases.slice(1)].join(' '),
    phrase: phrases[0]?.slice(1, -1) ?? '',
    excluded: str(description.excludes),
    hashtags: str(description.hashtags),
    from: npubs(description.postedBy),
    to: npubs(description.replingTo),
    mention: npubs(description.userMentions),
    kind: KIND_LABELS[str(description.kind)] ?? 'notes',
    since: isCustom && DAY.test(str(custom.since)) ? str(custom.since) : '',
    until: isCustom && DAY.test(str(custom.until)) ? str(custom.until) : '',
    minLikes: positive(description.minLikes),
    minZaps: positive(description.minZaps),
    minReplies: positive(description.minReplies),
    scope: SCOPE_LABELS[str(description.scope)] ?? 'global',
    order: ORDER_LABELS[str(description.sortBy)] ?? 'time',
  };
}

/** An npub or nprofile typed as the whole query: the profile to open instead of a search. */
export function profileTarget(query: string): string | null {
  const value = query.trim().replace(/^nostr:/, '');
  if (!/^(npub1|nprofile1)[02-9ac-hj-np-z]+$/.test(value)) return null;
  try {
    const d = decode(value);
    return d.type === 'npub' || d.type === 'nprofile' ? value : null;
  } catch {
    return null;
  }
}

/** The plain words of a query, for the name search shown above its notes (operators and tags left out). */
export function nameTerms(query: string): string {
  return splitTerms(query)
    .filter((t) => !t.startsWith('"') && !t.startsWith('-') && !t.startsWith('#') && !t.includes(':') && t !== 'OR' && !/^[()]+$/.test(t))
    .join(' ');
}
