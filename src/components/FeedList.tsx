import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { FeedNote, FeedStatus } from '../../worker/types';
import { NoteCard } from './NoteCard';
import { NoteSkeleton } from './NoteSkeleton';

/** How many cards before the end the next page is requested, so it arrives before the reader gets there. */
const PREFETCH_DISTANCE = 6;
const ESTIMATED_CARD_HEIGHT = 220;

interface FeedListProps {
  notes: FeedNote[];
  status: FeedStatus;
  hasMore: boolean;
  onLoadMore: () => void;
}

export function FeedList({ notes, status, hasMore, onLoadMore }: FeedListProps) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);

  // The list starts below the page header; the virtualizer needs that offset in window coordinates.
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const measure = () => setScrollMargin(Math.round(el.getBoundingClientRect().top + window.scrollY));
    measure();
    const observer = new ResizeObserver(measure);
    if (el.parentElement) observer.observe(el.parentElement);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: notes.length,
    estimateSize: () => ESTIMATED_CARD_HEIGHT,
    overscan: 5,
    scrollMargin,
    getItemKey: (index) => notes[index]?.key ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length > 0 ? items[items.length - 1].index : -1;

  // Asking once per list length keeps an empty page from turning into a request loop.
  const requestedAt = useRef(-1);
  useEffect(() => {
    if (!hasMore || status !== 'ready' || notes.length === 0) return;
    if (lastIndex < notes.length - PREFETCH_DISTANCE) return;
    if (requestedAt.current === notes.length) return;
    requestedAt.current = notes.length;
    onLoadMore();
  }, [lastIndex, notes.length, hasMore, status, onLoadMore]);

  const setSize = hasMore ? -1 : notes.length;
  return (
    <>
      <div
        ref={listRef}
        role="feed"
        aria-busy={status === 'loading' || status === 'loadingMore'}
        aria-label={t('feed.listLabel')}
        className="feed-list"
        style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
      >
        {items.map((item) => {
          const note = notes[item.index];
          if (!note) return null;
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="feed-row"
              style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}
            >
              <NoteCard note={note} position={item.index + 1} setSize={setSize} />
            </div>
          );
        })}
      </div>
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
