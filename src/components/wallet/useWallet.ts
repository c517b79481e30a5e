/** The wallet connections as the worker keeps them (one watchWallet per hook; the list is small). */
import { useEffect, useState } from 'react';
import type { WalletSnapshot } from '../../../core/types';
import { fullApi } from '../../lib/account';
import { Comlink, config, tabId } from '../../worker-client';

export function useWallet(): WalletSnapshot | null {
  const [snap, setSnap] = useState<WalletSnapshot | null>(null);
  useEffect(() => {
    let live = true;
    let handle: number | null = null;
    fullApi()
      .then((api) => api.watchWallet(tabId, Comlink.proxy((s: WalletSnapshot) => live && setSnap(s))))
      .then((h) => {
        if (live) handle = h;
        else void fullApi().then((api) => api.unwatchWallet(h));
      })
      .catch(() => undefined);
    return () => {
      live = false;
      if (handle !== null) void fullApi().then((api) => api.unwatchWallet(handle as number));
    };
  }, []);
  return snap;
}

let demoInfo: Promise<boolean> | undefined;

/** Whether the server runs the demo lightning network (/api/info demoLightning). */
export function useDemoLightning(): boolean {
  const [on, setOn] = useState(false);
  useEffect(() => {
    demoInfo ??= fetch(`${config.mediaServer}/api/info`)
      .then((r) => (r.ok ? r.json() : {}))
      .then((body: { demoLightning?: unknown }) => body.demoLightning === true)
      .catch(() => false);
    let live = true;
    void demoInfo.then((v) => live && setOn(v));
    return () => {
      live = false;
    };
  }, []);
  return on;
}
