/**
 * The notifications, direct messages, profile and thread part of the worker API, kept out of
 * api.ts. The count subscriptions follow the login (signed in with a known key) and the activity
 * machine (asleep closes them); every page and watcher belongs to a tab and goes with it.
 */
import { keyStateOf, type LoginSnapshot } from '../machines/login.ts';
import type { AccountService } from './account.ts';
import type { ActivityService } from './activity.ts';
import { LazyDms } from './dmsLazy.ts';
import { RelayService, type WebSocketFactory } from './relays.ts';
import type { CacheRequest } from './util/cacheRequest.ts';
import { NotificationService, releaseStoreOn, type CacheSubscribe } from './notifications.ts';
import { ProfileService } from './profilePages.ts';
import { ThreadService } from './threads.ts';
import type { OwnNotes } from './ownNotes.ts';
import type { ViewerFilter } from './feedView.ts';
import type { DmsApi, LogLine, NotificationsApi, ProfilesApi, PublishResult, ThreadsApi, UnsignedEvent } from '../core/types.ts';

/** The services that run social machines: notifications, DMs, profiles and threads. */
export type SocialApi = NotificationsApi & DmsApi & Omit<ProfilesApi, 'verifyNip05'> & ThreadsApi;

export interface SocialOptions {
  request: CacheRequest;
  subscribe: CacheSubscribe;
  account: AccountService;
  activity: ActivityService;
  publish: (event: UnsignedEvent) => Promise<PublishResult>;
  releaser: (cb: object) => () => void;
  touch: (tabId: string) => void;
  /** Sockets for the NIP-17 inbox relays (tests give `ws`). */
  relaySocketFactory?: WebSocketFactory;
  /** The devtools log (DM messages that could not be decrypted). */
  log?: (line: LogLine) => void;
  throttleMs?: number;
  /** The notes just published, shown on the own profile and in the threads they reply to. */
  own?: OwnNotes;
  /** The viewer's mutes for profile lists and thread replies. */
  filter?: () => ViewerFilter;
}

export interface Social {
  api: SocialApi;
  notifications: NotificationService;
  profiles: ProfileService;
  threads: ThreadService;
  closeTab(tabId: string): void;
  dispose(): void;
}

/** The user the counts are for: a pubkey whose key state is settled (signing, read-only or PIN-locked). */
function userOf(snap: LoginSnapshot, previous: string | undefined): string | undefined {
  const state = keyStateOf(snap);
  // Mid-login the previous answer stands, so a login step does not close and reopen the subscription.
  if (state === 'pending') return previous;
  return state === 'none' ? undefined : snap.context.pubkey;
}

export function createSocial(options: SocialOptions): Social {
  const { request, subscribe, account, releaser, touch, throttleMs } = options;
  const signer = account.signer;
  const signRequest = (op: string, content?: unknown) => signer.signRequest(op, content);
  let user: string | undefined;
  const viewer = () => user;

  const notifications = new NotificationService({ request, subscribe, signRequest, releases: releaseStoreOn(account.storage), throttleMs });
  const record = () => {
    const r = account.account.getSnapshot().context.record;
    return r && r.pubkey === user ? r : undefined;
  };
  // The inbox relays get a pool of their own: they are the other side's relays, not the user's read relays.
  const inboxRelays = new RelayService({ socketFactory: options.relaySocketFactory });
  inboxRelays.setAuthSigner((t) => signer.sign(t));
  // Loaded for a signed-in account or the DM page (worker/dmsLazy.ts), not for a guest's first screen.
  const dms = new LazyDms(async () => {
    const [{ DmService }, { PrivateInbox }] = await Promise.all([import('./dms.ts'), import('./dmsPrivate.ts')]);
    const inbox = new PrivateInbox({
      request,
      relays: inboxRelays,
      crypto: () => {
        const pubkey = signer.pubkey;
        if (!signer.canSign || !pubkey) return undefined;
        return {
          pubkey,
          sign: (t) => signer.sign(t),
          nip44Encrypt: (pk, text) => signer.nip44Encrypt(pk, text),
          nip44Decrypt: (pk, text) => signer.nip44Decrypt(pk, text),
        };
      },
      publish: options.publish,
      readMarks: () => record()?.dmPrivateRead ?? {},
      saveReadMarks: (marks) => void account.act({ type: 'setLocal', patch: { dmPrivateRead: marks } }),
      onMessages: (peer, messages) => dms.privateMessages(peer, messages),
      onUnread: () => dms.emitTotal(),
      onUndecryptable: (reason) =>
        options.log?.({ level: 'warn', message: `a private message (NIP-17) could not be opened: ${reason}`, key: 'dmUnwrapFailed', params: { reason } }),
    });
    const dms = new DmService({
      request,
      subscribe,
      signRequest,
      encrypt: (peer, text) => signer.nip04Encrypt(peer, text),
      decrypt: (peer, text) => signer.nip04Decrypt(peer, text),
      publish: options.publish,
      remembered: () => {
        const record = account.account.getSnapshot().context.record;
        return record && record.pubkey === user ? { conversation: record.dmLastConversation, relation: record.dmLastRelation } : {};
      },
      remember: (patch) => void account.act({ type: 'setLocal', patch }),
      onUndecryptable: (count, peer) =>
        options.log?.({ level: 'warn', message: `${count} direct message(s) with ${peer} could not be decrypted and were skipped`, key: 'dmDecryptFailed', params: { count, peer } }),
      inbox,
      following: () => record()?.following ?? [],
      throttleMs,
    });
    return { dms, inbox };
  });
  const profiles = new ProfileService({ request, viewer, throttleMs, own: options.own, filter: options.filter });
  const threads = new ThreadService({ request, viewer, throttleMs, own: options.own, filter: options.filter });

  // Whether the settled login could sign; the private counts are only answered to signed requests.
  let signing = false;
  const onLogin = (snap: LoginSnapshot) => {
    const next = userOf(snap, user);
    const state = keyStateOf(snap);
    const wasSigning = signing;
    if (state !== 'pending') signing = state === 'sign';
    if (next === user) {
      if (user !== undefined && signing && !wasSigning) {
        notifications.count.send({ type: 'RESUBSCRIBE' });
        dms.resubscribe();
      }
      if (state !== 'pending') dms.setInboxUser(user, signing);
      return;
    }
    user = next;
    notifications.setUser(user);
    // The gift wraps can only be opened by a login that can decrypt.
    dms.setUser(user, signing);
    // A page opened before the login settled was loaded without the viewer's own likes, reposts and follows.
    profiles.setViewer(user);
    threads.setViewer(user);
  };
  const loginSub = account.login.subscribe(onLogin);
  onLogin(account.login.getSnapshot());
  let inboxAwake = true;
  const stopActivity = options.activity.watch((s) => {
    const active = s.state !== 'sleeping';
    notifications.setActive(active);
    dms.setActive(active);
    // The inbox relays sleep with the rest of the network; on waking they resume their subscription.
    if (active !== inboxAwake) {
      inboxAwake = active;
      if (active) inboxRelays.resume('sleep');
      else inboxRelays.suspend('sleep');
    }
  });

  const api: SocialApi = {
    async getInboxRelays(pubkey) {
      // Not forced fresh: what this worker just published is known before the cache server has indexed it.
      return dms.use(({ inbox }) => inbox.inboxRelays(pubkey));
    },
    async publishInboxRelays(relays) {
      return dms.use(({ inbox }) => inbox.publishInboxRelays(relays));
    },
    async watchNotificationCount(tabId, cb) {
      touch(tabId);
      return notifications.watchCount(tabId, cb, releaser(cb));
    },
    async unwatchNotificationCount(handle) {
      notifications.unwatchCount(handle);
    },
    markNotificationsSeen: () => notifications.markSeen(),
    async openNotifications(tabId, typeGroup, cb) {
      touch(tabId);
      return notifications.openList(tabId, typeGroup, cb, releaser(cb));
    },
    async loadMoreNotifications(handle) {
      notifications.loadMore(handle);
    },
    async selectNotificationGroup(handle, typeGroup) {
      notifications.selectGroup(handle, typeGroup);
    },
    async closeNotifications(handle) {
      notifications.closeList(handle);
    },
    async watchReleases(tabId, cb) {
      touch(tabId);
      return notifications.watchReleases(tabId, cb, releaser(cb));
    },
    async unwatchReleases(handle) {
      notifications.unwatchReleases(handle);
    },
    async acknowledgeRelease() {
      notifications.acknowledgeRelease();
    },
    async watchDmCount(tabId, cb) {
      touch(tabId);
      return dms.watchCount(tabId, cb, releaser(cb));
    },
    async unwatchDmCount(handle) {
      dms.unwatchCount(handle);
    },
    async openDms(tabId, cb) {
      touch(tabId);
      const release = releaser(cb);
      return dms.use((p) => p.dms.open(tabId, cb, release));
    },
    async setDmRelation(handle, relation) {
      await dms.use((p) => p.dms.setRelation(handle, relation));
    },
    async loadMoreDmContacts(handle) {
      await dms.use((p) => p.dms.loadMoreContacts(handle));
    },
    async selectDmContact(handle, pubkey) {
      await dms.use((p) => p.dms.select(handle, pubkey));
    },
    async loadMoreDms(handle) {
      await dms.use((p) => p.dms.loadMore(handle));
    },
    sendDm: (handle, text) => dms.use((p) => p.dms.send(handle, text)),
    async retryDm(handle, id) {
      await dms.use((p) => p.dms.retry(handle, id));
    },
    markAllDmsRead: () => dms.use((p) => p.dms.markAllRead()),
    async closeDms(handle) {
      await dms.use((p) => p.dms.close(handle));
    },
    async openProfile(tabId, pubkey, cb) {
      touch(tabId);
      return profiles.open(tabId, pubkey, cb, releaser(cb));
    },
    async setProfileKey(handle, pubkey) {
      profiles.setKey(handle, pubkey);
    },
    async loadProfileTab(handle, tab) {
      profiles.loadTab(handle, tab);
    },
    async loadMoreProfileTab(handle, tab) {
      profiles.loadMore(handle, tab);
    },
    async closeProfile(handle) {
      profiles.close(handle);
    },
    async openThread(tabId, target, cb) {
      touch(tabId);
      return threads.open(tabId, target, cb, releaser(cb));
    },
    async reloadThread(handle, target) {
      threads.reload(handle, target);
    },
    async closeThread(handle) {
      threads.close(handle);
    },
  };

  return {
    api,
    notifications,
    profiles,
    threads,
    closeTab(tabId) {
      notifications.closeTab(tabId);
      dms.closeTab(tabId);
      profiles.closeTab(tabId);
      threads.closeTab(tabId);
    },
    dispose() {
      loginSub.unsubscribe();
      stopActivity();
      notifications.dispose();
      dms.dispose();
      inboxRelays.dispose();
      profiles.dispose();
      threads.dispose();
    },
  };
}
