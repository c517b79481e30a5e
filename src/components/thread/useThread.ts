import { useCallback, useEffect, useRef, useState } from 'react';
import type { StruccApi, ThreadSnapshot } from '../../../core/types';
import { Comlink, connect, getApi, tabId, type Api } from '../../worker-client';

/** Comlink's Remote type cannot call an optional method; the worker always implements these. */
type ThreadRemote = Required<Pick<StruccApi, 'openThread' | 'reloadThread' | 'closeThread'>>;
const remote = (api: Api): ThreadRemote => api as unknown as ThreadRemote;

export interface ThreadControls {
  snapshot: ThreadSnapshot | null;
  /** Set when the worker could not be reached at all. */
  failure?: string;
  reload: () => void;
}

/** Opens the thread of note `id` in the worker; closes it on unmount or when the id changes. */
export function useThread(id: string | undefined): ThreadControls {
  const [snapshot, setSnapshot] = useState<ThreadSnapshot | null>(null);
  const [failure, setFailure] = useState<string | undefined>();
  const [attempt, setAttempt] = useState(0);
  const handleRef = useRef<number | null>(null);

  useEffect(() => {
    if (!id) return;
    let live = true;
    let handle: number | null = null;
    setSnapshot(null);
    setFailure(undefined);
    connect()
      .then((api) =>
        remote(api).openThread(
          tabId,
          { type: 'note', id },
          Comlink.proxy((next: ThreadSnapshot) => {
            if (live) setSnapshot(next);
          }),
        ),
      )
      .then((h) => {
        if (!live) {
          void connect().then((api) => remote(api).closeThread(h));
          return;
        }
        handle = h;
        handleRef.current = h;
      })
      .catch((err: unknown) => {
        if (live) setFailure(err instanceof Error ? err.message : String(err));
      });
    return () => {
      live = false;
      handleRef.current = null;
      const api = getApi();
      if (handle !== null && api) void remote(api).closeThread(handle);
    };
  }, [id, attempt]);

  const reload = useCallback(() => {
    const api = getApi();
    if (handleRef.current !== null && api) void remote(api).reloadThread(handleRef.current);
    else setAttempt((a) => a + 1);
  }, []);

  return { snapshot, failure, reload };
}
