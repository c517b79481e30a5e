import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { FeedNote, FeedStatus } from '../../../worker/types';
import { NoteSkeleton } from '../NoteSkeleton';
import { ArticleCard } from './ArticleCard';

const PREFETCH_DISTANCE = 5;
const ESTIMATED_CARD_HEIGHT = 230;

interface ArticleListProps {
  notes: FeedNote[];
  status: FeedStatus;
  hasMore: boolean;
  onLoadMore: () => void;
  label: string;
}

/** FeedList's virtualiser with article cards: the DOM holds a window of cards however far one scrolls. */
export function ArticleList({ notes, status, hasMore, onLoadMore, label }: ArticleListProps) {
  const { t } = useTranslation('reads');
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);

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
    overscan: 4,
    scrollMargin,
    getItemKey: (index) => notes[index]?.key ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length > 0 ? items[items.length - 1].index : -1;

  // Once per list length, so an empty page cannot turn into a request loop.
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
        aria-label={label}
        className="article-list"
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
              <ArticleCard note={note} position={item.index + 1} setSize={setSize} />
            </div>
          );
        })}
      </div>
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
