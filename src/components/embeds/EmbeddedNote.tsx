import type { MouseEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { NostrEvent, Profile } from '../../../core/types';
import { displayName, emptyProfile } from '../../../core/profile';
import { formatRelativeTime, fullDateTitle } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { mediaUrl } from '../../lib/media';
import { NOTE_NS, useCardT } from '../../lib/noteI18n';
import { Avatar } from '../Avatar';
import { NoteContent } from '../NoteContent';
import { articleHref, noteHref, profileHref } from '../../lib/links';

const LONG_FORM = 30023;
const SUMMARY_MAX = 240;

function tagValue(event: NostrEvent, name: string): string {
  return event.tags.find((t) => t[0] === name)?.[1]?.trim() ?? '';
}


/** A referenced article (naddr, or a nevent pointing at one): image, title and summary, one link. */
export function EmbeddedArticle({ event, bech32, profiles }: { event: NostrEvent; bech32?: string; profiles: Record<string, Profile> }) {
  const { t } = useCardT(NOTE_NS);
  const title = tagValue(event, 'title') || t('embed.untitled');
  const summary = tagValue(event, 'summary') || event.content.replace(/[#*_>`[\]()!-]+/g, ' ').trim();
  const image = tagValue(event, 'image');
  const author = profiles[event.pubkey] ?? emptyProfile(event.pubkey);
  return (
    <Link className="note-embed note-embed-article" href={bech32?.startsWith('naddr1') ? `/a/${bech32}` : articleHref(event)} aria-label={t('embed.articleLabel', { title })}>
      {/^https?:\/\//.test(image) && <img className="note-embed-article-image" src={mediaUrl(image, 's')} alt="" loading="lazy" decoding="async" />}
      <span className="note-embed-article-text">
        <span className="note-embed-kicker">
          {t('embed.article')} · {displayName(author)}
        </span>
        <span className="note-embed-article-title">{title}</span>
        {summary && <span className="note-embed-article-summary">{summary.length > SUMMARY_MAX ? `${summary.slice(0, SUMMARY_MAX - 1)}…` : summary}</span>}
      </span>
    </Link>
  );
}

interface EmbeddedNoteProps {
  event: NostrEvent;
  bech32?: string;
  profiles: Record<string, Profile>;
  referencedEvents: Record<string, NostrEvent>;
  depth: number;
}

/** A quoted note inside another note's text; clicking anywhere but a link opens it. */
export function EmbeddedNote({ event, bech32, profiles, referencedEvents, depth }: EmbeddedNoteProps) {
  const { t, i18n } = useCardT(NOTE_NS);
  const now = useNow();
  const [, navigate] = useLocation();
  if (event.kind === LONG_FORM) return <EmbeddedArticle event={event} bech32={bech32} profiles={profiles} />;
  const author = profiles[event.pubkey] ?? emptyProfile(event.pubkey);
  const name = displayName(author);
  const href = bech32 ? `/e/${bech32}` : noteHref(event);
  const locale = i18n.resolvedLanguage ?? 'hu';
  const open = (e: MouseEvent<HTMLElement>) => {
    if ((e.target as HTMLElement).closest('a, button, video, iframe')) return;
    if (window.getSelection()?.toString()) return;
    navigate(href);
  };
  return (
    <section className="note-embed" aria-label={t('embed.noteLabel', { name })} onClick={open} data-embedded-note-id={event.id}>
      <header className="note-embed-header">
        <Avatar profile={author} name={name} size={22} />
        <Link className="note-embed-author" href={profileHref({ pubkey: event.pubkey, npub: author.npub })}>
          {name}
        </Link>
        <span aria-hidden="true">·</span>
        <Link className="note-embed-time" href={href} onPointerEnter={fullDateTitle} onFocus={fullDateTitle}>
          <time dateTime={new Date(event.created_at * 1000).toISOString()} data-locale={locale}>
            {formatRelativeTime(event.created_at, now, locale)}
          </time>
        </Link>
      </header>
      <NoteContent content={event.content} profiles={profiles} tags={event.tags} referencedEvents={referencedEvents} depth={depth + 1} />
    </section>
  );
}
