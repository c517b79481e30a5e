/**
 * The installable app's runtime side, loaded after the first screen is painted (main.tsx), never
 * on the critical path: registers the service worker (tools/sw.js), tells whether the app is
 * offline, offers a waiting new build, and opens the composer for the manifest's "Új bejegyzés"
 * shortcut (/home?compose).
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { settledAccount } from './account';
import { openComposer, openLogin } from './overlays';
import { registerNamespace } from '../i18n';
import hu from '../../locales/hu/pwa.json';
import en from '../../locales/en/pwa.json';
import { Comlink, connect, tabId } from '../worker-client';
import type { SocketSnapshot } from '../../core/types';
import { PwaStatus } from '../components/pwa/PwaStatus';

export interface PwaState {
  /** The browser reports no network, or the cache socket failed and waits to try again. */
  offline: boolean;
  /** A new build's service worker is installed and waits for this one's tabs. */
  updateWaiting: boolean;
}

let state: PwaState = { offline: false, updateWaiting: false };
const listeners = new Set<() => void>();

function set(patch: Partial<PwaState>): void {
  const next = { ...state, ...patch };
  if (next.offline === state.offline && next.updateWaiting === state.updateWaiting) return;
  state = next;
  for (const l of listeners) l();
}

export const pwaSnapshot = (): PwaState => state;
export function subscribePwa(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let waiting: ServiceWorker | null = null;

/** The user clicked the prompt: the new build takes over and the page reloads into it. */
export function activateUpdate(): void {
  if (!waiting) return;
  navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
  waiting.postMessage({ type: 'strucc:activate' });
}

function watchWaiting(registration: ServiceWorkerRegistration): void {
  const check = () => {
    // With no controller this is the first install: nothing older to replace, no prompt.
    const next = registration.waiting;
    waiting = next && navigator.serviceWorker.controller ? next : null;
    set({ updateWaiting: waiting !== null });
  };
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', check);
  });
  check();
}

function watchConnectivity(): void {
  let socketDown = false;
  const update = () => set({ offline: !navigator.onLine || socketDown });
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
  update();
  void connect()
    .then((api) =>
      api.watchSocket(
        tabId,
        Comlink.proxy((snapshot: SocketSnapshot) => {
          // 'waiting' comes only after a failed attempt: the first connect of a visit is not an outage.
          // Once down, the banner stays until a connection is made: the socket retries every 200 ms,
          // and each retry's 'connecting' would otherwise make it blink.
          if (snapshot.connected) socketDown = false;
          else if (snapshot.state === 'waiting' || snapshot.state === 'closed') socketDown = true;
          update();
        }),
      ),
    )
    .catch(() => undefined);
}

function openShortcutComposer(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has('compose')) return;
  url.searchParams.delete('compose');
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  // A reload of a signed-in tab still boots its login: wait until the worker knows who writes.
  void settledAccount().then((account) => (account.login.state === 'signedIn' ? openComposer() : openLogin()));
}

export function startPwa(): void {
  registerNamespace('pwa', { hu, en });
  openShortcutComposer();
  watchConnectivity();
  const host = document.createElement('div');
  host.className = 'pwa-host';
  document.body.appendChild(host);
  createRoot(host).render(createElement(PwaStatus));
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker
    .register('/sw.js', { scope: '/' })
    .then(watchWaiting)
    .catch(() => undefined);
}
