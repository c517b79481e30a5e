/**
 * The developer handle: with localStorage devMode === 'true' the worker's Comlink API, this tab's
 * id and Comlink.proxy (needed for any callback argument) are put on window.strucc, so tests and
 * power users can drive the shared worker from the console. Without devMode nothing is exposed.
 */
import { Comlink, config, connect, tabId, type Api } from '../worker-client';

export interface StruccDevtools {
  api: Api;
  tabId: string;
  /** Wraps a callback for watch* and subscribe* calls, e.g. strucc.api.watchActivity(strucc.tabId, strucc.proxy(console.log)). */
  proxy: typeof Comlink.proxy;
}

declare global {
  interface Window {
    strucc?: StruccDevtools;
  }
}

/** Fired on window once window.strucc is usable (after the worker greeted this tab). */
export const DEVTOOLS_READY_EVENT = 'strucc:devtools';

export function exposeDevtools(): void {
  if (!config.devMode) return;
  void connect()
    .then((api) => {
      window.strucc = { api, tabId, proxy: Comlink.proxy };
      window.dispatchEvent(new Event(DEVTOOLS_READY_EVENT));
    })
    .catch(() => undefined);
}
