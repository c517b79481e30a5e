import { useLayoutEffect, useRef, useState } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { FeedNote, FeedStatus, Profile } from '../../../worker/types';
import type { NotificationGroup } from './group';
import { NotificationRow } from './NotificationRow';

const ESTIMATED_ROW_HEIGHT = 180;

interface NotificationListProps {
  groups: NotificationGroup[];
  users: Record<string, Profile>;
  notes: Record<string, FeedNote>;
  status: FeedStatus;
  hasMore: boolean;
  onLoadMore: () => void;
}

/** Rows are virtualised like the feeds: 100 notifications with their notes stay a small DOM. */
export function NotificationList({ groups, users, notes, status, hasMore, onLoadMore }: NotificationListProps) {
  const { t } = useTranslation('notifications');
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
    count: groups.length,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    overscan: 4,
    scrollMargin,
    getItemKey: (index) => groups[index]?.key ?? index,
  });

  return (
    <>
      <div
        ref={listRef}
        role="feed"
        aria-busy={status === 'loadingMore'}
        aria-label={t('listLabel')}
        className="notif-list"
        style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
      >
        {virtualizer.getVirtualItems().map((item) => {
          const group = groups[item.index];
          if (!group) return null;
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="notif-row"
              style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}
            >
              <NotificationRow group={group} users={users} notes={notes} />
            </div>
          );
        })}
      </div>
      <div className="notif-footer">
        {hasMore ? (
          <button type="button" className="button notif-load-more" onClick={onLoadMore} disabled={status === 'loadingMore'} aria-busy={status === 'loadingMore'}>
            {status === 'loadingMore' ? t('loadingMore') : t('loadMore')}
          </button>
        ) : (
          <p className="feed-end">{t('end')}</p>
        )}
      </div>
    </>
  );
}
