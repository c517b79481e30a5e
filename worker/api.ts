/**
 * The StruccApi every tab talks to over Comlink. One instance per worker: it owns the cache
 * socket machine, the request router, the feeds and the tab bookkeeping.
 */
import { createActor, type AnyActorLogic } from 'xstate';
import { cacheSocketMachine, socketStateOf, type CacheSocketSnapshot } from '../machines/cacheSocket.ts';
import { keyStateOf } from '../machines/login.ts';
import type { CacheObject, CacheReply, ClientConfig, RelayInfo, SocketSnapshot, StruccApi } from '../core/types.ts';
import { CacheClient } from './cache.ts';
import { FeedRegistry } from './feedRegistry.ts';
import { NO_FILTER, sameFilter, viewerFilterOf, type ViewerFilter } from './feedView.ts';
import { OwnNotes } from './ownNotes.ts';
import { parseBundle } from '../core/bundle.ts';
import { notify } from './util/notify.ts';
import { TabHandles } from './util/tabHandles.ts';
import { Watchers } from './instances.ts';
import { releaser } from './release.ts';
import { defaultFeedCache, type FeedCache } from './feedCache.ts';
import { relayListLoader } from './relayListLoader.ts';
import { createFeedApi } from './feedService.ts';
import { Nip05Verifier, type Fetcher } from './nip05.ts';
import { webSocketActor } from './socketActor.ts';
import { createNetwork } from './network.ts';
import { createAccountApi } from './accountApi.ts';
import { createSocial, type Social } from './social.ts';
import { createReactions } from './reactions.ts';
import { createEcashApi } from './ecashApi.ts';
import { lazyService } from './util/lazyService.ts';
import { createDiscover } from './discover.ts';
import { createMembershipApi } from './membership.ts';
import type { AccountService } from './account.ts';
import type { AccountStorage } from './storage.ts';
import type { Signer } from './publish.ts';
import type { WebSocketFactory } from './relays.ts';
import { cacheServerLogLine, publishLogLine, relayLogLines, socketLogLine, WorkerLog } from './logs.ts';
import { checkCacheServerUrl } from '../core/cacheServerUrl.ts';
import { APP_VERSION, DEFAULT_GUEST_PUBKEY, TAB_SWEEP_MS, TAB_TIMEOUT_MS, tabLockName } from '../core/config.ts';

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
  /** How long a remote signer (NIP-46) may take per request; tests shorten it. */
  remoteSignerTimeoutMs?: number;
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

  const socketWatchers = new Watchers<SocketSnapshot>();
  let wasConnected = false;
  let lastSocket: SocketSnapshot | undefined;
  const log = new WorkerLog();

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
    const line = socketLogLine(lastSocket, next);
    if (line) log.add(line.level, 'socket', line.message, line);
    lastSocket = next;
    socketWatchers.emit(next, () => false);
  });
  socket.start();

  const request = (command: string, payload?: Record<string, unknown>): Promise<CacheReply> => cache.request(command, payload);

  const feedCache = options.feedCache === undefined ? defaultFeedCache() : (options.feedCache ?? undefined);
  void feedCache?.preload();
  const guest = () => (config?.guestPubkey ?? DEFAULT_GUEST_PUBKEY) || undefined;
  // Feeds are ranked and filtered for the signed-in user (follows, mutes); the guest account stands in
  // for visitors (spec §6). Set once the account service exists below.
  let signedInViewer: () => string | undefined = () => undefined;
  const viewer = () => signedInViewer() ?? guest();
  // What the person publishes shows at once in every tab's feeds, profile and threads (worker/feedView.ts).
  const own = new OwnNotes([
    async (pubkey) => feedCache?.loadProfile(pubkey),
    async (pubkey) => parseBundle((await request('user_infos', { pubkeys: [pubkey] })).events).profiles[pubkey],
  ]);
  let viewerFilter: ViewerFilter = NO_FILTER;
  const feeds = new FeedRegistry({
    request,
    userPubkey: viewer,
    cache: feedCache,
    throttleMs: options.feedThrottleMs,
    filter: () => viewerFilter,
    own,
  });
  own.watch(() => feeds.refresh());

  const nip05 = new Nip05Verifier(() => config?.cacheServer, options.fetcher);

  // Cache subscriptions and log watchers the tabs opened; both close with their tab.
  const tabHandles = new TabHandles<void>();

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
    socketWatchers.closeTab(tabId);
    tabHandles.closeTab(tabId);
    network.closeTab(tabId);
    account.service.closeTab(tabId);
    social.closeTab(tabId);
    wallet.loaded?.closeTab(tabId);
    ecash.loaded?.closeTab(tabId);
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
    onSigned: (event) => own.add(event),
  });

  // Every publish (notes, lists, settings...) passes here, so the devtools log sees each result.
  const rawPublish = network.api.publish;
  network.api.publish = async (event) => {
    const result = await rawPublish(event);
    // Accepted by a relay: shown as a normal card; refused everywhere: it leaves the feeds again.
    if (result.event) {
      if (result.success) own.confirm(result.event.id);
      else own.fail(result.event.id);
    }
    const line = publishLogLine(event.kind, result);
    log.add(line.level, 'publish', line.message, line);
    return result;
  };
  let lastRelays: RelayInfo[] = [];
  const stopRelayLog = network.relays.watch((list) => {
    for (const line of relayLogLines(lastRelays, list)) log.add(line.level, 'relay', line.message, line);
    lastRelays = list;
  });

  const account = createAccountApi({
    request,
    storage: options.accountStorage,
    remoteSignerTimeoutMs: options.remoteSignerTimeoutMs,
    publish: (event) => network.api.publish(event),
    // Publishing signs with the account while it can; a signer given by a test stays otherwise.
    onSignerChange: (canSign) => network.setSigner(canSign ? (t) => account.service.signer.sign(t) : options.signer),
    releaser,
    touch,
  });
  signedInViewer = () => {
    const login = account.service.login.getSnapshot();
    return keyStateOf(login) === 'none' ? undefined : login.context.pubkey;
  };
  account.service.login.subscribe(() => feeds.refreshViewer());
  // A settings save that failed while the server was away goes out as soon as it is back.
  let settingsSawConnected = socket.getSnapshot().context.connected;
  socket.subscribe((snap) => {
    if (snap.context.connected && !settingsSawConnected) account.service.settings.retrySave();
    settingsSawConnected = snap.context.connected;
  });
  const social: Social = createSocial({
    request,
    subscribe: (command, payload, handlers) => cache.subscribe(command, payload, handlers),
    account: account.service,
    activity: network.activity,
    publish: (event) => network.api.publish(event),
    own,
    filter: () => viewerFilter,
    releaser,
    touch,
    log: (line) => log.add(line.level, 'dms', line.message, line),
    relaySocketFactory: options.relaySocketFactory,
    throttleMs: options.feedThrottleMs,
  });

  let ownAccount: string | undefined;
  account.service.watch(
    'worker',
    (s) => {
      // Another account's just-published notes are not this one's.
      if (s.login.pubkey !== ownAccount) own.clear();
      ownAccount = s.login.pubkey;
      const next = viewerFilterOf(s.account, s.login.pubkey);
      if (sameFilter(next, viewerFilter)) return;
      viewerFilter = next;
      feeds.refresh();
      social.profiles.refresh();
      social.threads.refresh();
    },
    () => undefined,
  );

  account.service.watch(
    'worker',
    relayListLoader({ request, relays: () => network.relays.snapshot(), poolEdited: network.poolEdited, setRelays: (event) => network.relays.setFromEvent(event) }),
    () => undefined,
  );

  const stopRelayWatch = network.relays.watch((list) =>
    account.service.setRelaySnapshot(Object.fromEntries(list.map((r) => [r.url, { read: r.read, write: r.write }]))),
  );

  // The saved privacy-proxy setting follows the account into every worker start, not only the network page.
  let appliedProxy: boolean | undefined;
  account.service.watch('worker', (s) => {
    if (s.settings.state !== 'ready') return;
    const on = s.settings.settings.proxyThroughPrimal === true;
    if (on === appliedProxy) return;
    appliedProxy = on;
    if (on !== network.activity.proxy) network.activity.setProxy(on);
  }, () => undefined);

  const reactions = createReactions(request);
  // The NWC wallet and the ecash wallet load for an account that can use them (they open its records
  // at sign-in, as before) or with their first call; a guest's first screen fetches neither.
  const wallet = lazyService(async () => {
    const { WalletService } = await import('./wallet.ts');
    return new WalletService({
      account: account.service,
      request,
      cacheServer: () => config?.cacheServer,
      writeRelays: () => network.relays.snapshot().filter((r) => r.write).map((r) => r.url),
    });
  });
  const ecash = lazyService(async () => {
    const { EcashService } = await import('./ecash.ts');
    return new EcashService({ account: account.service, cacheServer: () => config?.cacheServer, payWithNwc: async (invoice) => (await wallet.get()).pay(invoice) });
  });
  const walletsFollowLogin = () => {
    const login = account.service.login.getSnapshot();
    const state = keyStateOf(login);
    if (!login.context.pubkey || state === 'none' || login.context.method === 'readonly') return;
    void ecash.get().catch(() => undefined);
    if (state === 'sign') void wallet.get().catch(() => undefined);
  };
  account.service.login.subscribe(walletsFollowLogin);
  walletsFollowLogin();

  return {
    ...network.api,
    ...account.api,
    ...social.api,
    ...reactions,
    ...createDiscover({ request }),
    ...createMembershipApi({ request, account: account.service }),
    ...createFeedApi({ feeds, request, feedCache, guest, touch, releaser }),
    account: account.service,

    async watchWallet(tabId, cb) {
      touch(tabId);
      const release = releaser(cb);
      return (await wallet.get()).watch(tabId, cb, release);
    },
    async unwatchWallet(handle) {
      (await wallet.get()).unwatch(handle);
    },
    walletAction: async (action) => (await wallet.get()).act(action),
    walletDetails: async (id) => (await wallet.get()).details(id),
    payInvoice: async (invoice) => (await wallet.get()).pay(invoice),
    // The tab's WebLN payer is a Comlink proxy: its port is let go once the zap is over.
    zap: (input, payInTab) => wallet.get().then((w) => w.zap(input, payInTab)).finally(() => payInTab && releaser(payInTab)()),
    zapEndpoint: async (lud16, lud06) => (await wallet.get()).zapEndpoint(lud16, lud06),
    exchangeRate: async (currency) => (await wallet.get()).exchangeRate(currency),
    connectDemoWallet: async (name) => (await wallet.get()).connectDemo(name),
    ...createEcashApi(ecash.get, touch, releaser),

    setSigner: network.setSigner,

    async hello(tabId, cfg) {
      touch(tabId);
      if (cfg.holdsTabLock) followTabLock(tabId);
      if (!config) {
        config = { ...cfg };
        socket.send({ type: 'CONNECT', url: cfg.cacheServer, noBinary: cfg.noBinary, devMode: cfg.devMode });
        // Test-speed sleep and wake exist for developers and tests only; ordinary tabs keep the spec's timings.
        if (cfg.devMode && cfg.activityTimings) network.activity.setTimings(cfg.activityTimings);
        if (cfg.devMode && cfg.devTimings?.requestTimeoutMs) cache.setTimeoutMs(cfg.devTimings.requestTimeoutMs);
        if (cfg.devMode && cfg.devTimings?.feedPollMs) feeds.setPollInterval(cfg.devTimings.feedPollMs);
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
      return socketWatchers.add(tabId, cb, releaser(cb), lastSocket ?? toSocketSnapshot(socket.getSnapshot()));
    },

    async unwatch(handle) {
      socketWatchers.remove(handle);
    },

    request,

    async subscribe(tabId: string, command: string, payload: Record<string, unknown> | undefined, cb: (e: CacheObject) => void) {
      touch(tabId);
      const release = releaser(cb);
      const sub = cache.subscribe(command, payload, { onEvent: (e) => notify(cb, e) });
      return tabHandles.add(tabId, undefined, () => {
        sub.close();
        release();
      });
    },

    async unsubscribe(handle) {
      tabHandles.close(handle);
    },

    async resetSocket() {
      socket.send({ type: 'RESET' });
    },

    async setCacheServer(url) {
      const checked = checkCacheServerUrl(url);
      if (!checked.ok) return checked;
      if (config) config = { ...config, cacheServer: checked.url };
      // The machine takes a new URL only when it is not online: close, then open the new one.
      socket.send({ type: 'DISCONNECT' });
      socket.send({ type: 'CONNECT', url: checked.url });
      const line = cacheServerLogLine(checked.url);
      log.add(line.level, 'socket', line.message, line);
      return checked;
    },

    async watchLogs(tabId, cb) {
      touch(tabId);
      const release = releaser(cb);
      const stop = log.watch((entries) => notify(cb, entries));
      return tabHandles.add(tabId, undefined, () => {
        stop();
        release();
      });
    },

    async unwatchLogs(handle) {
      tabHandles.close(handle);
    },

    async verifyNip05(pubkey, nip05Address) {
      return nip05.verify(pubkey, nip05Address);
    },

    dropTabs(tabIds) {
      for (const tabId of tabIds) closeTab(tabId);
    },

    dispose() {
      clearInterval(sweeper);
      wallet.dispose();
      ecash.dispose();
      for (const tabId of [...tabs.keys()]) closeTab(tabId);
      network.dispose();
      stopRelayWatch();
      stopRelayLog();
      log.clearWatchers();
      social.dispose();
      account.service.dispose();
      cache.dispose();
      socket.stop();
    },
  };
}
