import { useMemo } from 'react';
import type { CacheObject } from '../../../core/types';
import type { LoadState } from '../../lib/useFeed';
import { reasonOf, useWorkerRequest } from '../../lib/useWorkerRequest';

export type CacheState = LoadState<CacheObject[]> | { status: 'notice'; notice: string };

/**
 * One cache command through the worker, run again when `key` changes. A NOTICE is its own state:
 * the screens show it as a Hungarian empty state, not as an error.
 */
export function useCacheRequest(command: string | null, payload: Record<string, unknown> | undefined, key: string): { state: CacheState; retry: () => void } {
  // The payload is described by `key`; objects built during render would re-run the request each time.
  const { data, error, loading, reload } = useWorkerRequest(command ? (api) => api.request(command, payload) : null, [command, key]);
  const state = useMemo((): CacheState => {
    if (error !== undefined) return { status: 'error', error: reasonOf(error) };
    if (!command || loading || !data) return { status: 'loading' };
    return data.notice !== undefined ? { status: 'notice', notice: data.notice } : { status: 'ready', value: data.events };
  }, [command, loading, data, error]);
  return { state, retry: reload };
}

export function readyEvents(state: CacheState): CacheObject[] {
  return state.status === 'ready' ? state.value : [];
}
