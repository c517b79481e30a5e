import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeedNote, FeedStatus } from '../../../core/types';
import { NoteSkeleton } from '../NoteSkeleton';
import { WindowList } from '../WindowList';
import { ArticleCard } from './ArticleCard';

const noteKey = (note: FeedNote) => note.key;

interface ArticleListProps {
  notes: FeedNote[];
  status: FeedStatus;
  hasMore: boolean;
  onLoadMore: () => void;
  label: string;
}

/** Article cards in the window-virtualised list: the DOM holds a window of cards however far one scrolls. */
export function ArticleList({ notes, status, hasMore, onLoadMore, label }: ArticleListProps) {
  const { t } = useTranslation('reads');
  const setSize = hasMore ? -1 : notes.length;
  const nearEnd = useCallback(() => onLoadMore(), [onLoadMore]);
  return (
    <>
      <WindowList
        items={notes}
        itemKey={noteKey}
        renderItem={(note, index) => <ArticleCard note={note} position={index + 1} setSize={setSize} />}
        estimateSize={230}
        className="article-list"
        rowClassName="feed-row"
        label={label}
        busy={status === 'loading' || status === 'loadingMore'}
        onNearEnd={hasMore && status === 'ready' ? nearEnd : undefined}
        prefetchDistance={5}
      />
      {status === 'loadingMore' && (
        <div className="feed-more" role="status">
          <span className="visually-hidden">{t('loadingMore')}</span>
          <NoteSkeleton />
        </div>
      )}
      {!hasMore && notes.length > 0 && status === 'ready' && <p className="feed-end reads-end">{t('end')}</p>}
    </>
  );
}
