/** The Comlink API of the worker and its log. */
import type { CacheObject, CacheReply, FeedNote, NostrEvent, Profile } from './events.ts';
import type { ExplorePage, ExplorePerson, ExploreTopic, ExploreZap, FeedDefinition, FeedSnapshot } from './feeds.ts';
import type {
  ActivitySnapshot,
  AddRelayResult,
  ClientConfig,
  PublishResult,
  RelayFilter,
  RelayInfo,
  SocketSnapshot,
  UnsignedEvent,
} from './network.ts';
import type { ExchangeRate, PaymentResult, WalletAction, WalletDetailsResult, WalletSnapshot, ZapEndpointInfo, ZapRequestInput, ZapResult } from './wallet.ts';
import type { AmountPreference, EcashResult, EcashSnapshot, MeltQuoteInfo, TokenSummary } from './ecash.ts';
import type { AccountAction, AccountSnapshot, ActionResult, LoginRequest, PushSubscriptionInfo, PushType, SettingsAction, SignerBridge } from './account.ts';
import type {
  DmRelation,
  DmSnapshot,
  NotificationCountSnapshot,
  NotificationTypeGroup,
  NotificationsSnapshot,
  ProfileSnapshot,
  ProfileTab,
  ReactionCounts,
  ReactionPage,
  ReactionTab,
  ReleasesSnapshot,
  ThreadSnapshot,
  ThreadTarget,
} from './social.ts';

/** The tab lifecycle: greeting, heartbeat and goodbye. */
export interface TabApi {
  /** First call of every tab. The first tab's config wins; later tabs share the same socket. */
  hello(tabId: string, config: ClientConfig): Promise<{ version: string }>;
  /** A tab is going away: close everything it opened. */
  goodbye(tabId: string): Promise<void>;
  /** Tabs call this every 10 s; a tab silent for 30 s counts as closed. */
  heartbeat(tabId: string): Promise<void>;
}

/** The cache socket: its state, one-shot commands, long-lived subscriptions and the server URL. */
export interface CacheApi {
  watchSocket(tabId: string, cb: (s: SocketSnapshot) => void): Promise<number>;
  unwatch(handle: number): Promise<void>;
  /** One cache command, answered when its EOSE arrives. */
  request(command: string, payload?: Record<string, unknown>): Promise<CacheReply>;
  /** Disconnects the cache socket and reconnects after 1 s (spec §4 "A reset"). */
  resetSocket(): Promise<void>;
  /**
   * A long-lived cache subscription (net_stats, notification_counts, directmsg_count...): every
   * pushed object goes to cb until unsubscribe (which sends CLOSE) or the tab goes away.
   */
  subscribe(tabId: string, command: string, payload: Record<string, unknown> | undefined, cb: (e: CacheObject) => void): Promise<number>;
  unsubscribe(handle: number): Promise<void>;
  /** Moves the cache socket to another ws(s) server URL (refused with 'Érvénytelen URL' otherwise). */
  setCacheServer(url: string): Promise<AddRelayResult>;
}

/** The home feed list and the live feeds a tab opens, pages and switches. */
export interface FeedsApi {
  getHomeFeeds(): Promise<FeedDefinition[]>;
  /** painted: the cards the tab already shows for spec (its first screen); the worker keeps them until the network answers. */
  openFeed(tabId: string, spec: string, cb: (s: FeedSnapshot) => void, painted?: FeedNote[]): Promise<number>;
  loadMore(handle: number): Promise<void>;
  /** Moves the pending newer notes to the top of the feed. */
  showPending(handle: number): Promise<void>;
  closeFeed(handle: number): Promise<void>;
  /** Switches an open feed to another spec: clears its notes and loads the first page. */
  selectFeed(handle: number, spec: string): Promise<void>;
  /** Loads the first page again after the feed's status became 'error'. */
  retryFeed(handle: number): Promise<void>;
}

/** Relays, publishing, the privacy proxy and the activity (sleep/wake) state. */
export interface NetworkApi {
  /** Adds a relay (read and write); refused with 'Érvénytelen URL' unless wss:// (ws:// for loopback hosts). */
  addRelay(url: string, flags?: { read?: boolean; write?: boolean }): Promise<AddRelayResult>;
  /** Cuts the relay's connection and forgets it. */
  removeRelay(url: string): Promise<void>;
  /** Replaces the pool with the `r` tags of a kind-10002 event (markers read/write set the flags). */
  setRelays(event: Pick<NostrEvent, 'tags'>): Promise<RelayInfo[]>;
  /** The pool's snapshot now and after every change; unwatch with unwatchRelays. */
  watchRelays(tabId: string, cb: (relays: RelayInfo[]) => void): Promise<number>;
  unwatchRelays(handle: number): Promise<void>;
  /** A relay subscription across every read relay; re-sent with since after reconnects. */
  subscribeRelays(tabId: string, filters: RelayFilter[], cb: (e: NostrEvent) => void): Promise<number>;
  unsubscribeRelays(handle: number): Promise<void>;
  /** Signs (when unsigned) and publishes to the write relays, or through the cache server when proxying. */
  publish(event: NostrEvent | UnsignedEvent): Promise<PublishResult>;
  /** 'Proxy through the cache server': on suspends every relay, off reconnects them. */
  setProxy(on: boolean): Promise<void>;
  /** Mouse, scroll or key activity in a tab (throttled by the tab); wakes a sleeping worker. */
  reportActivity(tabId: string): Promise<void>;
  watchActivity(tabId: string, cb: (s: ActivitySnapshot) => void): Promise<number>;
  unwatchActivity(handle: number): Promise<void>;
}

/** Login, keys, signing and the account's lists. */
export interface AccountApi {
  /** Lends this tab's NIP-07 extension (a Comlink.proxy of SignerBridge) to the worker's signer. */
  registerSigner(tabId: string, bridge: SignerBridge): Promise<void>;
  /** Login, account lists and settings, now and after every change in any tab. */
  watchAccount(tabId: string, cb: (s: AccountSnapshot) => void): Promise<number>;
  unwatchAccount(handle: number): Promise<void>;
  /** Extension (4 retries at 250 ms, then the stored key), nsec (optionally PIN-protected) or read-only npub. */
  login(request: LoginRequest): Promise<ActionResult>;
  /** A nostrconnect:// URI (shown as a QR code) for a signer app; login with it waits for the app to accept. */
  nostrConnect(relays?: string[]): Promise<string>;
  /** Withdraws the nostrconnect:// offer (the login dialog closed). */
  cancelNostrConnect(): Promise<void>;
  /** Opens the PIN-encrypted key; a wrong PIN gives code 'bad-cipher'. */
  unlockPin(pin: string): Promise<ActionResult>;
  cancelPin(): Promise<void>;
  /** A locked (PIN-protected, not yet opened) key: shows the PIN prompt again in every tab. */
  askPin(): Promise<void>;
  /** Forgets the key and the stored login in every tab. */
  logout(): Promise<void>;
  /** The local key as an nsec, for the account page and the new-account wizard; null with an extension, read-only or no key. */
  revealSecret(pin?: string): Promise<string | null>;
  /** Re-encrypts the stored key under a new PIN (the current one must open it). */
  changePin(current: string, next: string, confirm: string): Promise<ActionResult>;
  /** Follow, mute, like, bookmarks, lists, drafts, emoji history... answered when done. */
  accountAction(action: AccountAction): Promise<ActionResult>;
  /** Signs with the account's key or extension; rejects with a §8 code. */
  signEvent(event: UnsignedEvent): Promise<NostrEvent>;
}

/** The account's saved settings. */
export interface SettingsApi {
  settingsAction(action: SettingsAction): Promise<ActionResult>;
}

/** Membership (premium) commands of the signed-in account. */
export interface MembershipApi {
  /** A signed membership command (membership_status, _purchase_product, _change_name, media, recovery...), params inside the signed content. */
  membershipRequest(command: string, params?: Record<string, unknown>): Promise<CacheReply>;
  /** Asks the server for the tier again (after a purchase or rename); every tab's account snapshot follows. */
  refreshMembership(): Promise<void>;
}

/** Web Push subscriptions of this browser. */
export interface PushApi {
  /** Web Push: this browser's subscription for the signed-in user, with the kinds of news (push_subscribe, signed). */
  pushSubscribe(subscription: PushSubscriptionInfo, types: PushType[]): Promise<ActionResult>;
  /** Stops the pushes to one browser (push_unsubscribe, signed): turned off in settings, or before a logout. */
  pushUnsubscribe(endpoint: string): Promise<ActionResult>;
}

/** The notification count and list, and the mobile-release badge. */
export interface NotificationsApi {
  /** The unread notification count (subscribed only while signed in and active); unwatch with unwatchNotificationCount. */
  watchNotificationCount(tabId: string, cb: (s: NotificationCountSnapshot) => void): Promise<number>;
  unwatchNotificationCount(handle: number): Promise<void>;
  /** Resets the count: set_notifications_seen with a signed event whose created_at is now. */
  markNotificationsSeen(): Promise<ActionResult>;
  /** The notification list (100 newest, then 20 older a page) for the signed-in user. */
  openNotifications(tabId: string, typeGroup: NotificationTypeGroup, cb: (s: NotificationsSnapshot) => void): Promise<number>;
  loadMoreNotifications(handle: number): Promise<void>;
  selectNotificationGroup(handle: number, typeGroup: NotificationTypeGroup): Promise<void>;
  closeNotifications(handle: number): Promise<void>;
  /** Mobile releases and the download badge; unwatch with unwatchReleases. */
  watchReleases(tabId: string, cb: (s: ReleasesSnapshot) => void): Promise<number>;
  unwatchReleases(handle: number): Promise<void>;
  /** Stores the current releases' versions as acknowledged: the badge goes away. */
  acknowledgeRelease(): Promise<void>;
}

/** Direct messages. */
export interface DmsApi {
  /** The unread direct-message total (directmsg_count); unwatch with unwatchDmCount. */
  watchDmCount(tabId: string, cb: (count: number) => void): Promise<number>;
  unwatchDmCount(handle: number): Promise<void>;
  /** The DM page: contacts of the remembered relation, and the remembered conversation selected. */
  openDms(tabId: string, cb: (s: DmSnapshot) => void): Promise<number>;
  setDmRelation(handle: number, relation: DmRelation): Promise<void>;
  loadMoreDmContacts(handle: number): Promise<void>;
  /** Loads the conversation (20 a page) and sets the contact's unread count to zero. */
  selectDmContact(handle: number, pubkey: string): Promise<void>;
  /** The next older page of the selected conversation. */
  loadMoreDms(handle: number): Promise<void>;
  /** Encrypts (NIP-04), publishes a kind 4, imports it and refreshes the conversation. */
  sendDm(handle: number, text: string): Promise<PublishResult>;
  /** Sends a failed message (DmSnapshot.outbox) again. */
  retryDm(handle: number, id: number): Promise<void>;
  markAllDmsRead(): Promise<ActionResult>;
  /** Someone's NIP-17 inbox relays (kind 10050; the settings page asks for the user's); empty when none is published. */
  getInboxRelays(pubkey: string): Promise<string[]>;
  /** Publishes the user's kind-10050 list; private messages are read from these relays from then on. */
  publishInboxRelays(relays: string[]): Promise<PublishResult>;
  closeDms(handle: number): Promise<void>;
}

/** Profile pages and NIP-05 checks. */
export interface ProfilesApi {
  /** A profile page; setProfileKey switches it to another user (resets profile, stats and sidebars). */
  openProfile(tabId: string, pubkey: string, cb: (s: ProfileSnapshot) => void): Promise<number>;
  setProfileKey(handle: number, pubkey: string): Promise<void>;
  loadProfileTab(handle: number, tab: ProfileTab): Promise<void>;
  loadMoreProfileTab(handle: number, tab: ProfileTab): Promise<void>;
  closeProfile(handle: number): Promise<void>;
  /** True when name@domain resolves to exactly this pubkey (cached). */
  verifyNip05(pubkey: string, nip05: string): Promise<boolean>;
}

/** Threads and articles with their replies. */
export interface ThreadsApi {
  /** A thread (/e/) or an article with its replies (/a/). */
  openThread(tabId: string, target: ThreadTarget, cb: (s: ThreadSnapshot) => void): Promise<number>;
  reloadThread(handle: number, target?: ThreadTarget): Promise<void>;
  closeThread(handle: number): Promise<void>;
}

/** Wallet connections (NWC), payments and zaps. */
export interface WalletApi {
  /** Wallet connections (NWC) of the signed-in account; the same in every tab. */
  watchWallet(tabId: string, cb: (s: WalletSnapshot) => void): Promise<number>;
  unwatchWallet(handle: number): Promise<void>;
  walletAction(action: WalletAction): Promise<ActionResult>;
  /** get_balance and list_transactions of one connection. */
  walletDetails(id: string): Promise<WalletDetailsResult>;
  /** Pays a bolt11 invoice with the active connection. */
  payInvoice(invoice: string): Promise<PaymentResult>;
  /**
   * LNURL-pay zap (NIP-57) paid by the active connection, or by the tab's WebLN wallet when
   * `payInTab` is given (the worker fetches the invoice, the tab pays it and returns the preimage).
   * Honours the event's zap splits; reason 'no-address' when the author cannot be zapped.
   */
  zap(input: ZapRequestInput, payInTab?: (invoice: string) => Promise<string>): Promise<ZapResult>;
  /** The recipient's LNURL-pay limits (commentAllowed, min and max sats) for the custom zap. */
  zapEndpoint(lud16: string, lud06: string): Promise<ZapEndpointInfo>;
  /** The wallet service's price of one bitcoin in `currency`, for the fiat value of a zap. */
  exchangeRate(currency: string): Promise<ExchangeRate | undefined>;
  /** Adds the demo network's wallet of the signed-in account (server wallet nwc_connect). */
  connectDemoWallet(name: string): Promise<ActionResult>;
}

/** The ecash (Cashu) wallet of the signed-in account, kept sealed in the worker (worker/ecash.ts). */
export interface EcashApi {
  watchEcash(tabId: string, cb: (s: EcashSnapshot) => void): Promise<number>;
  unwatchEcash(handle: number): Promise<void>;
  ecashAddMint(url: string): Promise<EcashResult<{ name: string }>>;
  ecashRemoveMint(url: string): Promise<EcashResult>;
  /** Redeems a token (swapped at its mint); a failure lands in the list of tokens with errors. */
  ecashReceive(token: string): Promise<EcashResult<{ amount: number; mint: string }>>;
  ecashRetry(failedId: string): Promise<EcashResult<{ amount: number; mint: string }>>;
  ecashDismissFailed(failedId: string): Promise<void>;
  ecashSend(mint: string, amount: number, memo?: string, preferences?: AmountPreference[]): Promise<EcashResult<{ token: string; amount: number }>>;
  ecashMintQuote(mint: string, amount: number): Promise<EcashResult<{ quote: string; request: string }>>;
  /** Pays the mint quote's invoice with the active NWC connection, then claims the ecash. */
  ecashMintWithNwc(mint: string, amount: number): Promise<EcashResult<{ amount: number }>>;
  ecashMintClaim(mint: string, quote: string, amount: number): Promise<EcashResult<{ paid: boolean; amount: number }>>;
  ecashMeltQuote(invoice: string, mint?: string): Promise<EcashResult<{ quote: MeltQuoteInfo }>>;
  ecashMelt(invoice: string, quote: MeltQuoteInfo): Promise<EcashResult<{ preimage: string; change: number }>>;
  ecashCheckPending(): Promise<EcashResult<{ claimed: number; dropped: number }>>;
  /** The seed phrase (made on first ask). */
  ecashSeed(): Promise<EcashResult<{ mnemonic: string }>>;
  ecashRestore(mnemonic: string, mint?: string): Promise<EcashResult<{ amount: number }>>;
  /** Amount, mint and memo of any token text (cashuB needs the worker's decoder); null when it is none. */
  ecashDecode(token: string): Promise<TokenSummary | null>;
  /** The demo mint of this cache server, when it runs one. */
  ecashDemoMint(): Promise<string | null>;
}

/** The reactions modal. */
export interface ReactionsApi {
  /** One page (20) of the reactions modal's tab, from offset. */
  loadReactions(eventId: string, tab: ReactionTab, offset: number): Promise<ReactionPage>;
  /** Counts the modal cannot take from the note's stats: likes among the reactions, quotes. */
  reactionCounts(eventId: string): Promise<ReactionCounts>;
}

/** Explore and user search. */
export interface DiscoverApi {
  /** explore_people: accounts the viewer does not follow, by their daily follower gain (offset paging). */
  explorePeople(page?: { limit?: number; offset?: number }, userPubkey?: string): Promise<ExplorePage<ExplorePerson>>;
  /** explore_zaps: the day's biggest zaps with sender, receiver and the zapped note. */
  exploreZaps(page?: { limit?: number; offset?: number }, userPubkey?: string): Promise<ExplorePage<ExploreZap>>;
  /** explore_topics: the day's hashtags with their counts, biggest first. */
  exploreTopics(): Promise<ExploreTopic[]>;
  /** user_search {query, limit}: profiles by name, most followed first; an npub or nprofile finds that user. */
  searchUsers(query: string, limit?: number): Promise<Profile[]>;
}

/** The worker's log, for the devtools page. */
export interface LogsApi {
  /** The worker's recent log (socket, relay and publish events, at most 200), now and after every entry. */
  watchLogs(tabId: string, cb: (entries: LogEntry[]) => void): Promise<number>;
  unwatchLogs(handle: number): Promise<void>;
}

/**
 * The Comlink API of the worker, one interface per service, composed into StruccApi. Every method is
 * required: the worker implements all of them, and Comlink's Remote type cannot call an optional one.
 * Callbacks must be wrapped in Comlink.proxy by the caller. Subscriptions return a numeric handle to
 * pass back to the matching close call.
 * tests/unit/worker/portSession.test.ts pins its method names.
 */
export interface StruccApi
  extends TabApi,
    CacheApi,
    FeedsApi,
    NetworkApi,
    AccountApi,
    SettingsApi,
    PushApi,
    MembershipApi,
    NotificationsApi,
    DmsApi,
    ProfilesApi,
    ThreadsApi,
    WalletApi,
    EcashApi,
    ReactionsApi,
    DiscoverApi,
    LogsApi {}

export type LogLevel = 'info' | 'warn' | 'error';

/** One line of the worker's log, for the devtools page. */
export interface LogEntry {
  /** ms since the epoch. */
  at: number;
  level: LogLevel;
  /** 'socket', 'relay', 'publish'... */
  source: string;
  /** The line in English, for copying into a bug report. */
  message: string;
  /** The same line for the screen: a locale key under network's log.* and its values. */
  key?: LogKey;
  params?: Record<string, string | number>;
}

export type LogKey = 'socketLost' | 'socketState' | 'cacheServerSet' | 'relayAdded' | 'relayChanged' | 'relayRemoved' | 'publish' | 'dmDecryptFailed' | 'dmUnwrapFailed';

/** One log line as the worker makes it. */
export interface LogLine {
  level: LogLevel;
  message: string;
  key: LogKey;
  params: Record<string, string | number>;
}
