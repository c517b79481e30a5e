import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import type { FeedNote } from '../../core/types';
import { displayName, toNpub } from '../../core/profile';
import { NoteCard } from '../components/NoteCard';
import { FeedSkeleton } from '../components/NoteSkeleton';
import { NoteActionsRow } from '../components/actions/NoteActionsRow';
import { NoteMore } from '../components/actions/NoteMore';
import { StatusMessage, RetryMessage } from '../components/StatusMessage';
import { Avatar } from '../components/Avatar';
import { ArticleBody } from '../components/reads/ArticleBody';
import { formatDay } from '../components/reads/ArticleCard';
import { HighlightsSection, parseHighlights, parseZaps, ZapsSection } from '../components/reads/ArticleExtras';
import { articleInfo } from '../components/reads/articleMeta';
import { decodeArticleAddress, useArticleThread, type ArticleAddress } from '../components/reads/useArticle';
import { readyEvents, useCacheRequest } from '../components/reads/useCache';
import { registerNamespace } from '../i18n';
import { useActingPubkey } from '../lib/account';
import { formatCount } from '../lib/format';
import { usePageTitle } from '../lib/hooks';
import { mediaUrl } from '../lib/media';
import hu from '../../locales/hu/reads.json';
import en from '../../locales/en/reads.json';
import '../styles/reads.css';
import '../styles/article.css';

registerNamespace('reads', { hu, en });

const TOP_ZAPS = 20;

function Missing() {
  const { t } = useTranslation('reads');
  return (
    <StatusMessage title={t('article.missing')} action={<Link href="/reads" className="button">{t('allReads')}</Link>}>
      {t('article.missingText')}
    </StatusMessage>
  );
}

function ArticleView({ note, address, replies }: { note: FeedNote; address: ArticleAddress; replies: FeedNote[] }) {
  const { t, i18n } = useTranslation('reads');
  const locale = i18n.resolvedLanguage ?? 'hu';
  const info = articleInfo(note);
  const name = displayName(note.author);
  const npub = note.author.npub || toNpub(note.author.pubkey);
  const own = useActingPubkey() === note.event.pubkey;

  const addressKey = `${address.kind}:${address.pubkey}:${address.identifier}`;
  const addressArgs = { pubkey: address.pubkey, identifier: address.identifier, kind: address.kind };
  const highlightsReply = useCacheRequest('get_highlights', addressArgs, addressKey).state;
  const zapsReply = useCacheRequest('event_zaps_by_satszapped', { ...addressArgs, limit: TOP_ZAPS }, addressKey).state;
  const highlights = useMemo(() => parseHighlights(readyEvents(highlightsReply)), [highlightsReply]);
  const zappers = useMemo(() => parseZaps(readyEvents(zapsReply)), [zapsReply]);

  return (
    <article className="article" aria-labelledby="article-title" data-article-id={note.event.id}>
      {info.image && <img className="article-cover" src={mediaUrl(info.image, 'l')} alt={t('article.coverAlt', { title: info.title })} />}
      <h1 className="article-title" id="article-title">
        {info.title || t('untitled')}
      </h1>
      {info.summary && <p className="article-summary">{info.summary}</p>}
      <div className="article-author">
        <Link href={`/p/${npub}`} className="article-author-link">
          <Avatar profile={note.author} name={name} size={48} />
          <span>
            <span className="article-author-name">{name}</span>
            {note.author.nip05 && <span className="article-author-nip05">{note.author.nip05.replace(/^_@/, '')}</span>}
          </span>
        </Link>
        {own && info.naddr && (
          <Link href={`/reads/edit?naddr=${info.naddr}`} className="button button-secondary article-edit">
            {t('article.edit')}
          </Link>
        )}
      </div>
      <p className="article-meta">
        <time dateTime={new Date(info.publishedAt * 1000).toISOString()}>{t('article.published', { date: formatDay(info.publishedAt, locale) })}</time>
        <span aria-hidden="true"> · </span>
        <span className="article-words">{t('wordCount', { count: info.words, formatted: formatCount(info.words, { locale }) })}</span>
        <span aria-hidden="true"> · </span>
        <span className="article-reading" data-reading-minutes={info.minutes}>
          {t('readingTime', { count: info.minutes })}
        </span>
        {highlights.total > 0 && (
          <>
            <span aria-hidden="true"> · </span>
            <span>{t('highlights.count', { count: highlights.total })}</span>
          </>
        )}
      </p>
      {info.topics.length > 0 && (
        <ul className="article-topics" aria-label={t('topics.articleLabel')}>
          {info.topics.map((topic) => (
            <li key={topic}>
              <Link href={`/reads/${encodeURIComponent(topic)}`} className="chip">
                #{topic}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <div className="article-stats">
        <NoteActionsRow note={note} />
        <NoteMore note={note} />
      </div>
      <ArticleBody content={note.event.content} profiles={note.profiles} highlights={highlights.passages} />
      <div className="article-stats article-stats-end">
        <NoteActionsRow note={note} />
      </div>
      <HighlightsSection highlights={highlights} />
      <ZapsSection zappers={zappers} />
      <section className="article-section article-replies" aria-labelledby="article-replies-title">
        <h2 className="article-section-title" id="article-replies-title">
          {replies.length > 0 ? t('replies.title', { count: replies.length }) : t('replies.titleNone')}
        </h2>
        {replies.length === 0 ? (
          <p className="reads-muted article-replies-none">{t('replies.none')}</p>
        ) : (
          <div className="article-reply-list">
            {replies.map((r, i) => (
              <NoteCard key={r.key} note={r} position={i + 1} setSize={replies.length} />
            ))}
          </div>
        )}
      </section>
    </article>
  );
}

/** /a/{naddr}: one long-form article with its highlights, zaps and replies. */
export default function ArticleRoute() {
  const { t } = useTranslation('reads');
  const { id } = useParams<{ id: string }>();
  const address = useMemo(() => decodeArticleAddress(id), [id]);
  const { state, retry } = useArticleThread(address);
  const snapshot = state.status === 'snapshot' ? state.snapshot : undefined;
  usePageTitle(snapshot?.note ? articleInfo(snapshot.note).title || t('untitled') : t('article.pageTitle'));

  let body;
  if (!address) body = <Missing />;
  else if (snapshot?.note) body = <ArticleView note={snapshot.note} address={address} replies={snapshot.replies} />;
  else if (snapshot?.status === 'notFound') body = <Missing />;
  else if (state.status === 'error' || snapshot?.status === 'error') {
    body = (
      <RetryMessage title={t('article.error')} retryLabel={t('retry')} onRetry={retry}>
        {t('errorHint')}
      </RetryMessage>
    );
  } else body = <FeedSkeleton label={t('article.loading')} />;

  return (
    <div className="page page-article">
      <header className="page-header article-page-header">
        <Link href="/reads" className="reads-back">
          {t('allReads')}
        </Link>
      </header>
      {body}
    </div>
  );
}
