/**
 * Worker entry. As a SharedWorker (one per browser profile) every tab's port gets the same API,
 * so all tabs share one cache socket; as a dedicated Worker (no SharedWorker support) the one
 * tab gets it on the worker's own scope.
 */
import * as Comlink from 'comlink';
import { createApi, type StruccWorker } from './api.ts';
import type { StruccApi } from '../core/types.ts';

const api = createApi();

/** The API as one port sees it: remembers which tabs spoke on it, to drop them when it closes. */
function portSession(worker: StruccWorker, tabIds: Set<string>): StruccApi {
  return {
    hello: (tabId, config) => {
      tabIds.add(tabId);
      return worker.hello(tabId, config);
    },
    goodbye: (tabId) => {
      tabIds.delete(tabId);
      return worker.goodbye(tabId);
    },
    heartbeat: worker.heartbeat,
    watchSocket: worker.watchSocket,
    unwatch: worker.unwatch,
    request: worker.request,
    getHomeFeeds: worker.getHomeFeeds,
    openFeed: worker.openFeed,
    loadMore: worker.loadMore,
    showPending: worker.showPending,
    closeFeed: worker.closeFeed,
    selectFeed: worker.selectFeed,
    retryFeed: worker.retryFeed,
    resetSocket: worker.resetSocket,
    subscribe: worker.subscribe,
    unsubscribe: worker.unsubscribe,
    verifyNip05: worker.verifyNip05,
    addRelay: worker.addRelay,
    removeRelay: worker.removeRelay,
    setRelays: worker.setRelays,
    watchRelays: worker.watchRelays,
    unwatchRelays: worker.unwatchRelays,
    subscribeRelays: worker.subscribeRelays,
    unsubscribeRelays: worker.unsubscribeRelays,
    publish: worker.publish,
    setProxy: worker.setProxy,
    reportActivity: worker.reportActivity,
    watchActivity: worker.watchActivity,
    unwatchActivity: worker.unwatchActivity,
    registerSigner: worker.registerSigner,
    watchAccount: worker.watchAccount,
    unwatchAccount: worker.unwatchAccount,
    login: worker.login,
    nostrConnect: worker.nostrConnect,
    cancelNostrConnect: worker.cancelNostrConnect,
    unlockPin: worker.unlockPin,
    cancelPin: worker.cancelPin,
    askPin: worker.askPin,
    logout: worker.logout,
    revealSecret: worker.revealSecret,
    changePin: worker.changePin,
    accountAction: worker.accountAction,
    settingsAction: worker.settingsAction,
    signEvent: worker.signEvent,
    pushSubscribe: worker.pushSubscribe,
    pushUnsubscribe: worker.pushUnsubscribe,
    watchNotificationCount: worker.watchNotificationCount,
    unwatchNotificationCount: worker.unwatchNotificationCount,
    markNotificationsSeen: worker.markNotificationsSeen,
    openNotifications: worker.openNotifications,
    loadMoreNotifications: worker.loadMoreNotifications,
    selectNotificationGroup: worker.selectNotificationGroup,
    closeNotifications: worker.closeNotifications,
    watchReleases: worker.watchReleases,
    unwatchReleases: worker.unwatchReleases,
    acknowledgeRelease: worker.acknowledgeRelease,
    watchDmCount: worker.watchDmCount,
    unwatchDmCount: worker.unwatchDmCount,
    openDms: worker.openDms,
    setDmRelation: worker.setDmRelation,
    loadMoreDmContacts: worker.loadMoreDmContacts,
    selectDmContact: worker.selectDmContact,
    loadMoreDms: worker.loadMoreDms,
    sendDm: worker.sendDm,
    retryDm: worker.retryDm,
    markAllDmsRead: worker.markAllDmsRead,
    getInboxRelays: worker.getInboxRelays,
    publishInboxRelays: worker.publishInboxRelays,
    closeDms: worker.closeDms,
    openProfile: worker.openProfile,
    setProfileKey: worker.setProfileKey,
    loadProfileTab: worker.loadProfileTab,
    loadMoreProfileTab: worker.loadMoreProfileTab,
    closeProfile: worker.closeProfile,
    openThread: worker.openThread,
    reloadThread: worker.reloadThread,
    closeThread: worker.closeThread,
    watchWallet: worker.watchWallet,
    unwatchWallet: worker.unwatchWallet,
    walletAction: worker.walletAction,
    walletDetails: worker.walletDetails,
    payInvoice: worker.payInvoice,
    zap: worker.zap,
    zapEndpoint: worker.zapEndpoint,
    exchangeRate: worker.exchangeRate,
    connectDemoWallet: worker.connectDemoWallet,
    membershipRequest: worker.membershipRequest,
    refreshMembership: worker.refreshMembership,
    watchEcash: worker.watchEcash,
    unwatchEcash: worker.unwatchEcash,
    ecashAddMint: worker.ecashAddMint,
    ecashRemoveMint: worker.ecashRemoveMint,
    ecashReceive: worker.ecashReceive,
    ecashRetry: worker.ecashRetry,
    ecashDismissFailed: worker.ecashDismissFailed,
    ecashSend: worker.ecashSend,
    ecashMintQuote: worker.ecashMintQuote,
    ecashMintWithNwc: worker.ecashMintWithNwc,
    ecashMintClaim: worker.ecashMintClaim,
    ecashMeltQuote: worker.ecashMeltQuote,
    ecashMelt: worker.ecashMelt,
    ecashCheckPending: worker.ecashCheckPending,
    ecashSeed: worker.ecashSeed,
    ecashRestore: worker.ecashRestore,
    ecashDecode: worker.ecashDecode,
    ecashDemoMint: worker.ecashDemoMint,
    loadReactions: worker.loadReactions,
    reactionCounts: worker.reactionCounts,
    explorePeople: worker.explorePeople,
    exploreZaps: worker.exploreZaps,
    exploreTopics: worker.exploreTopics,
    searchUsers: worker.searchUsers,
    watchLogs: worker.watchLogs,
    unwatchLogs: worker.unwatchLogs,
    setCacheServer: worker.setCacheServer,
  };
}

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
