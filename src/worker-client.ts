import * as Comlink from 'comlink';
import { TAB_HEARTBEAT_MS, tabLockName } from '../core/config';
import type { ClientConfig, StruccApi } from '../core/types';

/** The worker's whole API as a tab calls it (every method of StruccApi is required, so no casts). */
export type Api = Comlink.Remote<StruccApi>;

/** One id per tab lifetime: the worker keys everything this tab opened by it. */
export const tabId: string =
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

function readConfig(): ClientConfig {
  const wsScheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const stored = (key: string): string | null => {
    try {
      return localStorage.getItem(key);
    } catch {
      // Storage can be blocked (privacy mode); defaults still give a working client.
      return null;
    }
  };
  const devMode = stored('devMode') === 'true';
  return {
    cacheServer: stored('cacheServer') || `${wsScheme}//${location.host}/v1`,
    mediaServer: (stored('mediaServer') || location.origin).replace(/\/+$/, ''),
    noBinary: stored('noBinary') === 'true',
    devMode,
    guestPubkey: stored('guestPubkey') || undefined,
    activityTimings: devMode ? parseTimings(stored('activityTimings')) : undefined,
    devTimings: devMode ? parseDevTimings(stored('devTimings')) : undefined,
  };
}

/** localStorage devTimings ('{"feedPollMs":2000,"requestTimeoutMs":3000}'); malformed values are left out. */
function parseDevTimings(raw: string | null): ClientConfig['devTimings'] {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;
    return {
      feedPollMs: ok(value.feedPollMs) ? value.feedPollMs : undefined,
      requestTimeoutMs: ok(value.requestTimeoutMs) ? value.requestTimeoutMs : undefined,
    };
  } catch {
    return undefined;
  }
}

/** localStorage activityTimings ('{"sleepMs":5000,"wakeMs":3000}'); anything malformed keeps the spec's timings. */
function parseTimings(raw: string | null): ClientConfig['activityTimings'] {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as { sleepMs?: unknown; wakeMs?: unknown };
    const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;
    return ok(value.sleepMs) && ok(value.wakeMs) ? { sleepMs: value.sleepMs, wakeMs: value.wakeMs } : undefined;
  } catch {
    return undefined;
  }
}

export const config: ClientConfig = readConfig();

function createEndpoint(): Comlink.Endpoint {
  // The URL expressions stay inline so Vite can find and bundle the worker entry.
  if (typeof SharedWorker === 'undefined') {
    return new Worker(new URL('../worker/entry.ts', import.meta.url), { type: 'module', name: 'strucc' });
  }
  // index.html may have started it already, while this module was still loading (tools/first-screen-plugin.ts).
  const early = (window as { __struccWorker?: SharedWorker }).__struccWorker;
  const shared = early ?? new SharedWorker(new URL('../worker/entry.ts', import.meta.url), { type: 'module', name: 'strucc' });
  shared.port.start();
  return shared.port;
}

let api: Api | null = null;
let ready: Promise<Api> | null = null;

/**
 * Takes this tab's lock and keeps it until the tab is gone. The worker waits on the same lock,
 * so it hears of a closed or crashed tab at once, however long a hidden tab's timers sleep.
 */
async function holdTabLock(): Promise<boolean> {
  const locks = navigator.locks;
  if (!locks) return false;
  return new Promise<boolean>((granted) => {
    locks
      .request(tabLockName(tabId), () => {
        granted(true);
        return new Promise<never>(() => undefined);
      })
      .catch(() => granted(false));
  });
}

let startGate: Promise<void> = Promise.resolve();

/**
 * Starts the worker only once gate settles. A revisit that paints its first screen from the local
 * copy gives that render the machine first: the worker's own start (its modules, IndexedDB, the
 * socket) costs a core for about 150 ms, and two cores are all a small laptop has.
 */
export function holdWorkerStart(gate: Promise<void>): void {
  if (!ready) startGate = gate;
}

/** Connects once per tab; every caller shares the same greeting so nothing is sent before hello. */
export function connect(): Promise<Api> {
  if (ready) return ready;
  ready = startGate.then(() => {
    const remote = Comlink.wrap<StruccApi>(createEndpoint());
    api = remote;
    return greet(remote);
  });
  return ready;
}

function greet(remote: Api): Promise<Api> {
  return holdTabLock().then((holdsTabLock) => {
    config.holdsTabLock = holdsTabLock;
    return remote.hello(tabId, config);
  }).then(() => {
    performance.mark('strucc:hello');
    startLifecycle(remote);
    return remote;
  });
}

function startLifecycle(remote: Api): void {
  const beat = () => {
    remote.heartbeat(tabId).catch(() => undefined);
  };
  let timer = window.setInterval(beat, TAB_HEARTBEAT_MS);
  window.addEventListener('pagehide', () => {
    window.clearInterval(timer);
    remote.goodbye(tabId).catch(() => undefined);
  });
  // A page restored from the back-forward cache said goodbye already: greet the worker again.
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    remote
      .hello(tabId, config)
      .then(() => {
        window.clearInterval(timer);
        timer = window.setInterval(beat, TAB_HEARTBEAT_MS);
        window.dispatchEvent(new Event('strucc:rehello'));
      })
      .catch(() => undefined);
  });
}

export function getApi(): Api | null {
  return api;
}

export { Comlink };
