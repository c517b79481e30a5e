import { lazy, memo, Suspense, useState } from 'react';
import { Link } from 'wouter';
import { useCardT } from '../lib/noteI18n';
import { npubEncode } from 'nostr-tools/nip19';
import type { FeedNote, ReactionTab } from '../../core/types';
import { displayName, shortNpub } from '../../core/profile';
import { formatRelativeTime, fullDateTitle } from '../lib/format';
import { useNow } from '../lib/hooks';
import { useNip05Verified } from '../lib/nip05';
import { Avatar } from './Avatar';
import { RepostIcon, VerifiedIcon } from './Icons';
import { NoteContent } from './NoteContent';
import { NoteStats } from './NoteStats';
import { TopZaps } from './TopZaps';
import { NoteMore } from './actions/NoteMore';
import { ACTIONS_NS, useDeletedNotes } from './actions/state';
import { addressHref, noteHref, npubOf, profileHref } from '../lib/links';
import { MemberBadge } from './MemberBadge';

// The modal and its lists load on the first click, not with every feed.
const ReactionsModal = lazy(() => import('./ReactionsModal'));

/** Where the reply context points: the parent note (or article), named by its author. */
function parentHref(id: string, pubkey?: string): string {
  const [kind, author, identifier] = id.split(':');
  if (author !== undefined && identifier !== undefined) return addressHref({ kind: Number(kind), pubkey: author, identifier }, undefined, `/e/${id}`);
  return noteHref({ id, pubkey });
}

function replyName(replyTo: NonNullable<FeedNote['replyTo']>): { name: string; href: string } | null {
  const href = parentHref(replyTo.id, replyTo.pubkey);
  if (replyTo.author) return { name: displayName(replyTo.author), href };
  if (!replyTo.pubkey) return null;
  try {
    return { name: shortNpub(npubEncode(replyTo.pubkey)), href };
  } catch {
    return null;
  }
}

export interface NoteCardProps {
  note: FeedNote;
  position?: number;
  setSize?: number;
}

export const NoteCard = memo(function NoteCard({ note, position, setSize }: NoteCardProps) {
  const { t, i18n } = useCardT();
  const now = useNow();
  const { author, event } = note;
  const name = displayName(author);
  const npub = npubOf(author);
  const verified = useNip05Verified(author.pubkey, author.nip05 || undefined);
  const reply = note.replyTo ? replyName(note.replyTo) : null;
  const locale = i18n.resolvedLanguage ?? 'hu';
  const headingId = `note-${note.key}`;
  const [reactionsTab, setReactionsTab] = useState<ReactionTab | null>(null);
  const deleted = useDeletedNotes().has(event.id);

  if (deleted) {
    return (
      <article className="note note-deleted" data-note-id={event.id} aria-posinset={position} aria-setsize={setSize}>
        <p>{t('deleted', { ns: ACTIONS_NS })}</p>
      </article>
    );
  }

  return (
    <article className={note.local ? 'note note-pending' : 'note'} data-note-id={event.id} data-local={note.local} aria-labelledby={headingId} aria-posinset={position} aria-setsize={setSize}>
      {note.repostedBy && (
        <p className="note-repost">
          <RepostIcon size={16} />
          <Link href={profileHref(note.repostedBy)}>{t('note.repostedBy', { name: displayName(note.repostedBy) })}</Link>
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
            <MemberBadge profile={author} />
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
            <Link href={noteHref(note.event, note.relayHint)} className="note-time" onPointerEnter={fullDateTitle} onFocus={fullDateTitle}>
              <time dateTime={new Date(event.created_at * 1000).toISOString()} data-locale={locale}>
                {formatRelativeTime(event.created_at, now, locale)}
              </time>
            </Link>
            {note.local === 'pending' && (
              <span className="note-pending-mark" role="status" title={t('note.pendingTitle')}>
                {t('note.pending')}
              </span>
            )}
            <NoteMore note={note} />
          </header>
          {reply && (
            <p className="note-replyto">
              {t('note.replyingTo')} <Link href={reply.href}>@{reply.name}</Link>
            </p>
          )}
          <NoteContent content={event.content} profiles={note.profiles} tags={event.tags} referencedEvents={note.referencedEvents} />
          <TopZaps zaps={note.topZaps} profiles={note.zapProfiles ?? note.profiles} onOpen={() => setReactionsTab('zaps')} />
          <NoteStats stats={note.stats} actions={note.actions} onOpen={setReactionsTab} note={note} />
        </div>
      </div>
      {reactionsTab && (
        <Suspense fallback={null}>
          <ReactionsModal note={note} initialTab={reactionsTab} onClose={() => setReactionsTab(null)} />
        </Suspense>
      )}
    </article>
  );
});
