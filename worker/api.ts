/**
 * The StruccApi every tab talks to over Comlink. One instance per worker: it owns the cache
 * socket machine, the request router, the feeds and the tab bookkeeping.
 */
import { releaseProxy } from 'comlink';
import { createActor, type AnyActorLogic } from 'xstate';
import { cacheSocketMachine, socketStateOf, type CacheSocketSnapshot } from '../machines/cacheSocket.ts';
import type { CacheObject, CacheReply, ClientConfig, FeedDefinition, FeedSnapshot, SocketSnapshot, StruccApi } from './types.ts';
import { CacheClient, type Subscription } from './cache.ts';
import { FeedRegistry, notify } from './feeds.ts';
import { defaultFeedCache, type FeedCache } from './feedCache.ts';
import { FALLBACK_HOME_FEEDS, parseFeedList } from './homeFeeds.ts';
import { Nip05Verifier, type Fetcher } from './nip05.ts';
import { webSocketActor } from './socketActor.ts';
import { createNetwork } from './network.ts';
import { createAccountApi } from './accountApi.ts';
import { createSocial, type Social } from './social.ts';
import { createReactions } from './reactions.ts';
import { createDiscover } from './discover.ts';
import type { AccountService } from './account.ts';
import type { AccountStorage } from './storage.ts';
import type { Signer } from './publish.ts';
import type { WebSocketFactory } from './relays.ts';
import { APP_VERSION, DEFAULT_GUEST_PUBKEY, TAB_SWEEP_MS, TAB_TIMEOUT_MS, tabLockName } from './config.ts';

export interface ApiOptions {
  /** The socket actor; tests pass a fake, the worker the real WebSocket. */
  socket?: AnyActorLogic;
  fetcher?: Fetcher;
  requestTimeoutMs?: number;
  feedThrottleMs?: number;
  /** Relay sockets; Node tests pass the `ws` package, browsers use their WebSocket. */
  relaySocketFactory?: WebSocketFactory;
  signer?: Signer;
  publishTimeoutMs?: number;
  /** Where the login, account and settings are kept; IndexedDB when absent (memory in Node). */
  accountStorage?: AccountStorage;
  /** What was seen, kept for the next visit; IndexedDB when absent, null for none (Node tests). */
  feedCache?: FeedCache | null;
}

/** The API plus what the worker entry and tests need beyond the Comlink surface. */
export interface StruccWorker extends StruccApi {
  /** Closes everything opened by these tabs (their port closed). */
  dropTabs(tabIds: Iterable<string>): void;
  /** Stops timers and the socket; for tests. */
  dispose(): void;
  /** The login service sets the current account's signer for publish (undefined when logged out). */
  setSigner(signer: Signer | undefined): void;
  /** The login, account and settings service (tests drive it directly). */
  account: AccountService;
}

interface Watcher {
  tabId: string;
  cb: (s: SocketSnapshot) => unknown;
  release: () => void;
}

/** Comlink proxies hold their tab's port open until released; plain functions (tests) have nothing to release. */
function releaser(cb: object): () => void {
  return () => {
    const release = (cb as { [releaseProxy]?: unknown })[releaseProxy];
    if (typeof release !== 'function') return;
    try {
      (release as () => void)();
    } catch {
      // Already released, or the port is gone.
    }
  };
}

function randomId(): string {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function createApi(options: ApiOptions = {}): StruccWorker {
  const appId = `strucc_${randomId()}`;
  let config: ClientConfig | undefined;

  const socket = createActor(
    cacheSocketMachine.provide({ actors: { socket: options.socket ?? webSocketActor } }),
    { input: { url: '', appId } },
  );
  const cache = new CacheClient(
    {
      send: (data) => socket.send({ type: 'SEND', data }),
      isConnected: () => socket.getSnapshot().context.connected,
    },
    { timeoutMs: options.requestTimeoutMs, prefix: appId },
  );
  socket.on('messages', (ev) => cache.handle(ev.messages));

  const watchers = new Map<number, Watcher>();
  let nextWatch = 1;
  let wasConnected = false;
  let lastSocket: SocketSnapshot | undefined;

  const toSocketSnapshot = (snap: CacheSocketSnapshot): SocketSnapshot => ({
    state: socketStateOf(snap),
    connected: snap.context.connected,
    shouldReconnect: snap.context.shouldReconnect,
    url: snap.context.url,
  });

  socket.subscribe((snap) => {
    const connected = snap.context.connected;
    if (connected && !wasConnected) cache.onConnected();
    wasConnected = connected;
    const next = toSocketSnapshot(snap);
    if (
      lastSocket &&
      lastSocket.state === next.state &&
      lastSocket.connected === next.connected &&
      lastSocket.shouldReconnect === next.shouldReconnect &&
      lastSocket.url === next.url
    ) {
      return;
    }
    lastSocket = next;
    for (const w of watchers.values()) notify(w.cb, next);
  });
  socket.start();

  const request = (command: string, payload?: Record<string, unknown>): Promise<CacheReply> => cache.request(command, payload);

  const feedCache = options.feedCache === undefined ? defaultFeedCache() : (options.feedCache ?? undefined);
  void feedCache?.preload();
  const viewer = () => (config?.guestPubkey ?? DEFAULT_GUEST_PUBKEY) || undefined;
  const feeds = new FeedRegistry({
    request,
    userPubkey: viewer,
    cache: feedCache,
    throttleMs: options.feedThrottleMs,
  });

  const nip05 = new Nip05Verifier(() => config?.cacheServer, options.fetcher);

  const subscriptions = new Map<number, { tabId: string; sub: Subscription; release: () => void }>();
  let nextSub = 1;
  const unsubscribe = (handle: number) => {
    const s = subscriptions.get(handle);
    if (!s) return;
    subscriptions.delete(handle);
    s.sub.close();
    s.release();
  };

  const tabs = new Map<string, number>();
  // Tabs whose lifetime we follow through a Web Lock: their heartbeats may lapse
  // (hidden tabs' timers are throttled to once a minute) without them being gone.
  const lockedTabs = new Set<string>();
  const touch = (tabId: string) => tabs.set(tabId, Date.now());

  /** Runs closeTab as soon as the tab's own lock is released: when it closes, crashes or navigates away. */
  const followTabLock = (tabId: string) => {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks;
    if (!locks || lockedTabs.has(tabId)) return;
    lockedTabs.add(tabId);
    void locks.request(tabLockName(tabId), () => {
      lockedTabs.delete(tabId);
      closeTab(tabId);
    });
  };

  const closeTab = (tabId: string) => {
    tabs.delete(tabId);
    feeds.closeTab(tabId);
    for (const [handle, w] of [...watchers]) {
      if (w.tabId !== tabId) continue;
      watchers.delete(handle);
      w.release();
    }
    for (const [handle, s] of [...subscriptions]) if (s.tabId === tabId) unsubscribe(handle);
    network.closeTab(tabId);
    account.service.closeTab(tabId);
    social.closeTab(tabId);
  };

  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [tabId, seen] of [...tabs]) if (!lockedTabs.has(tabId) && now - seen > TAB_TIMEOUT_MS) closeTab(tabId);
  }, TAB_SWEEP_MS);

  const network = createNetwork({
    cache: {
      // Before the first hello there is no server URL to reopen.
      connect: () => {
        if (config) socket.send({ type: 'CONNECT' });
      },
      disconnect: () => socket.send({ type: 'DISCONNECT' }),
    },
    request,
    notify,
    releaser,
    touch,
    relaySocketFactory: options.relaySocketFactory,
    signer: options.signer,
    publishTimeoutMs: options.publishTimeoutMs,
  });

  const account = createAccountApi({
    request,
    storage: options.accountStorage,
    publish: (event) => network.api.publish(event),
    // Publishing signs with the account while it can; a signer given by a test stays otherwise.
    onSignerChange: (canSign) => network.setSigner(canSign ? (t) => account.service.signer.sign(t) : options.signer),
    releaser,
    touch,
  });
  const social: Social = createSocial({
    request,
    subscribe: (command, payload, handlers) => cache.subscribe(command, payload, handlers),
    account: account.service,
    activity: network.activity,
    publish: (event) => network.api.publish(event),
    releaser,
    touch,
    throttleMs: options.feedThrottleMs,
  });

  const stopRelayWatch = network.relays.watch((list) =>
    account.service.setRelaySnapshot(Object.fromEntries(list.map((r) => [r.url, { read: r.read, write: r.write }]))),
  );

  const reactions = createReactions(request);

  return {
    ...network.api,
    ...account.api,
    ...social.api,
    ...reactions,
    ...createDiscover({ request }),
    account: account.service,

    setSigner: network.setSigner,

    async hello(tabId, cfg) {
      touch(tabId);
      if (cfg.holdsTabLock) followTabLock(tabId);
      if (!config) {
        config = { ...cfg };
        socket.send({ type: 'CONNECT', url: cfg.cacheServer, noBinary: cfg.noBinary, devMode: cfg.devMode });
        // Test-speed sleep and wake exist for developers and tests only; ordinary tabs keep the spec's timings.
        if (cfg.devMode && cfg.activityTimings) network.activity.setTimings(cfg.activityTimings);
      }
      return { version: APP_VERSION };
    },

    async goodbye(tabId) {
      closeTab(tabId);
    },

    async heartbeat(tabId) {
      touch(tabId);
    },

    async watchSocket(tabId, cb) {
      touch(tabId);
      const handle = nextWatch++;
      watchers.set(handle, { tabId, cb, release: releaser(cb) });
      notify(cb, lastSocket ?? toSocketSnapshot(socket.getSnapshot()));
      return handle;
    },

    async unwatch(handle) {
      const w = watchers.get(handle);
      if (!w) return;
      watchers.delete(handle);
      w.release();
    },

    request,

    async getHomeFeeds(): Promise<FeedDefinition[]> {
      const who = viewer();
      const fresh = request('get_home_feeds').then((reply) => {
        const list = parseFeedList(reply);
        if (list && feedCache) void feedCache.saveHomeFeeds(who, list);
        return list;
      });
      // The list kept from the last visit answers at once, so the cached feed paints before the network
      // answers (a new worker's socket is not even open yet); the network's list is kept for the next visit.
      if (feedCache) {
        const kept = await feedCache.loadHomeFeeds(who);
        if (kept) return kept;
      }
      return (await fresh) ?? FALLBACK_HOME_FEEDS.map((f) => ({ ...f }));
    },

    async openFeed(tabId: string, spec: string, cb: (s: FeedSnapshot) => void) {
      touch(tabId);
      return feeds.open(tabId, spec, cb, releaser(cb));
    },

    async loadMore(handle) {
      feeds.loadMore(handle);
    },

    async showPending(handle) {
      feeds.showPending(handle);
    },

    async closeFeed(handle) {
      feeds.close(handle);
    },

    async selectFeed(handle, spec) {
      feeds.select(handle, spec);
    },

    async retryFeed(handle) {
      feeds.retry(handle);
    },

    async subscribe(tabId: string, command: string, payload: Record<string, unknown> | undefined, cb: (e: CacheObject) => void) {
      touch(tabId);
      const handle = nextSub++;
      const sub = cache.subscribe(command, payload, { onEvent: (e) => notify(cb, e) });
      subscriptions.set(handle, { tabId, sub, release: releaser(cb) });
      return handle;
    },

    async unsubscribe(handle) {
      unsubscribe(handle);
    },

    async resetSocket() {
      socket.send({ type: 'RESET' });
    },

    async verifyNip05(pubkey, nip05Address) {
      return nip05.verify(pubkey, nip05Address);
    },

    dropTabs(tabIds) {
      for (const tabId of tabIds) closeTab(tabId);
    },

    dispose() {
      clearInterval(sweeper);
      for (const tabId of [...tabs.keys()]) closeTab(tabId);
      network.dispose();
      stopRelayWatch();
      social.dispose();
      account.service.dispose();
      cache.dispose();
      socket.stop();
    },
  };
}
