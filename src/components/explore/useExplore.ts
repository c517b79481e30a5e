/** Explore's small data hooks: who is signed in, one-shot requests, and offset-paged lists. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAccount } from '../../lib/account';
import { connect, type Api } from '../../worker-client';
import { useWorkerRequest } from '../../lib/useWorkerRequest';

/** The signed-in (or read-only) user's pubkey; undefined for a guest and while the login is settling. */
export function useViewerPubkey(): string | undefined {
  const login = useAccount()?.login;
  const known = login?.state === 'signedIn' || login?.state === 'readOnly' || login?.state === 'locked';
  return known ? login.pubkey : undefined;
}

export type Loaded<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error' };

/** Runs `load` once per `key`; `retry` runs it again. Empty answers are answers: nothing retries on its own. */
export function useLoad<T>(key: string, load: (api: Api) => Promise<T>): { state: Loaded<T>; retry: () => void } {
  const { data, error, loading, reload } = useWorkerRequest(load, [key]);
  const state = useMemo((): Loaded<T> => (loading || (data === undefined && error === undefined) ? { status: 'loading' } : error !== undefined ? { status: 'error' } : { status: 'ready', value: data as T }), [loading, data, error]);
  return { state, retry: reload };
}

export interface Paged<T> {
  items: T[];
  status: 'loading' | 'ready' | 'loadingMore' | 'error';
  hasMore: boolean;
  loadMore: () => void;
  retry: () => void;
}

/** An offset-paged list (explore_people, explore_zaps), deduplicated by `keyOf`. */
export function usePaged<T>(
  key: string,
  pageSize: number,
  fetchPage: (api: Api, offset: number, limit: number) => Promise<{ items: T[]; hasMore: boolean }>,
  keyOf: (item: T) => string,
): Paged<T> {
  const [items, setItems] = useState<T[]>([]);
  const [status, setStatus] = useState<Paged<T>['status']>('loading');
  const [hasMore, setHasMore] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const generation = useRef(0);
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;
  const keyRef = useRef(keyOf);
  keyRef.current = keyOf;

  const run = useCallback(
    (offset: number, base: T[]) => {
      const gen = generation.current;
      setStatus(offset === 0 ? 'loading' : 'loadingMore');
      connect()
        .then((api) => fetchRef.current(api, offset, pageSize))
        .then((page) => {
          if (gen !== generation.current) return;
          const seen = new Set(base.map(keyRef.current));
          const fresh = page.items.filter((i) => !seen.has(keyRef.current(i)));
          setItems([...base, ...fresh]);
          setHasMore(page.hasMore && fresh.length > 0);
          setStatus('ready');
        })
        .catch(() => gen === generation.current && setStatus('error'));
    },
    [pageSize],
  );

  useEffect(() => {
    generation.current++;
    setItems([]);
    setHasMore(false);
    run(0, []);
    return () => {
      generation.current++;
    };
  }, [key, attempt, run]);

  const itemsRef = useRef(items);
  itemsRef.current = items;
  const loadMore = useCallback(() => run(itemsRef.current.length, itemsRef.current), [run]);
  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  return { items, status, hasMore, loadMore, retry };
}
