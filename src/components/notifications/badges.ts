/**
 * The navigation's badges: unread direct messages (directmsg_count), unread notifications (the worker's notification_counts
 * subscription, open only while someone is signed in) and new app releases. Kept tiny and free of
 * React components, because the navigation is part of the first screen.
 */
import type { NotificationCountSnapshot, ReleasesSnapshot } from '../../../core/types';
import { tabId } from '../../worker-client';
import { useWorkerWatch } from '../../lib/useWorkerWatch';

export function useNotificationCount(): NotificationCountSnapshot | null {
  return useWorkerWatch<NotificationCountSnapshot>(
    (api, cb) => api.watchNotificationCount(tabId, cb),
    (api, h) => api.unwatchNotificationCount(h),
  );
}

/** The unread direct-message total (directmsg_count, shared by every tab). */
export function useDmCount(): number {
  return (
    useWorkerWatch<number>(
      (api, cb) => api.watchDmCount(tabId, cb),
      (api, h) => api.unwatchDmCount(h),
    ) ?? 0
  );
}

export function useReleases(): ReleasesSnapshot | null {
  return useWorkerWatch<ReleasesSnapshot>(
    (api, cb) => api.watchReleases(tabId, cb),
    (api, h) => api.unwatchReleases(h),
  );
}
