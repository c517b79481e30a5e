import { Fragment, lazy, Suspense, useMemo, type ReactNode } from 'react';
import { Link } from 'wouter';
import { npubEncode } from 'nostr-tools/nip19';
import type { NostrEvent, Profile } from '../../core/types';
import { displayName, shortNpub } from '../../core/profile';
import { emojiMap, parseContent, type ContentPart } from '../lib/content';
import { mediaUrl } from '../lib/media';
import { NOTE_NS, useCardT } from '../lib/noteI18n';
import { NoteImage } from './NoteImage';
import { CashuCard } from './embeds/CashuCard';
import { EmbeddedArticle, EmbeddedNote } from './embeds/EmbeddedNote';
import { EmbedPlayer } from './embeds/EmbedPlayer';
import { LinkPreview, PlainLink } from './embeds/LinkPreview';
import { NoteVideo } from './embeds/NoteVideo';
import '../styles/note.css';
import '../styles/note-cards.css';

// The bolt11 decoder is only needed by the rare note that carries an invoice.
const InvoiceCard = lazy(() => import('./embeds/InvoiceCard'));

/** Quotes inside quotes stop here and become links, so a quote loop cannot recurse forever. */
const MAX_DEPTH = 2;
/** Link cards per note: a list of links stays a list instead of a wall of cards. */
const MAX_PREVIEWS = 2;

const BLOCKS = new Set<ContentPart['type']>(['image', 'video', 'embed', 'event', 'address', 'invoice', 'cashu']);

function shortBech32(value: string): string {
  return value.length > 24 ? `${value.slice(0, 12)}…${value.slice(-6)}` : value;
}

// Blocks sit on their own lines, so the blank lines written around them would only add gaps.
function tidy(parts: ContentPart[]): ContentPart[] {
  return parts
    .map((part, i) => {
      if (part.type !== 'text') return part;
      let text = part.text;
      if (i === 0) text = text.replace(/^\s+/, '');
      if (i === parts.length - 1) text = text.replace(/\s+$/, '');
      if (parts[i - 1] && BLOCKS.has(parts[i - 1].type)) text = text.replace(/^[ \t]*\n(?:[ \t]*\n)?/, '');
      if (parts[i + 1] && BLOCKS.has(parts[i + 1].type)) text = text.replace(/\n(?:[ \t]*\n)?[ \t]*$/, '');
      return { type: 'text' as const, text };
    })
    .filter((part) => part.type !== 'text' || part.text.length > 0);
}

function mentionName(pubkey: string, profiles: Record<string, Profile>): string {
  const profile = profiles[pubkey];
  if (profile) return displayName(profile);
  try {
    return shortNpub(npubEncode(pubkey));
  } catch {
    return shortBech32(pubkey);
  }
}

interface RenderContext {
  profiles: Record<string, Profile>;
  referencedEvents: Record<string, NostrEvent>;
  depth: number;
  emojiLabel: (name: string) => string;
  missingNote: string;
  missingArticle: string;
}

function renderPart(part: ContentPart, ctx: RenderContext, preview: boolean): ReactNode {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'link':
      return preview ? <LinkPreview url={part.url} /> : <PlainLink url={part.url} />;
    case 'image':
      return <NoteImage url={part.url} />;
    case 'video':
      return <NoteVideo url={part.url} />;
    case 'embed':
      return <EmbedPlayer url={part.url} embed={part.embed} />;
    case 'hashtag':
      return (
        <Link className="note-hashtag" href={`/search/${encodeURIComponent(`#${part.tag}`)}`}>
          #{part.tag}
        </Link>
      );
    case 'mention':
      return (
        <Link className="note-mention" href={`/p/${part.bech32}`}>
          @{mentionName(part.pubkey, ctx.profiles)}
        </Link>
      );
    case 'event': {
      const event = ctx.referencedEvents[part.id];
      if (event && ctx.depth < MAX_DEPTH) {
        return <EmbeddedNote event={event} bech32={part.bech32} profiles={ctx.profiles} referencedEvents={ctx.referencedEvents} depth={ctx.depth} />;
      }
      return (
        <Link className="note-link note-ref-link" href={`/e/${part.bech32}`} title={ctx.missingNote}>
          {shortBech32(part.bech32)}
        </Link>
      );
    }
    case 'address': {
      const event = ctx.referencedEvents[part.coordinate];
      if (event && ctx.depth < MAX_DEPTH) return <EmbeddedArticle event={event} bech32={part.bech32} profiles={ctx.profiles} />;
      return (
        <Link className="note-link note-ref-link" href={`/a/${part.bech32}`} title={ctx.missingArticle}>
          {shortBech32(part.bech32)}
        </Link>
      );
    }
    case 'invoice':
      return (
        <Suspense fallback={<span className="note-card note-card-loading" aria-hidden="true" />}>
          <InvoiceCard invoice={part.invoice} />
        </Suspense>
      );
    case 'cashu':
      return <CashuCard token={part.token} />;
    case 'emoji':
      return (
        <img
          className="note-emoji"
          src={mediaUrl(part.url, 's')}
          alt={`:${part.name}:`}
          title={ctx.emojiLabel(part.name)}
          width={22}
          height={22}
          loading="lazy"
          decoding="async"
        />
      );
  }
}

export interface NoteContentProps {
  content: string;
  profiles: Record<string, Profile>;
  /** The event's tags: its NIP-30 emoji. */
  tags?: string[][];
  /** Quoted notes and articles the card can embed (FeedNote.referencedEvents). */
  referencedEvents?: Record<string, NostrEvent>;
  /** How deep inside quotes this text sits; 0 for a card's own text. */
  depth?: number;
}

const NO_EVENTS: Record<string, NostrEvent> = {};

/**
 * Parsed texts by content and emoji tags. The worker's snapshot replaces the kept first screen
 * with new note objects (new tag arrays), the list's second pass and every feed update re-render
 * cards whose text has not changed, and a note shows on several screens: each parsed once.
 */
const parsed = new Map<string, ContentPart[]>();
const PARSED_MAX = 400;

function emojiKey(tags: string[][] | undefined): string {
  let key = '';
  for (const t of tags ?? []) if (t[0] === 'emoji') key += `${t[1]}\u0000${t[2]}\u0000`;
  return key;
}

function parsedParts(content: string, tags: string[][] | undefined): ContentPart[] {
  const key = `${emojiKey(tags)}\u0001${content}`;
  const hit = parsed.get(key);
  if (hit) {
    // Most recently used last, so the oldest is the one dropped.
    parsed.delete(key);
    parsed.set(key, hit);
    return hit;
  }
  const parts = tidy(parseContent(content, emojiMap(tags)));
  if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value as string);
  parsed.set(key, parts);
  return parts;
}

export function NoteContent({ content, profiles, tags, referencedEvents = NO_EVENTS, depth = 0 }: NoteContentProps) {
  const { t } = useCardT(NOTE_NS);
  const parts = useMemo(() => parsedParts(content, tags), [content, tags]);
  const ctx: RenderContext = {
    profiles,
    referencedEvents,
    depth,
    emojiLabel: (name) => t('emoji', { name }),
    missingNote: t('embed.missingNote'),
    missingArticle: t('embed.missingArticle'),
  };
  let previews = depth === 0 ? MAX_PREVIEWS : 0;
  return (
    <div className="note-content">
      {parts.map((part, i) => {
        const preview = part.type === 'link' && previews > 0;
        if (preview) previews--;
        return <Fragment key={i}>{renderPart(part, ctx, preview)}</Fragment>;
      })}
    </div>
  );
}
