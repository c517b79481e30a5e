import { useCallback, useEffect, useState } from 'react';
import type { CacheObject } from '../../../core/types';
import type { LoadState } from '../../lib/useFeed';
import { connect } from '../../worker-client';

export type CacheState = LoadState<CacheObject[]> | { status: 'notice'; notice: string };

/**
 * One cache command through the worker, run again when `key` changes. A NOTICE is its own state:
 * the screens show it as a Hungarian empty state, not as an error.
 */
export function useCacheRequest(command: string | null, payload: Record<string, unknown> | undefined, key: string): { state: CacheState; retry: () => void } {
  const [state, setState] = useState<CacheState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!command) return;
    let live = true;
    setState({ status: 'loading' });
    connect()
      .then((api) => api.request(command, payload))
      .then((reply) => {
        if (!live) return;
        setState(reply.notice !== undefined ? { status: 'notice', notice: reply.notice } : { status: 'ready', value: reply.events });
      })
      .catch((err: unknown) => {
        if (live) setState({ status: 'error', error: err instanceof Error ? err.message : String(err) });
      });
    return () => {
      live = false;
    };
    // The payload is described by `key`; objects built during render would re-run the request each time.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [command, key, attempt]);
  return { state, retry: useCallback(() => setAttempt((a) => a + 1), []) };
}

export function readyEvents(state: CacheState): CacheObject[] {
  return state.status === 'ready' ? state.value : [];
}
