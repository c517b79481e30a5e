/**
 * Worker entry. As a SharedWorker (one per browser profile) every tab's port gets the same API,
 * so all tabs share one cache socket; as a dedicated Worker (no SharedWorker support) the one
 * tab gets it on the worker's own scope.
 */
import * as Comlink from 'comlink';
import { createApi } from './api.ts';
import { portSession } from './portSession.ts';

const api = createApi();

interface ConnectEvent {
  ports: readonly MessagePort[];
}

const scope = globalThis as unknown as { onconnect?: ((e: ConnectEvent) => void) | null };
const sharedScope = (globalThis as { SharedWorkerGlobalScope?: abstract new () => object }).SharedWorkerGlobalScope;

if (typeof sharedScope === 'function' && globalThis instanceof sharedScope) {
  scope.onconnect = (e) => {
    const port = e.ports[0];
    const tabIds = new Set<string>();
    Comlink.expose(portSession(api, tabIds), port);
    // Browsers that fire 'close' on a MessagePort tell us at once that a tab went away;
    // elsewhere the heartbeat timeout does the same, 30 s later.
    port.addEventListener('close', () => api.dropTabs(tabIds));
  };
} else {
  Comlink.expose(portSession(api, new Set()));
}
