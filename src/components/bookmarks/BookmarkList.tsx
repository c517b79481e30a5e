import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeedNote } from '../../../core/types';
import { displayName } from '../../../core/profile';
import { accountAction } from '../../lib/account';
import { toastError, toastSuccess } from '../../lib/toast';
import { BookmarkIcon } from '../Icons';
import { NoteCard } from '../NoteCard';
import { NoteSkeleton } from '../NoteSkeleton';
import { StatusMessage, RetryMessage } from '../StatusMessage';
import { ArticleCard } from '../reads/ArticleCard';
import { articleInfo } from '../reads/articleMeta';
import { useBookmarkItems, type BookmarkEntry, type BookmarkTab } from './useBookmarkItems';

const LONG_FORM = 30023;

function entryName(note: FeedNote | null | undefined, fallback: string): string {
  if (!note) return fallback;
  if (note.event.kind === LONG_FORM) return articleInfo(note).title || displayName(note.author);
  return displayName(note.author);
}

function RemoveButton({ entry, label, canAct }: { entry: BookmarkEntry; label: string; canAct: boolean }) {
  const { t } = useTranslation('bookmarks');
  const [busy, setBusy] = useState(false);
  if (!canAct) return null;
  const remove = async () => {
    setBusy(true);
    try {
      const result = await accountAction({ type: 'unbookmark', tag: entry.tag });
      // 'ignored': another tab removed it first; the list already shows that.
      if (result.ok || result.code === 'ignored') toastSuccess(t('removed'));
      else toastError(t('removeFailed'));
    } catch {
      toastError(t('removeFailed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="bookmark-remove" onClick={remove} disabled={busy} aria-label={t('removeLabel', { name: label })}>
      <BookmarkIcon size={18} fill="currentColor" />
      <span>{busy ? t('removing') : t('remove')}</span>
    </button>
  );
}

function Row({ entry, tab, index, setSize, canAct }: { entry: BookmarkEntry; tab: BookmarkTab; index: number; setSize: number; canAct: boolean }) {
  const { t } = useTranslation('bookmarks');
  const { note } = entry;
  let card;
  if (note === undefined) card = <NoteSkeleton />;
  else if (note === null) card = <p className="bookmark-missing">{t(`missing.${tab}`)}</p>;
  else if (note.event.kind === LONG_FORM) card = <ArticleCard note={note} position={index + 1} setSize={setSize} />;
  else card = <NoteCard note={note} position={index + 1} setSize={setSize} />;
  return (
    <li className="bookmark-item" data-bookmark={entry.key}>
      {card}
      {note !== undefined && (
        <div className="bookmark-actions">
          <RemoveButton entry={entry} label={entryName(note, t('unknown'))} canAct={canAct} />
        </div>
      )}
    </li>
  );
}

/** One tab of /bookmarks: the cards 20 at a time, each with its remove button. */
export function BookmarkList({ tags, tab, viewer, canAct }: { tags: string[][] | undefined; tab: BookmarkTab; viewer?: string; canAct: boolean }) {
  const { t } = useTranslation('bookmarks');
  const { entries, total, hasMore, loading, error, loadMore, retry } = useBookmarkItems(tags, tab, viewer);
  const sentinel = useRef<HTMLDivElement>(null);

  // The next page loads as the end of the list scrolls into view; the button stays for keyboards.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore || loading) return;
    const observer = new IntersectionObserver((seen) => {
      if (seen.some((e) => e.isIntersecting)) loadMore();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasMore, loading, loadMore]);

  if (total === 0) {
    return (
      <StatusMessage title={t('empty.title')}>
        {t(`empty.${tab}`)}
      </StatusMessage>
    );
  }
  if (error && entries.every((e) => e.note === undefined)) {
    return (
      <RetryMessage title={t('error')} retryLabel={t('retry')} onRetry={retry}>
        {t('errorHint')}
      </RetryMessage>
    );
  }
  const setSize = hasMore ? -1 : total;
  return (
    <>
      <ul className="bookmark-list" aria-label={t(`listLabel.${tab}`)} aria-busy={loading}>
        {entries.map((entry, i) => (
          <Row key={entry.key} entry={entry} tab={tab} index={i} setSize={setSize} canAct={canAct} />
        ))}
      </ul>
      {error && (
        <div className="bookmark-more">
          <p className="form-error" role="alert">
            {t('error')}
          </p>
          <button type="button" className="button button-secondary" onClick={retry}>
            {t('retry')}
          </button>
        </div>
      )}
      {hasMore && !error && (
        <div className="bookmark-more" ref={sentinel}>
          <button type="button" className="button button-secondary" onClick={loadMore} disabled={loading}>
            {loading ? t('loadingMore') : t('loadMore')}
          </button>
        </div>
      )}
    </>
  );
}
