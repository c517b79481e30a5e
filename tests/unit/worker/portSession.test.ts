/**
 * Pins the method names of the worker's Comlink API: adding, renaming or removing one must be a
 * deliberate change of this list. The names are read from the object a port really exposes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createApi, type StruccWorker } from '../../../worker/api.ts';
import { portSession } from '../../../worker/portSession.ts';
import type { StruccApi } from '../../../core/types.ts';
import { createFakeSocket } from '../helpers/fakeSocket.ts';

const API_METHODS = [
  'accountAction',
  'acknowledgeRelease',
  'addRelay',
  'askPin',
  'cancelNostrConnect',
  'cancelPin',
  'changePin',
  'closeDms',
  'closeFeed',
  'closeNotifications',
  'closeProfile',
  'closeThread',
  'connectDemoWallet',
  'ecashAddMint',
  'ecashCheckPending',
  'ecashDecode',
  'ecashDemoMint',
  'ecashDismissFailed',
  'ecashMelt',
  'ecashMeltQuote',
  'ecashMintClaim',
  'ecashMintQuote',
  'ecashMintWithNwc',
  'ecashReceive',
  'ecashRemoveMint',
  'ecashRestore',
  'ecashRetry',
  'ecashSeed',
  'ecashSend',
  'exchangeRate',
  'explorePeople',
  'exploreTopics',
  'exploreZaps',
  'getHomeFeeds',
  'getInboxRelays',
  'goodbye',
  'heartbeat',
  'hello',
  'loadMore',
  'loadMoreDmContacts',
  'loadMoreDms',
  'loadMoreNotifications',
  'loadMoreProfileTab',
  'loadProfileTab',
  'loadReactions',
  'login',
  'logout',
  'markAllDmsRead',
  'markNotificationsSeen',
  'membershipRequest',
  'nostrConnect',
  'openDms',
  'openFeed',
  'openNotifications',
  'openProfile',
  'openThread',
  'payInvoice',
  'publish',
  'publishInboxRelays',
  'pushSubscribe',
  'pushUnsubscribe',
  'reactionCounts',
  'refreshMembership',
  'registerSigner',
  'reloadThread',
  'removeRelay',
  'reportActivity',
  'request',
  'resetSocket',
  'retryDm',
  'retryFeed',
  'revealSecret',
  'searchUsers',
  'selectDmContact',
  'selectFeed',
  'selectNotificationGroup',
  'sendDm',
  'setCacheServer',
  'setDmRelation',
  'setProfileKey',
  'setProxy',
  'setRelays',
  'settingsAction',
  'showPending',
  'signEvent',
  'subscribe',
  'subscribeRelays',
  'unlockPin',
  'unsubscribe',
  'unsubscribeRelays',
  'unwatch',
  'unwatchAccount',
  'unwatchActivity',
  'unwatchDmCount',
  'unwatchEcash',
  'unwatchLogs',
  'unwatchNotificationCount',
  'unwatchRelays',
  'unwatchReleases',
  'unwatchWallet',
  'verifyNip05',
  'walletAction',
  'walletDetails',
  'watchAccount',
  'watchActivity',
  'watchDmCount',
  'watchEcash',
  'watchLogs',
  'watchNotificationCount',
  'watchRelays',
  'watchReleases',
  'watchSocket',
  'watchWallet',
  'zap',
  'zapEndpoint',
] as const satisfies readonly (keyof StruccApi)[];

// The list names every method of the contract: a method added to StruccApi and not here fails tsc.
type Unlisted = Exclude<keyof StruccApi, (typeof API_METHODS)[number]>;
const everyMethodListed: [Unlisted] extends [never] ? true : Unlisted = true;

describe('the worker API surface', () => {
  let api: StruccWorker | undefined;
  afterEach(() => api?.dispose());

  it('a port exposes exactly the pinned methods, each a function', () => {
    api = createApi({ socket: createFakeSocket().logic, feedCache: null });
    const exposed = portSession(api, new Set());
    expect(everyMethodListed).toBe(true);
    expect(Object.keys(exposed).sort()).toEqual([...API_METHODS]);
    for (const name of API_METHODS) expect(typeof exposed[name], name).toBe('function');
  });

  it('the worker object itself implements every pinned method', () => {
    api = createApi({ socket: createFakeSocket().logic, feedCache: null });
    const worker: Record<keyof StruccApi, unknown> = api;
    expect(API_METHODS.filter((name) => typeof worker[name] !== 'function')).toEqual([]);
  });
});
