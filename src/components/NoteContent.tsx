import { Fragment, useMemo, type ReactNode } from 'react';
import { Link } from 'wouter';
import { npubEncode } from 'nostr-tools/nip19';
import type { Profile } from '../../worker/types';
import { displayName, shortNpub } from '../../worker/profile';
import { parseContent, type ContentPart } from '../lib/content';
import { NoteImage } from './NoteImage';

const LINK_TEXT_MAX = 42;

function linkText(url: string): string {
  const bare = url.replace(/^https?:\/\//, '').replace(/\/$/, '');
  return bare.length > LINK_TEXT_MAX ? `${bare.slice(0, LINK_TEXT_MAX - 1)}…` : bare;
}

function shortBech32(value: string): string {
  return value.length > 24 ? `${value.slice(0, 12)}…${value.slice(-6)}` : value;
}

// Images sit on their own lines, so the blank lines written around them would only add gaps.
function tidy(parts: ContentPart[]): ContentPart[] {
  return parts
    .map((part, i) => {
      if (part.type !== 'text') return part;
      let text = part.text;
      if (i === 0) text = text.replace(/^\s+/, '');
      if (i === parts.length - 1) text = text.replace(/\s+$/, '');
      if (parts[i - 1]?.type === 'image') text = text.replace(/^\s*\n/, '');
      if (parts[i + 1]?.type === 'image') text = text.replace(/\n\s*$/, '');
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

function renderPart(part: ContentPart, profiles: Record<string, Profile>): ReactNode {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'link':
      return (
        <a className="note-link" href={part.url} target="_blank" rel="noopener noreferrer">
          {linkText(part.url)}
        </a>
      );
    case 'image':
      return <NoteImage url={part.url} />;
    case 'hashtag':
      return (
        <Link className="note-hashtag" href={`/search/${encodeURIComponent(`#${part.tag}`)}`}>
          #{part.tag}
        </Link>
      );
    case 'mention':
      return (
        <Link className="note-mention" href={`/p/${part.bech32}`}>
          @{mentionName(part.pubkey, profiles)}
        </Link>
      );
    case 'event':
      return (
        <Link className="note-link" href={`/e/${part.bech32}`}>
          {shortBech32(part.bech32)}
        </Link>
      );
  }
}

export function NoteContent({ content, profiles }: { content: string; profiles: Record<string, Profile> }) {
  const parts = useMemo(() => tidy(parseContent(content)), [content]);
  return (
    <div className="note-content">
      {parts.map((part, i) => (
        <Fragment key={i}>{renderPart(part, profiles)}</Fragment>
      ))}
    </div>
  );
}
