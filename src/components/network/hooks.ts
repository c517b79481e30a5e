/** Worker watchers (relays, activity, log, socket) as React state; each stops when the component goes. */
import { useEffect, useState } from 'react';
import type { ActivitySnapshot, LogEntry, RelayInfo } from '../../../core/types';
import { fullApi, type FullApi } from '../../lib/account';
import { Comlink, tabId } from '../../worker-client';

function useWatch<T>(
  start: (api: FullApi, cb: (value: T) => void) => Promise<number>,
  stop: (api: FullApi, handle: number) => Promise<void>,
): T | undefined {
  const [value, setValue] = useState<T>();
  useEffect(() => {
    let live = true;
    let handle: number | undefined;
    let api: FullApi | undefined;
    fullApi()
      .then((a) => {
        api = a;
        return start(
          a,
          Comlink.proxy((v: T) => {
            if (live) setValue(v);
          }),
        );
      })
      .then((h) => {
        if (live) handle = h;
        else if (api) void stop(api, h);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (api && handle !== undefined) void stop(api, handle);
    };
    // start/stop are module-level functions below; the watch runs once per mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return value;
}

export function useRelays(): RelayInfo[] | undefined {
  return useWatch<RelayInfo[]>(
    (api, cb) => api.watchRelays(tabId, cb),
    (api, h) => api.unwatchRelays(h),
  );
}

export function useActivity(): ActivitySnapshot | undefined {
  return useWatch<ActivitySnapshot>(
    (api, cb) => api.watchActivity(tabId, cb),
    (api, h) => api.unwatchActivity(h),
  );
}

export function useLogs(): LogEntry[] | undefined {
  return useWatch<LogEntry[]>(
    (api, cb) => api.watchLogs(tabId, cb),
    (api, h) => api.unwatchLogs(h),
  );
}
