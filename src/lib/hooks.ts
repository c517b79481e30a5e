import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { SocketSnapshot } from '../../core/types';
import { Comlink, connect, getApi, tabId } from '../worker-client';

/** Sets the document title as '<page> · Strucc'. */
export function usePageTitle(title: string): void {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = title ? t('app.documentTitle', { page: title }) : t('app.name');
  }, [title, t]);
}

// One shared clock so a long feed re-renders its relative times together, not per card.
let nowSeconds = Math.floor(Date.now() / 1000);
const listeners = new Set<() => void>();
let ticker: number | undefined;

function subscribeNow(listener: () => void): () => void {
  listeners.add(listener);
  if (ticker === undefined) {
    ticker = window.setInterval(() => {
      nowSeconds = Math.floor(Date.now() / 1000);
      listeners.forEach((l) => l());
    }, 30_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && ticker !== undefined) {
      window.clearInterval(ticker);
      ticker = undefined;
    }
  };
}

export function useNow(): number {
  return useSyncExternalStore(subscribeNow, () => nowSeconds);
}

export interface SocketView {
  snapshot: SocketSnapshot | null;
  /** True once the socket has been connected at least once in this tab. */
  everConnected: boolean;
}

export function useSocketState(): SocketView {
  const [view, setView] = useState<SocketView>({ snapshot: null, everConnected: false });
  useEffect(() => {
    let live = true;
    let handle: number | null = null;
    connect()
      .then((api) =>
        api.watchSocket(
          tabId,
          Comlink.proxy((snapshot: SocketSnapshot) => {
            if (!live) return;
            setView((prev) => ({ snapshot, everConnected: prev.everConnected || snapshot.connected }));
          }),
        ),
      )
      .then((h) => {
        if (live) handle = h;
        else void getApi()?.unwatch(h);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (handle !== null) void getApi()?.unwatch(handle);
    };
  }, []);
  return view;
}
