import { useCallback, useEffect, useRef, useState } from 'react';
import type { ThreadSnapshot } from '../../../core/types';
import { connect, tabId } from '../../worker-client';
import { useWorkerWatch } from '../../lib/useWorkerWatch';

export interface ThreadControls {
  snapshot: ThreadSnapshot | null;
  /** Set when the worker could not be reached at all. */
  failure?: string;
  reload: () => void;
}

/** Opens the thread of note `id` in the worker; closes it on unmount or when the id changes. */
export function useThread(id: string | undefined): ThreadControls {
  const [failure, setFailure] = useState<string | undefined>();
  const [attempt, setAttempt] = useState(0);
  const handleRef = useRef<number | null>(null);

  const snapshot = useWorkerWatch<ThreadSnapshot>(
    id ? (api, cb) => api.openThread(tabId, { type: 'note', id }, cb) : null,
    (api, h) => api.closeThread(h),
    [id, attempt],
    {
      onHandle: (h) => (handleRef.current = h),
      onError: (err) => setFailure(err instanceof Error ? err.message : String(err)),
    },
  );
  useEffect(() => setFailure(undefined), [id, attempt]);

  const reload = useCallback(() => {
    const h = handleRef.current;
    if (h !== null) void connect().then((api) => api.reloadThread(h));
    else setAttempt((a) => a + 1);
  }, []);

  return { snapshot, failure, reload };
}
