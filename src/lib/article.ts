/**
 * Long-form articles (NIP-23, kind 30023) as the reads editor writes them: the stable `d`
 * identifier, the tags, validation and the draft the editor keeps while someone types.
 * Pure, so the rules are unit-tested without a browser.
 */
import { decode } from 'nostr-tools/nip19';
import type { NostrEvent, UnsignedEvent } from '../../core/types';

export const LONG_FORM_KIND = 30023;
/** Slugs longer than this are cut at a word boundary: the naddr and the URL stay readable. */
const MAX_SLUG = 60;
const SUFFIX_LENGTH = 6;
/** articleInfo (reads) ignores longer topics, so the editor refuses them too. */
export const MAX_TOPIC = 64;
/** Tags the editor writes itself; any other tag of an edited article is kept as it was. */
const MANAGED_TAGS = new Set(['d', 'title', 'summary', 'image', 'published_at', 't']);

/** 'Árvíztűrő tükörfúrógép!' → 'arvizturo-tukorfurogep'. Empty when nothing usable is left. */
export function slugify(title: string): string {
  const plain = title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (plain.length <= MAX_SLUG) return plain;
  const cut = plain.slice(0, MAX_SLUG);
  const dash = cut.lastIndexOf('-');
  return (dash > MAX_SLUG / 2 ? cut.slice(0, dash) : cut).replace(/-+$/, '');
}

/** A short random suffix so two articles with the same title get different addresses. */
export function randomSuffix(random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n))): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  return Array.from(random(SUFFIX_LENGTH), (b) => alphabet[b % alphabet.length]).join('');
}

export function makeIdentifier(title: string, suffix: string): string {
  return `${slugify(title) || 'cikk'}-${suffix}`;
}

/** One topic as a `t` tag: no leading #, lower case, inner spaces as dashes; '' when unusable. */
export function normalizeTopic(raw: string): string {
  const topic = raw.trim().replace(/^#+/, '').trim().toLowerCase().replace(/\s+/g, '-');
  return topic.length <= MAX_TOPIC ? topic : '';
}

/** Topics lower-cased, without empties and duplicates, in their first order. */
export function normalizeTopics(list: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of list) {
    const topic = normalizeTopic(raw);
    if (topic && !out.includes(topic)) out.push(topic);
  }
  return out;
}

/** Typed text split at commas (the topic field adds each part as a chip). */
export function splitTopicInput(text: string): string[] {
  return text.split(',').map((part) => part.trim()).filter(Boolean);
}

/** p tags for the people the body mentions (nostr:npub… / nostr:nprofile…), so they are notified. */
export function mentionedPubkeys(content: string): string[] {
  const out: string[] = [];
  for (const match of content.matchAll(/nostr:((?:npub|nprofile)1[02-9ac-hj-np-z]+)/g)) {
    try {
      const d = decode(match[1]);
      const pubkey = d.type === 'npub' ? d.data : d.type === 'nprofile' ? d.data.pubkey : undefined;
      if (pubkey && !out.includes(pubkey)) out.push(pubkey);
    } catch {
      // A broken code is plain text, not a mention.
    }
  }
  return out;
}

export interface ArticleFields {
  title: string;
  summary: string;
  image: string;
  topics: string[];
  content: string;
}

export interface ArticleInput extends ArticleFields {
  identifier: string;
  /** Seconds; the first publication's time, kept on every later edit. */
  publishedAt?: number;
  /** Tags of the edited article the editor does not manage (client, mentions…). */
  extraTags?: string[][];
}

/** The unsigned kind-30023 event; `now` (seconds) is created_at and, on a first publication, published_at. */
export function buildArticleEvent(input: ArticleInput, now: number): UnsignedEvent {
  const tags: string[][] = [['d', input.identifier], ['title', input.title.trim()]];
  const summary = input.summary.trim();
  const image = input.image.trim();
  if (summary) tags.push(['summary', summary]);
  if (image) tags.push(['image', image]);
  tags.push(['published_at', String(input.publishedAt && input.publishedAt > 0 ? input.publishedAt : now)]);
  for (const topic of normalizeTopics(input.topics)) tags.push(['t', topic]);
  const extra = (input.extraTags ?? []).filter((t) => !MANAGED_TAGS.has(t[0]));
  tags.push(...extra);
  const tagged = new Set(tags.filter((t) => t[0] === 'p').map((t) => t[1]));
  for (const pubkey of mentionedPubkeys(input.content)) if (!tagged.has(pubkey)) tags.push(['p', pubkey]);
  return { kind: LONG_FORM_KIND, created_at: now, tags, content: input.content };
}

export type FieldError = 'required' | 'invalid';
export type ArticleErrors = Partial<Record<'title' | 'image' | 'content', FieldError>>;

/** A cover address readers' clients can load: absolute http(s). */
export function isImageUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** In the order the form shows the fields, so the first error is the first to fix. */
export function validateArticle(fields: Pick<ArticleFields, 'title' | 'content'> & { image?: string }): ArticleErrors {
  const errors: ArticleErrors = {};
  if (!fields.title.trim()) errors.title = 'required';
  if (fields.image?.trim() && !isImageUrl(fields.image)) errors.image = 'invalid';
  if (!fields.content.trim()) errors.content = 'required';
  return errors;
}

function tagValue(tags: string[][], name: string): string {
  const v = tags.find((t) => t[0] === name && typeof t[1] === 'string')?.[1];
  return typeof v === 'string' ? v : '';
}

/** An existing article back into the editor's fields. */
export function articleToInput(event: Pick<NostrEvent, 'tags' | 'content' | 'created_at'>): ArticleInput {
  const published = Number(tagValue(event.tags, 'published_at'));
  return {
    identifier: tagValue(event.tags, 'd'),
    title: tagValue(event.tags, 'title'),
    summary: tagValue(event.tags, 'summary'),
    image: tagValue(event.tags, 'image'),
    topics: normalizeTopics(event.tags.filter((t) => t[0] === 't' && typeof t[1] === 'string').map((t) => t[1])),
    content: event.content,
    publishedAt: Number.isFinite(published) && published > 0 ? published : event.created_at,
    extraTags: event.tags.filter((t) => !MANAGED_TAGS.has(t[0]) && t[0] !== 'p'),
  };
}

export interface ArticleAddress {
  kind: number;
  pubkey: string;
  identifier: string;
}

/** 'kind:pubkey:d' (an `a` tag value); null when it is not one. */
export function parseCoordinate(value: string): ArticleAddress | null {
  const first = value.indexOf(':');
  const second = value.indexOf(':', first + 1);
  if (first < 0 || second < 0) return null;
  const kind = Number(value.slice(0, first));
  const pubkey = value.slice(first + 1, second).toLowerCase();
  if (!Number.isInteger(kind) || kind < 30000 || kind >= 40000 || !/^[0-9a-f]{64}$/.test(pubkey)) return null;
  return { kind, pubkey, identifier: value.slice(second + 1) };
}

export function coordinateOf(a: ArticleAddress): string {
  return `${a.kind}:${a.pubkey}:${a.identifier}`;
}

/** The article to edit, from /reads/edit?naddr=… or ?a=kind:pubkey:d. */
export function editTarget(search: string): ArticleAddress | null {
  const params = new URLSearchParams(search);
  const naddr = params.get('naddr')?.trim().replace(/^nostr:/, '');
  if (naddr) {
    try {
      const d = decode(naddr);
      if (d.type === 'naddr' && d.data.kind === LONG_FORM_KIND) return { kind: d.data.kind, pubkey: d.data.pubkey, identifier: d.data.identifier };
    } catch {
      // Falls through to ?a=.
    }
  }
  const a = params.get('a');
  const parsed = a ? parseCoordinate(a.trim()) : null;
  return parsed && parsed.kind === LONG_FORM_KIND ? parsed : null;
}

/** What the editor keeps between visits (in the account's drafts, see draftKey). */
export interface ArticleDraft extends ArticleInput {
  /** The random part of a new article's identifier, fixed when the draft starts. */
  suffix: string;
  /** ms */
  savedAt: number;
}

/** The account draft slot: 'article:<d>' for an article being edited, 'article:new' for a new one. */
export function draftKey(identifier?: string): string {
  return identifier ? `article:${identifier}` : 'article:new';
}

export function emptyDraft(suffix: string): ArticleDraft {
  return { identifier: '', suffix, title: '', summary: '', image: '', topics: [], content: '', savedAt: 0 };
}

export function serializeDraft(draft: ArticleDraft): string {
  return JSON.stringify({ v: 1, ...draft });
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** A stored draft, or null when the text is not one (an older format, a damaged value). */
export function parseDraft(text: string | undefined): ArticleDraft | null {
  if (!text) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null || (raw as { v?: unknown }).v !== 1) return null;
  const r = raw as Record<string, unknown>;
  const draft: ArticleDraft = {
    identifier: str(r.identifier),
    suffix: str(r.suffix) || randomSuffix(),
    title: str(r.title),
    summary: str(r.summary),
    image: str(r.image),
    topics: Array.isArray(r.topics) ? normalizeTopics(r.topics.filter((x): x is string => typeof x === 'string')) : [],
    content: str(r.content),
    savedAt: typeof r.savedAt === 'number' ? r.savedAt : 0,
  };
  if (typeof r.publishedAt === 'number' && r.publishedAt > 0) draft.publishedAt = r.publishedAt;
  if (Array.isArray(r.extraTags)) {
    draft.extraTags = r.extraTags.filter((t): t is string[] => Array.isArray(t) && t.every((x) => typeof x === 'string'));
  }
  return draft;
}

/** True when the draft holds nothing worth keeping. */
export function isBlankDraft(d: ArticleFields): boolean {
  return !d.title.trim() && !d.summary.trim() && !d.image.trim() && d.topics.length === 0 && !d.content.trim();
}

export function sameFields(a: ArticleFields, b: ArticleFields): boolean {
  return (
    a.title === b.title &&
    a.summary === b.summary &&
    a.image === b.image &&
    a.content === b.content &&
    a.topics.length === b.topics.length &&
    a.topics.every((t, i) => t === b.topics[i])
  );
}
