import { useTranslation } from 'react-i18next';
import type { FeedNote } from '../../../core/types';
import { displayName } from '../../../core/profile';
import { formatFullDate, formatRelativeTime } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { Avatar } from '../Avatar';
import { NoteContent } from '../NoteContent';

/**
 * A note shown small inside the form: the one replied to above it, the one quoted below it.
 * Inert: it is context for the writer, not something to click away to mid-sentence.
 */
export function NotePreview({ note, label, clamp }: { note: FeedNote; label: string; clamp?: boolean }) {
  const { i18n } = useTranslation('composer');
  const now = useNow();
  const locale = i18n.resolvedLanguage ?? 'hu';
  const name = displayName(note.author);
  return (
    <section className={`note-embed composer-note-preview${clamp ? ' composer-note-preview-clamp' : ''}`} aria-label={label} inert>
      <header className="note-embed-header">
        <Avatar profile={note.author} name={name} size={22} />
        <span className="note-embed-author">{name}</span>
        <span aria-hidden="true">·</span>
        <time className="note-embed-time" dateTime={new Date(note.event.created_at * 1000).toISOString()} title={formatFullDate(note.event.created_at, locale)}>
          {formatRelativeTime(note.event.created_at, now, locale)}
        </time>
      </header>
      <NoteContent content={note.event.content} profiles={note.profiles} tags={note.event.tags} referencedEvents={note.referencedEvents} depth={1} />
    </section>
  );
}
