import { useTranslation } from 'react-i18next';
import type { FeedNote, FeedStatus, Profile } from '../../../core/types';
import type { NotificationGroup } from './group';
import { NotificationRow } from './NotificationRow';
import { WindowList } from '../WindowList';

const groupKey = (group: NotificationGroup) => group.key;

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
  return (
    <>
      <WindowList
        items={groups}
        itemKey={groupKey}
        renderItem={(group) => <NotificationRow group={group} users={users} notes={notes} />}
        estimateSize={180}
        className="notif-list"
        rowClassName="notif-row"
        label={t('listLabel')}
        busy={status === 'loadingMore'}
      />
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
