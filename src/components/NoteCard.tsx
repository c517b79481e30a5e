import { memo } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { neventEncode, npubEncode } from 'nostr-tools/nip19';
import type { FeedNote, Profile } from '../../worker/types';
import { displayName, shortNpub } from '../../worker/profile';
import { formatFullDate, formatRelativeTime } from '../lib/format';
import { useNow } from '../lib/hooks';
import { useNip05Verified } from '../lib/nip05';
import { Avatar } from './Avatar';
import { RepostIcon, VerifiedIcon } from './Icons';
import { NoteContent } from './NoteContent';
import { NoteStats } from './NoteStats';

function npubOf(profile: Profile): string {
  if (profile.npub) return profile.npub;
  try {
    return npubEncode(profile.pubkey);
  } catch {
    return profile.pubkey;
  }
}

function replyName(replyTo: NonNullable<FeedNote['replyTo']>): { name: string; href: string } | null {
  if (replyTo.author) return { name: displayName(replyTo.author), href: `/p/${npubOf(replyTo.author)}` };
  if (!replyTo.pubkey) return null;
  try {
    const npub = npubEncode(replyTo.pubkey);
    return { name: shortNpub(npub), href: `/p/${npub}` };
  } catch {
    return null;
  }
}

function threadHref(note: FeedNote): string {
  try {
    return `/e/${neventEncode({ id: note.event.id, author: note.event.pubkey, relays: note.relayHint ? [note.relayHint] : [] })}`;
  } catch {
    return `/e/${note.event.id}`;
  }
}

export interface NoteCardProps {
  note: FeedNote;
  position?: number;
  setSize?: number;
}

export const NoteCard = memo(function NoteCard({ note, position, setSize }: NoteCardProps) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const { author, event } = note;
  const name = displayName(author);
  const npub = npubOf(author);
  const verified = useNip05Verified(author.pubkey, author.nip05 || undefined);
  const reply = note.replyTo ? replyName(note.replyTo) : null;
  const locale = i18n.resolvedLanguage ?? 'hu';
  const headingId = `note-${note.key}`;

  return (
    <article className="note" data-note-id={event.id} aria-labelledby={headingId} aria-posinset={position} aria-setsize={setSize}>
      {note.repostedBy && (
        <p className="note-repost">
          <RepostIcon size={16} />
          <Link href={`/p/${npubOf(note.repostedBy)}`}>{t('note.repostedBy', { name: displayName(note.repostedBy) })}</Link>
        </p>
      )}
      <div className="note-body">
        <Link href={`/p/${npub}`} className="note-avatar" tabIndex={-1} aria-hidden="true">
          <Avatar profile={author} name={name} />
        </Link>
        <div className="note-main">
          <header className="note-header">
            <h2 className="note-author" id={headingId}>
              <Link href={`/p/${npub}`}>{name}</Link>
            </h2>
            {verified && (
              <span className="note-verified" title={t('note.verified', { nip05: author.nip05 })}>
                <VerifiedIcon />
                <span className="visually-hidden">{t('note.verified', { nip05: author.nip05 })}</span>
              </span>
            )}
            {author.nip05 && <span className="note-nip05">{author.nip05.replace(/^_@/, '')}</span>}
            <span className="note-dot" aria-hidden="true">
              ·
            </span>
            <Link href={threadHref(note)} className="note-time">
              <time dateTime={new Date(event.created_at * 1000).toISOString()} title={formatFullDate(event.created_at, locale)}>
                {formatRelativeTime(event.created_at, now, locale)}
              </time>
            </Link>
          </header>
          {reply && (
            <p className="note-replyto">
              {t('note.replyingTo')} <Link href={reply.href}>@{reply.name}</Link>
            </p>
          )}
          <NoteContent content={event.content} profiles={note.profiles} />
          <NoteStats stats={note.stats} actions={note.actions} />
        </div>
      </div>
    </article>
  );
});
