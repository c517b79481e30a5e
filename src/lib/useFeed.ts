import { useCallback, useEffect, useRef, useState } from 'react';
import type { FeedDefinition, FeedSnapshot } from '../../worker/types';
import { Comlink, connect, getApi, tabId } from '../worker-client';

export type LoadState<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: string };

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Bumps when the tab came back from the back-forward cache and its worker state was dropped. */
function useRehelloGeneration(): number {
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const bump = () => setGeneration((g) => g + 1);
    window.addEventListener('strucc:rehello', bump);
    return () => window.removeEventListener('strucc:rehello', bump);
  }, []);
  return generation;
}

export function useHomeFeeds(): { state: LoadState<FeedDefinition[]>; retry: () => void } {
  const [state, setState] = useState<LoadState<FeedDefinition[]>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    connect()
      .then((api) => api.getHomeFeeds())
      .then((feeds) => {
        if (live) setState({ status: 'ready', value: feeds.filter((f) => f.enabled !== false) });
      })
      .catch((err: unknown) => {
        if (live) setState({ status: 'error', error: errorText(err) });
      });
    return () => {
      live = false;
    };
  }, [attempt]);
  return { state, retry: useCallback(() => setAttempt((a) => a + 1), []) };
}

export interface FeedControls {
  snapshot: FeedSnapshot | null;
  loadMore: () => void;
  showPending: () => void;
  retry: () => void;
}

export function useFeed(spec: string | undefined): FeedControls {
  const [snapshot, setSnapshot] = useState<FeedSnapshot | null>(null);
  const [attempt, setAttempt] = useState(0);
  const generation = useRehelloGeneration();
  const handleRef = useRef<number | null>(null);

  useEffect(() => {
    if (!spec) return;
    let live = true;
    let handle: number | null = null;
    setSnapshot(null);
    connect()
      .then((api) =>
        api.openFeed(
          tabId,
          spec,
          Comlink.proxy((next: FeedSnapshot) => {
            if (live) setSnapshot(next);
          }),
        ),
      )
      .then((h) => {
        if (!live) {
          void getApi()?.closeFeed(h);
          return;
        }
        handle = h;
        handleRef.current = h;
      })
      .catch((err: unknown) => {
        if (!live) return;
        setSnapshot({
          spec,
          status: 'error',
          notes: [],
          pendingCount: 0,
          pendingAuthors: [],
          hasMore: false,
          error: errorText(err),
        });
      });
    return () => {
      live = false;
      handleRef.current = null;
      if (handle !== null) void getApi()?.closeFeed(handle);
    };
  }, [spec, attempt, generation]);

  const loadMore = useCallback(() => {
    const handle = handleRef.current;
    if (handle !== null) void getApi()?.loadMore(handle);
  }, []);
  const showPending = useCallback(() => {
    const handle = handleRef.current;
    if (handle !== null) void getApi()?.showPending(handle);
  }, []);
  const retry = useCallback(() => setAttempt((a) => a + 1), []);

  return { snapshot, loadMore, showPending, retry };
}
