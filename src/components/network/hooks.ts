/** Worker watchers (relays, activity, log, socket) as React state; each stops when the component goes. */
import type { ActivitySnapshot, LogEntry, RelayInfo } from '../../../core/types';
import { tabId } from '../../worker-client';
import { useWorkerWatch } from '../../lib/useWorkerWatch';

export function useRelays(): RelayInfo[] | undefined {
  return useWorkerWatch<RelayInfo[]>(
    (api, cb) => api.watchRelays(tabId, cb),
    (api, h) => api.unwatchRelays(h),
  ) ?? undefined;
}

export function useActivity(): ActivitySnapshot | undefined {
  return useWorkerWatch<ActivitySnapshot>(
    (api, cb) => api.watchActivity(tabId, cb),
    (api, h) => api.unwatchActivity(h),
  ) ?? undefined;
}

export function useLogs(): LogEntry[] | undefined {
  return useWorkerWatch<LogEntry[]>(
    (api, cb) => api.watchLogs(tabId, cb),
    (api, h) => api.unwatchLogs(h),
  ) ?? undefined;
}
