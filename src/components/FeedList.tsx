import { useCallback } from 'react';
import { useFixedT } from '../i18n';
import type { FeedNote, FeedStatus } from '../../core/types';
import { NoteCard } from './NoteCard';
import { NoteSkeleton } from './NoteSkeleton';
import { WindowList } from './WindowList';
import { useVisibleNotes } from './actions/state';

const noteKey = (note: FeedNote) => note.key;

interface FeedListProps {
  notes: FeedNote[];
  status: FeedStatus;
  hasMore: boolean;
  onLoadMore: () => void;
}

export function FeedList({ notes: allNotes, status, hasMore, onLoadMore }: FeedListProps) {
  const { t } = useFixedT();
  const notes = useVisibleNotes(allNotes);
  const setSize = hasMore ? -1 : notes.length;
  const nearEnd = useCallback(() => {
    if (hasMore && status === 'ready') onLoadMore();
  }, [hasMore, status, onLoadMore]);
  return (
    <>
      <WindowList
        items={notes}
        itemKey={noteKey}
        renderItem={(note, index) => <NoteCard note={note} position={index + 1} setSize={setSize} />}
        estimateSize={220}
        overscan={5}
        className="feed-list"
        rowClassName="feed-row"
        label={t('feed.listLabel')}
        busy={status === 'loading' || status === 'loadingMore'}
        onNearEnd={hasMore && status === 'ready' ? nearEnd : undefined}
      />
      {status === 'loadingMore' && (
        <div className="feed-more" role="status">
          <span className="visually-hidden">{t('feed.loadingMore')}</span>
          <NoteSkeleton />
        </div>
      )}
      {!hasMore && notes.length > 0 && status === 'ready' && <p className="feed-end">{t('feed.end')}</p>}
    </>
  );
}
