import { memo, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import type { FeedNote } from '../../../core/types';
import { displayName, toNpub } from '../../../core/profile';
import { formatCount } from '../../lib/format';
import { mediaUrl } from '../../lib/media';
import { Avatar } from '../Avatar';
import { NoteActionsRow } from '../actions/NoteActionsRow';
import { articleHref, articleInfo } from './articleMeta';

export function formatDay(seconds: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric' }).format(new Date(seconds * 1000));
}

function Cover({ url, size }: { url: string; size: 'm' | 'l' }) {
  const [failed, setFailed] = useState(false);
  if (!url || failed) return null;
  // The title says what the article is; a decorative cover would only repeat it to a screen reader.
  return <img className="article-card-cover" src={mediaUrl(url, size)} alt="" loading="lazy" decoding="async" onError={() => setFailed(true)} />;
}

export interface ArticleCardProps {
  note: FeedNote;
  position?: number;
  setSize?: number;
}

export const ArticleCard = memo(function ArticleCard({ note, position, setSize }: ArticleCardProps) {
  const { t, i18n } = useTranslation('reads');
  const locale = i18n.resolvedLanguage ?? 'hu';
  const info = articleInfo(note);
  const name = displayName(note.author);
  const href = articleHref(note);
  const headingId = `article-${note.key}`;
  return (
    <article className="article-card" data-article-id={note.event.id} aria-labelledby={headingId} aria-posinset={position} aria-setsize={setSize}>
      <header className="article-card-author">
        <Link href={`/p/${note.author.npub || toNpub(note.author.pubkey)}`} className="article-card-author-link">
          <Avatar profile={note.author} name={name} size={28} />
          <span className="article-card-name">{name}</span>
        </Link>
        <span aria-hidden="true">·</span>
        <time dateTime={new Date(info.publishedAt * 1000).toISOString()}>{formatDay(info.publishedAt, locale)}</time>
      </header>
      <div className="article-card-main">
        <div className="article-card-text">
          <h2 className="article-card-title" id={headingId}>
            <Link href={href}>{info.title || t('untitled')}</Link>
          </h2>
          {info.summary && <p className="article-card-summary">{info.summary}</p>}
        </div>
        <Cover url={info.image} size="m" />
      </div>
      <footer className="article-card-footer">
        <span className="article-card-reading" data-reading-minutes={info.minutes}>
          {t('readingTime', { count: info.minutes })}
        </span>
        <span className="article-card-words">{t('wordCount', { count: info.words, formatted: formatCount(info.words, { locale }) })}</span>
        <NoteActionsRow note={note} />
      </footer>
    </article>
  );
});
