/**
 * The DM page of this tab in the worker (worker/dms.ts): one open page per mounted screen and
 * signed-in user, its snapshot, and the calls that drive it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DmRelation, DmSnapshot, PublishResult } from '../../../core/types';
import { connect, tabId, type Api } from '../../worker-client';
import { useWorkerWatch } from '../../lib/useWorkerWatch';

export interface DmControls {
  snapshot: DmSnapshot | null;
  /** The worker could not be reached. */
  failed: boolean;
  setRelation: (relation: DmRelation) => void;
  loadMoreContacts: () => void;
  select: (pubkey: string) => void;
  loadMore: () => void;
  send: (text: string) => Promise<PublishResult>;
  retry: (id: number) => void;
  markAllRead: () => Promise<boolean>;
}

export function useDms(pubkey: string): DmControls {
  const [failed, setFailed] = useState(false);
  const ready = useRef<Promise<number | null>>(Promise.resolve(null));
  const settle = useRef<(h: number | null) => void>(() => undefined);

  // Declared before the watch, so each page's promise exists before the page opens.
  useEffect(() => {
    setFailed(false);
    ready.current = new Promise((resolve) => (settle.current = resolve));
    return () => settle.current(null);
  }, [pubkey]);
  const snapshot = useWorkerWatch<DmSnapshot>(
    (api, cb) => api.openDms(tabId, cb),
    (api, h) => api.closeDms(h),
    [pubkey],
    {
      onHandle: (h) => h !== null && settle.current(h),
      onError: () => {
        setFailed(true);
        settle.current(null);
      },
    },
  );

  // Calls made before the page opened wait for it, so a conversation chosen from the URL is not lost.
  const withPage = useCallback(<T,>(fn: (api: Api, h: number) => Promise<T>, fallback: T): Promise<T> => {
    return ready.current.then(async (h) => (h === null ? fallback : fn(await connect(), h)));
  }, []);

  const setRelation = useCallback((relation: DmRelation) => void withPage((api, h) => api.setDmRelation(h, relation), undefined), [withPage]);
  const loadMoreContacts = useCallback(() => void withPage((api, h) => api.loadMoreDmContacts(h), undefined), [withPage]);
  const select = useCallback((peer: string) => void withPage((api, h) => api.selectDmContact(h, peer), undefined), [withPage]);
  const loadMore = useCallback(() => void withPage((api, h) => api.loadMoreDms(h), undefined), [withPage]);
  const retry = useCallback((id: number) => void withPage((api, h) => api.retryDm(h, id), undefined), [withPage]);
  const send = useCallback(
    (text: string) => withPage<PublishResult>((api, h) => api.sendDm(h, text), { success: false, reasons: { '*': 'closed' }, outcome: 'failed' }),
    [withPage],
  );
  const markAllRead = useCallback(async () => {
    const api = await connect();
    const result = await api.markAllDmsRead();
    return result.ok;
  }, []);

  return { snapshot, failed, setRelation, loadMoreContacts, select, loadMore, send, retry, markAllRead };
}
