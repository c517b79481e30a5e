import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { SocketSnapshot } from '../../core/types';
import { tabId } from '../worker-client';
import { useWorkerWatch } from './useWorkerWatch';

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
  const [everConnected, setEverConnected] = useState(false);
  const snapshot = useWorkerWatch<SocketSnapshot>(
    (api, cb) => api.watchSocket(tabId, cb),
    (api, h) => api.unwatch(h),
    [],
    { onValue: (s) => s.connected && setEverConnected(true) },
  );
  return { snapshot, everConnected: everConnected || snapshot?.connected === true };
}
