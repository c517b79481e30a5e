/**
 * The relay, publishing and activity part of the worker API (spec §4 Relay connection, Activity,
 * Publishing), kept out of api.ts. Owns the relay pool and the activity machine; every watcher and
 * subscription is remembered with its tab, so a closing tab leaves nothing behind.
 */
import { ActivityService, type CacheSocketControl } from './activity.ts';
import { createPublisher, type Signer } from './publish.ts';
import { RelayService, type WebSocketFactory } from './relays.ts';
import type { CacheReply, NetworkApi, NostrEvent } from '../core/types.ts';
import { TabHandles } from './util/tabHandles.ts';

export interface NetworkOptions {
  cache: CacheSocketControl;
  request: (command: string, payload?: Record<string, unknown>) => Promise<CacheReply>;
  /** Delivers a value to a tab's Comlink callback, swallowing a gone port. */
  notify: <T>(cb: (value: T) => unknown, value: T) => void;
  /** Releases a tab's Comlink callback proxy. */
  releaser: (cb: object) => () => void;
  /** Marks the tab as alive. */
  touch: (tabId: string) => void;
  relaySocketFactory?: WebSocketFactory;
  signer?: Signer;
  publishTimeoutMs?: number;
  onSigned?: (event: NostrEvent) => void;
}

export interface Network {
  api: NetworkApi;
  relays: RelayService;
  activity: ActivityService;
  /** Whether a tab added, removed or replaced relays in this worker (the stored list must not undo that). */
  poolEdited(): boolean;
  /** The login service plugs the current account's signer in here (undefined when logged out). */
  setSigner(signer: Signer | undefined): void;
  closeTab(tabId: string): void;
  dispose(): void;
}

export function createNetwork(options: NetworkOptions): Network {
  const relays = new RelayService({ socketFactory: options.relaySocketFactory });
  const activity = new ActivityService(options.cache, relays);
  let signer = options.signer;
  let edited = false;
  relays.setAuthSigner(signer);
  const publish = createPublisher({
    relays,
    request: options.request,
    proxy: () => activity.proxy,
    signer: () => signer,
    timeoutMs: options.publishTimeoutMs,
    onSigned: (event) => options.onSigned?.(event),
  });

  // Watchers and relay subscriptions share one handle space; each entry knows its tab.
  const handles = new TabHandles<void>();
  const hold = (tabId: string, stop: () => void): number => handles.add(tabId, undefined, stop);
  const drop = (handle: number) => handles.close(handle);
  const watchWith = <T>(tabId: string, cb: (v: T) => void, watch: (f: (v: T) => void) => () => void): number => {
    options.touch(tabId);
    const release = options.releaser(cb);
    const stop = watch((v) => options.notify(cb, v));
    return hold(tabId, () => {
      stop();
      release();
    });
  };

  const api: NetworkApi = {
    async addRelay(url, flags) {
      const added = relays.add(url, flags);
      if (added.ok) edited = true;
      return added;
    },
    async removeRelay(url) {
      edited = true;
      relays.remove(url);
    },
    async setRelays(event) {
      edited = true;
      return relays.setFromEvent(event);
    },
    async watchRelays(tabId, cb) {
      return watchWith(tabId, cb, (f) => relays.watch(f));
    },
    async unwatchRelays(handle) {
      drop(handle);
    },
    async subscribeRelays(tabId, filters, cb) {
      options.touch(tabId);
      const release = options.releaser(cb);
      const sub = relays.subscribe(filters, { onEvent: (e) => options.notify(cb, e) });
      return hold(tabId, () => {
        sub.close();
        release();
      });
    },
    async unsubscribeRelays(handle) {
      drop(handle);
    },
    publish(event) {
      return publish(event);
    },
    async setProxy(on) {
      activity.setProxy(on);
    },
    async reportActivity(tabId) {
      options.touch(tabId);
      activity.report(tabId);
    },
    async watchActivity(tabId, cb) {
      return watchWith(tabId, cb, (f) => activity.watch(f));
    },
    async unwatchActivity(handle) {
      drop(handle);
    },
  };

  return {
    api,
    relays,
    activity,
    poolEdited: () => edited,
    setSigner(s) {
      signer = s;
      relays.setAuthSigner(s);
    },
    closeTab(tabId) {
      handles.closeTab(tabId);
    },
    dispose() {
      handles.dispose();
      activity.dispose();
      relays.dispose();
    },
  };
}
