import { useCallback, useEffect, useRef, useState } from 'react';
import type { FeedDefinition, FeedSnapshot } from '../../core/types';
import { Comlink, connect, getApi, tabId } from '../worker-client';
import { firstScreenFeeds, firstScreenSnapshot, keepFirstScreenFeeds, keepFirstScreenNotes } from './firstScreen';
import { schedulePaintedCopy } from './paintedCopy';

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

/** The home feed list; a revisit starts from the list kept with the first screen. */
export function useHomeFeeds(): { state: LoadState<FeedDefinition[]>; retry: () => void } {
  const [state, setState] = useState<LoadState<FeedDefinition[]>>(() => {
    const kept = firstScreenFeeds();
    return kept ? { status: 'ready', value: kept.filter((f) => f.enabled !== false) } : { status: 'loading' };
  });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    if (attempt > 0 || !firstScreenFeeds()) setState({ status: 'loading' });
    connect()
      .then((api) => api.getHomeFeeds())
      .then((feeds) => {
        keepFirstScreenFeeds(feeds);
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

/**
 * An open feed's snapshots. With keepFirstScreen (the home feed), the first cards are kept for the
 * next visit and painted from there until the worker answers.
 */
export function useFeed(spec: string | undefined, keepFirstScreen = false): FeedControls {
  const [snapshot, setSnapshot] = useState<FeedSnapshot | null>(() => (keepFirstScreen && spec ? firstScreenSnapshot(spec) : null));
  const [attempt, setAttempt] = useState(0);
  const generation = useRehelloGeneration();
  const handleRef = useRef<number | null>(null);

  useEffect(() => {
    if (!spec) return;
    let live = true;
    let handle: number | null = null;
    const painted = keepFirstScreen ? firstScreenSnapshot(spec) : null;
    setSnapshot((current) => (current?.spec === spec ? current : painted));
    connect()
      .then((api) =>
        api.openFeed(
          tabId,
          spec,
          Comlink.proxy((next: FeedSnapshot) => {
            if (!live) return;
            // The worker decides what shows (worker/feedView.ts), the kept first screen included.
            setSnapshot(next);
            if (keepFirstScreen && next.notes.length && !next.fromCache) {
              keepFirstScreenNotes(spec, next.notes);
              schedulePaintedCopy();
            }
          }),
          painted?.notes,
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
  }, [spec, attempt, generation, keepFirstScreen]);

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
