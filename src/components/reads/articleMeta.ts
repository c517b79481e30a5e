/** What an article card and the article view read from a kind-30023 event (spec §3 "Article"). */
import { naddrEncode } from 'nostr-tools/nip19';
import type { CacheObject, FeedDefinition, FeedNote, NostrEvent } from '../../../core/types';
import { articleHref as linkToArticle } from '../../lib/links';

/** Spec §9: reading time at 238 words a minute. */
export const WORDS_PER_MINUTE = 238;

export interface ArticleInfo {
  title: string;
  summary: string;
  image: string;
  /** Seconds: the published_at tag, else created_at. */
  publishedAt: number;
  topics: string[];
  identifier: string;
  naddr: string;
  words: number;
  minutes: number;
}

function tag(e: NostrEvent, name: string): string {
  const v = e.tags.find((t) => t[0] === name && typeof t[1] === 'string')?.[1];
  return typeof v === 'string' ? v.trim() : '';
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

export function readingMinutes(words: number): number {
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}

export function articleNaddr(e: Pick<NostrEvent, 'kind' | 'pubkey'>, identifier: string, relay?: string): string {
  try {
    return naddrEncode({ kind: e.kind, pubkey: e.pubkey, identifier, relays: relay ? [relay] : [] });
  } catch {
    return '';
  }
}

export function articleInfo(note: FeedNote): ArticleInfo {
  const e = note.event;
  const identifier = tag(e, 'd');
  const published = Number(tag(e, 'published_at'));
  const words = note.words ?? countWords(e.content);
  const seen = new Set<string>();
  const topics: string[] = [];
  for (const t of e.tags) {
    if (t[0] !== 't' || typeof t[1] !== 'string') continue;
    const topic = t[1].replace(/^#/, '').trim().toLowerCase();
    if (topic && topic.length <= 64 && !seen.has(topic)) {
      seen.add(topic);
      topics.push(topic);
    }
  }
  return {
    title: tag(e, 'title'),
    summary: tag(e, 'summary'),
    image: tag(e, 'image'),
    publishedAt: Number.isFinite(published) && published > 0 ? published : e.created_at,
    topics,
    identifier,
    naddr: articleNaddr(e, identifier, note.relayHint),
    words,
    minutes: readingMinutes(words),
  };
}

export function articleHref(note: FeedNote): string {
  return linkToArticle(note.event, note.relayHint);
}

function json(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The first synthetic object of a kind, its content parsed. */
export function syntheticContent(events: CacheObject[], kind: number): unknown {
  const o = events.find((e) => e.kind === kind);
  return o ? json(o.content) : undefined;
}

export function parseFeedList(value: unknown): FeedDefinition[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((f): FeedDefinition[] => {
    if (typeof f !== 'object' || f === null) return [];
    const r = f as Record<string, unknown>;
    if (typeof r.spec !== 'string' || typeof r.name !== 'string') return [];
    return [{ name: r.name, spec: r.spec, description: typeof r.description === 'string' ? r.description : '', enabled: r.enabled !== false }];
  });
}

export function parseStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string' && x.length > 0) : [];
}

export interface TopPick {
  naddr: string;
  title: string;
}

export function parseTopPicks(value: unknown): TopPick[] {
  const reads = (value as { reads?: unknown } | undefined)?.reads;
  if (!Array.isArray(reads)) return [];
  return reads.flatMap((r): TopPick[] =>
    Array.isArray(r) && typeof r[0] === 'string' && r[0].startsWith('naddr1') ? [{ naddr: r[0], title: typeof r[1] === 'string' ? r[1] : '' }] : [],
  );
}

/** The reads spec of a topic page: long_form_content_feed by topic. */
export function topicSpec(topic: string): string {
  return JSON.stringify({ kind: 'reads', topic });
}
