/** The wallet connections as the worker keeps them (one watchWallet per hook; the list is small). */
import type { WalletSnapshot } from '../../../core/types';
import { config, tabId } from '../../worker-client';
import { useWorkerWatch } from '../../lib/useWorkerWatch';
import { useRequest } from '../../lib/useWorkerRequest';

export function useWallet(): WalletSnapshot | null {
  return useWorkerWatch<WalletSnapshot>(
    (api, cb) => api.watchWallet(tabId, cb),
    (api, h) => api.unwatchWallet(h),
  );
}

let demoInfo: Promise<boolean> | undefined;

/** Whether the server runs the demo lightning network (/api/info demoLightning). */
export function useDemoLightning(): boolean {
  const { data: on } = useRequest(() => {
    demoInfo ??= fetch(`${config.mediaServer}/api/info`)
      .then((r) => (r.ok ? r.json() : {}))
      .then((body: { demoLightning?: unknown }) => body.demoLightning === true)
      .catch(() => false);
    return demoInfo;
  }, []);
  return on === true;
}
