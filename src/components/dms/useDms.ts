/**
 * The DM page of this tab in the worker (worker/dms.ts): one open page per mounted screen and
 * signed-in user, its snapshot, and the calls that drive it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DmRelation, DmSnapshot, PublishResult, StruccApi } from '../../../core/types';
import { Comlink, connect, tabId, type Api } from '../../worker-client';

type DmRemote = Required<
  Pick<
    StruccApi,
    'openDms' | 'setDmRelation' | 'loadMoreDmContacts' | 'selectDmContact' | 'loadMoreDms' | 'sendDm' | 'retryDm' | 'markAllDmsRead' | 'closeDms'
  >
>;
const remote = (api: Api): DmRemote => api as unknown as DmRemote;

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
  const [snapshot, setSnapshot] = useState<DmSnapshot | null>(null);
  const [failed, setFailed] = useState(false);
  const handle = useRef<number | null>(null);
  const ready = useRef<Promise<number | null>>(Promise.resolve(null));

  useEffect(() => {
    let live = true;
    setSnapshot(null);
    setFailed(false);
    ready.current = connect()
      .then((api) => remote(api).openDms(tabId, Comlink.proxy((s: DmSnapshot) => void (live && setSnapshot(s)))))
      .then((h) => {
        if (live) handle.current = h;
        else void connect().then((api) => remote(api).closeDms(h));
        return live ? h : null;
      })
      .catch(() => {
        if (live) setFailed(true);
        return null;
      });
    return () => {
      live = false;
      const h = handle.current;
      handle.current = null;
      if (h !== null) void connect().then((api) => remote(api).closeDms(h));
    };
  }, [pubkey]);

  // Calls made before the page opened wait for it, so a conversation chosen from the URL is not lost.
  const withPage = useCallback(<T,>(fn: (api: DmRemote, h: number) => Promise<T>, fallback: T): Promise<T> => {
    return ready.current.then(async (h) => (h === null ? fallback : fn(remote(await connect()), h)));
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
    const api = remote(await connect());
    const result = await api.markAllDmsRead();
    return result.ok;
  }, []);

  return { snapshot, failed, setRelation, loadMoreContacts, select, loadMore, send, retry, markAllRead };
}
