/**
 * The navigation's badges: unread direct messages (directmsg_count), unread notifications (the worker's notification_counts
 * subscription, open only while someone is signed in) and new app releases. Kept tiny and free of
 * React components, because the navigation is part of the first screen.
 */
import { useEffect, useState } from 'react';
import type { AccountSnapshot, NotificationCountSnapshot, ReleasesSnapshot, StruccApi } from '../../../core/types';
import { Comlink, connect, tabId, type Api } from '../../worker-client';

type Remote = Required<
  Pick<
    StruccApi,
    'watchNotificationCount' | 'unwatchNotificationCount' | 'watchDmCount' | 'unwatchDmCount' | 'watchReleases' | 'unwatchReleases' | 'acknowledgeRelease' | 'watchAccount' | 'unwatchAccount'
  >
>;
/** Comlink's Remote type cannot call an optional method; the worker implements all of these. */
export const remote = (api: Api): Remote => api as unknown as Remote;

/** Subscribes through `open`, delivers every snapshot to state, and closes on unmount. */
function useWatch<T>(open: (api: Remote, cb: (s: T) => void) => Promise<number>, close: (api: Remote, handle: number) => Promise<void>): T | null {
  const [value, setValue] = useState<T | null>(null);
  useEffect(() => {
    let live = true;
    let handle: number | null = null;
    connect()
      .then((api) => open(remote(api), Comlink.proxy((s: T) => void (live && setValue(s)))))
      .then((h) => {
        handle = h;
        if (!live) void connect().then((api) => close(remote(api), h));
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (handle !== null) {
        const h = handle;
        void connect().then((api) => close(remote(api), h));
      }
    };
    // The openers are module constants: one subscription per mounted component.
  }, []);
  return value;
}

export function useNotificationCount(): NotificationCountSnapshot | null {
  return useWatch<NotificationCountSnapshot>(
    (api, cb) => api.watchNotificationCount(tabId, cb),
    (api, h) => api.unwatchNotificationCount(h),
  );
}

/** The unread direct-message total (directmsg_count, shared by every tab). */
export function useDmCount(): number {
  return (
    useWatch<number>(
      (api, cb) => api.watchDmCount(tabId, cb),
      (api, h) => api.unwatchDmCount(h),
    ) ?? 0
  );
}

export function useReleases(): ReleasesSnapshot | null {
  return useWatch<ReleasesSnapshot>(
    (api, cb) => api.watchReleases(tabId, cb),
    (api, h) => api.unwatchReleases(h),
  );
}

export function useAccount(): AccountSnapshot | null {
  return useWatch<AccountSnapshot>(
    (api, cb) => api.watchAccount(tabId, cb),
    (api, h) => api.unwatchAccount(h),
  );
}
