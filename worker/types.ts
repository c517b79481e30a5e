/**
 * What tabs and the shared worker say to each other. The UI imports types only
 * from here; everything it renders arrives as one of these plain, cloneable objects.
 */

export interface NostrEvent {
  id: string;
  pubkey: string;
  created_at: number;
  kind: number;
  tags: string[][];
  content: string;
  sig: string;
}

/** A cache-server synthetic object ({kind >= 10000000, content: "<json>"}) or a plain event. */
export interface CacheObject {
  kind: number;
  content?: string;
  [key: string]: unknown;
}

export interface CacheReply {
  events: CacheObject[];
  /** The NOTICE text, when the server answered the request with one. */
  notice?: string;
}

export interface Profile {
  pubkey: string;
  npub: string;
  name: string;
  displayName: string;
  about: string;
  picture: string;
  banner: string;
  nip05: string;
  lud16: string;
  lud06: string;
  website: string;
  location: string;
  created_at: number;
  /** Follower count from USER_SCORES, when the server sent one. */
  followers?: number;
  /** The author's Blossom servers (kind 10063), where a picture that fails to load is looked for. */
  mediaServers?: string[];
}

export interface NoteStats {
  likes: number;
  replies: number;
  mentions: number;
  reposts: number;
  zaps: number;
  satszapped: number;
  score: number;
  score24h: number;
}

export interface NoteActions {
  liked: boolean;
  replied: boolean;
  reposted: boolean;
  zapped: boolean;
}

export interface TopZap {
  id: string;
  amount: number;
  pubkey: string;
  message: string;
  eventId: string;
}

/** One card of a feed: a note, with what the card needs to draw it. */
export interface FeedNote {
  /** The feed element id: the note's id, or the repost's id when the item is a repost. */
  key: string;
  event: NostrEvent;
  author: Profile;
  stats: NoteStats;
  actions?: NoteActions;
  topZaps: TopZap[];
  /** Set when the feed item is a kind-6 repost of `event`. */
  repostedBy?: Profile;
  repostedAt?: number;
  /** Parent of a reply, by the spec's reply rule (e/a tags marked reply or root). */
  replyTo?: { id: string; pubkey?: string; author?: Profile };
  /** Events and profiles the content refers to (nostr: mentions, quotes). */
  referencedEvents: Record<string, NostrEvent>;
  profiles: Record<string, Profile>;
  /** Profiles of the top zaps' senders. */
  zapProfiles?: Record<string, Profile>;
  relayHint?: string;
  /** Word count of a long-form article (10000144), when the server sent one. */
  words?: number;
}

export type FeedStatus = 'idle' | 'loading' | 'ready' | 'loadingMore' | 'error';

export interface FeedSnapshot {
  spec: string;
  status: FeedStatus;
  notes: FeedNote[];
  /** Newer notes found by polling, waiting behind the new-notes pill (capped at 100). */
  pendingCount: number;
  /** Avatars of the first few pending authors, for the pill. */
  pendingAuthors: Profile[];
  hasMore: boolean;
  error?: string;
  /** The notes are the page cached from an earlier visit; the network's answer replaces them. */
  fromCache?: boolean;
}

export interface FeedDefinition {
  name: string;
  description: string;
  /** JSON string of the mega_feed_directive spec. */
  spec: string;
  enabled: boolean;
  feedkind?: string;
}

export type SocketState = 'idle' | 'connecting' | 'handshaking' | 'connected' | 'waiting' | 'resetting' | 'closed';

export interface SocketSnapshot {
  state: SocketState;
  connected: boolean;
  shouldReconnect: boolean;
  url: string;
}

/** Settings a tab reads from localStorage and hands to the worker (workers have no localStorage). */
export interface ClientConfig {
  /** ws(s) URL of the cache server's /v1 endpoint. */
  cacheServer: string;
  /** http(s) origin serving /media-cache and /.well-known/nostr.json. */
  mediaServer: string;
  noBinary: boolean;
  devMode: boolean;
  /** Hex pubkey of the account a guest's feeds are personalised for; defaults to worker/config.ts DEFAULT_GUEST_PUBKEY. */
  guestPubkey?: string;
  /** The tab holds the Web Lock tabLockName(tabId) until it goes away (worker/config.ts). */
  holdsTabLock?: boolean;
  /**
   * Shorter sleep and wake timings, honoured only with devMode on (localStorage activityTimings),
   * so tests and developers can watch sleep and wake without waiting 5 minutes.
   */
  activityTimings?: ActivityTimings;
}

export interface ActivityTimings {
  /** Silence in every tab before the worker sleeps (spec: 5 minutes). */
  sleepMs: number;
  /** Time spent waking before woke (spec: 36 s). */
  wakeMs: number;
}

/** A NIP-01 filter as sent to relays. */
export interface RelayFilter {
  ids?: string[];
  authors?: string[];
  kinds?: number[];
  since?: number;
  until?: number;
  limit?: number;
  [tag: `#${string}`]: string[] | undefined;
}

export type RelayState = 'idle' | 'connecting' | 'connected' | 'waiting' | 'failed' | 'suspended';

/** One relay of the pool as the UI shows it. */
export interface RelayInfo {
  url: string;
  state: RelayState;
  read: boolean;
  write: boolean;
  /** Reconnect attempts made since the last good connection. */
  attempts: number;
  /** 'Reached atempt limit' once the relay gave up. */
  error?: string;
}

export type AddRelayResult = { ok: true; url: string } | { ok: false; error: string };

/** An event to publish: already signed, or a template the worker's signer signs. */
export interface UnsignedEvent {
  kind: number;
  tags: string[][];
  content: string;
  created_at: number;
  pubkey?: string;
}

/**
 * How a publish ended, for the §8 toasts: published ('Bejegyzés sikeresen közzétéve'),
 * no-confirmation (no relay confirmed within 8 seconds), failed (publish fail),
 * no-relays (no relays connected, try again shortly), not-signed (signing failed or no signer).
 */
export type PublishOutcome = 'published' | 'no-confirmation' | 'failed' | 'no-relays' | 'not-signed';

export interface PublishResult {
  success: boolean;
  /** Why each relay did not accept: 'timeout', 'failed', 'Failed to publish note', 'No publish confirmation' or the relay's OK message. Key '*' for reasons not tied to one relay. */
  reasons: Record<string, string>;
  /** The signed event, when signing got that far. */
  event?: NostrEvent;
  outcome: PublishOutcome;
}

export type ActivityState = 'woke' | 'waking' | 'sleeping';

export interface ActivitySnapshot {
  state: ActivityState;
  proxy: boolean;
}

/**
 * The Comlink API of the worker. Callbacks must be wrapped in Comlink.proxy by the caller.
 * Subscriptions return a numeric handle to pass back to the matching close call.
 */
export interface StruccApi {
  /** First call of every tab. The first tab's config wins; later tabs share the same socket. */
  hello(tabId: string, config: ClientConfig): Promise<{ version: string }>;
  /** A tab is going away: close everything it opened. */
  goodbye(tabId: string): Promise<void>;
  /** Tabs call this every 10 s; a tab silent for 30 s counts as closed. */
  heartbeat(tabId: string): Promise<void>;

  watchSocket(tabId: string, cb: (s: SocketSnapshot) => void): Promise<number>;
  unwatch(handle: number): Promise<void>;

  /** One cache command, answered when its EOSE arrives. */
  request(command: string, payload?: Record<string, unknown>): Promise<CacheReply>;

  getHomeFeeds(): Promise<FeedDefinition[]>;
  openFeed(tabId: string, spec: string, cb: (s: FeedSnapshot) => void): Promise<number>;
  loadMore(handle: number): Promise<void>;
  /** Moves the pending newer notes to the top of the feed. */
  showPending(handle: number): Promise<void>;
  closeFeed(handle: number): Promise<void>;
  /** Switches an open feed to another spec: clears its notes and loads the first page. */
  selectFeed?(handle: number, spec: string): Promise<void>;
  /** Loads the first page again after the feed's status became 'error'. */
  retryFeed?(handle: number): Promise<void>;
  /** Disconnects the cache socket and reconnects after 1 s (spec §4 "A reset"). */
  resetSocket?(): Promise<void>;
  /**
   * A long-lived cache subscription (net_stats, notification_counts, directmsg_count...): every
   * pushed object goes to cb until unsubscribe (which sends CLOSE) or the tab goes away.
   */
  subscribe?(tabId: string, command: string, payload: Record<string, unknown> | undefined, cb: (e: CacheObject) => void): Promise<number>;
  unsubscribe?(handle: number): Promise<void>;

  /** True when name@domain resolves to exactly this pubkey (cached). */
  verifyNip05(pubkey: string, nip05: string): Promise<boolean>;

  /** Adds a relay (read and write); refused with 'Érvénytelen URL' unless wss:// (ws:// for loopback hosts). */
  addRelay?(url: string, flags?: { read?: boolean; write?: boolean }): Promise<AddRelayResult>;
  /** Cuts the relay's connection and forgets it. */
  removeRelay?(url: string): Promise<void>;
  /** Replaces the pool with the `r` tags of a kind-10002 event (markers read/write set the flags). */
  setRelays?(event: NostrEvent): Promise<RelayInfo[]>;
  /** The pool's snapshot now and after every change; unwatch with unwatchRelays. */
  watchRelays?(tabId: string, cb: (relays: RelayInfo[]) => void): Promise<number>;
  unwatchRelays?(handle: number): Promise<void>;
  /** A relay subscription across every read relay; re-sent with since after reconnects. */
  subscribeRelays?(tabId: string, filters: RelayFilter[], cb: (e: NostrEvent) => void): Promise<number>;
  unsubscribeRelays?(handle: number): Promise<void>;
  /** Signs (when unsigned) and publishes to the write relays, or through the cache server when proxying. */
  publish?(event: NostrEvent | UnsignedEvent): Promise<PublishResult>;
  /** 'Proxy through the cache server': on suspends every relay, off reconnects them. */
  setProxy?(on: boolean): Promise<void>;
  /** Mouse, scroll or key activity in a tab (throttled by the tab); wakes a sleeping worker. */
  reportActivity?(tabId: string): Promise<void>;
  watchActivity?(tabId: string, cb: (s: ActivitySnapshot) => void): Promise<number>;
  unwatchActivity?(handle: number): Promise<void>;

  /** Lends this tab's NIP-07 extension (a Comlink.proxy of SignerBridge) to the worker's signer. */
  registerSigner?(tabId: string, bridge: SignerBridge): Promise<void>;
  /** Login, account lists and settings, now and after every change in any tab. */
  watchAccount?(tabId: string, cb: (s: AccountSnapshot) => void): Promise<number>;
  unwatchAccount?(handle: number): Promise<void>;
  /** Extension (4 retries at 250 ms, then the stored key), nsec (optionally PIN-protected) or read-only npub. */
  login?(request: LoginRequest): Promise<ActionResult>;
  /** Opens the PIN-encrypted key; a wrong PIN gives code 'bad-cipher'. */
  unlockPin?(pin: string): Promise<ActionResult>;
  cancelPin?(): Promise<void>;
  /** A locked (PIN-protected, not yet opened) key: shows the PIN prompt again in every tab. */
  askPin?(): Promise<void>;
  /** Forgets the key and the stored login in every tab. */
  logout?(): Promise<void>;
  /** The local key as an nsec, for the account page and the new-account wizard; null with an extension, read-only or no key. */
  revealSecret?(): Promise<string | null>;
  /** Follow, mute, like, bookmarks, lists, drafts, emoji history... answered when done. */
  accountAction?(action: AccountAction): Promise<ActionResult>;
  settingsAction?(action: SettingsAction): Promise<ActionResult>;
  /** Signs with the account's key or extension; rejects with a §8 code. */
  signEvent?(event: UnsignedEvent): Promise<NostrEvent>;

  /** The unread notification count (subscribed only while signed in and active); unwatch with unwatchNotificationCount. */
  watchNotificationCount?(tabId: string, cb: (s: NotificationCountSnapshot) => void): Promise<number>;
  unwatchNotificationCount?(handle: number): Promise<void>;
  /** Resets the count: set_notifications_seen with a signed event whose created_at is now. */
  markNotificationsSeen?(): Promise<ActionResult>;
  /** The notification list (100 newest, then 20 older a page) for the signed-in user. */
  openNotifications?(tabId: string, typeGroup: NotificationTypeGroup, cb: (s: NotificationsSnapshot) => void): Promise<number>;
  loadMoreNotifications?(handle: number): Promise<void>;
  selectNotificationGroup?(handle: number, typeGroup: NotificationTypeGroup): Promise<void>;
  closeNotifications?(handle: number): Promise<void>;
  /** Mobile releases and the download badge; unwatch with unwatchReleases. */
  watchReleases?(tabId: string, cb: (s: ReleasesSnapshot) => void): Promise<number>;
  unwatchReleases?(handle: number): Promise<void>;
  /** Stores the current releases' versions as acknowledged: the badge goes away. */
  acknowledgeRelease?(): Promise<void>;

  /** The unread direct-message total (directmsg_count); unwatch with unwatchDmCount. */
  watchDmCount?(tabId: string, cb: (count: number) => void): Promise<number>;
  unwatchDmCount?(handle: number): Promise<void>;
  /** The DM page: contacts of the remembered relation, and the remembered conversation selected. */
  openDms?(tabId: string, cb: (s: DmSnapshot) => void): Promise<number>;
  setDmRelation?(handle: number, relation: DmRelation): Promise<void>;
  loadMoreDmContacts?(handle: number): Promise<void>;
  /** Loads the conversation (20 a page) and sets the contact's unread count to zero. */
  selectDmContact?(handle: number, pubkey: string): Promise<void>;
  /** The next older page of the selected conversation. */
  loadMoreDms?(handle: number): Promise<void>;
  /** Encrypts (NIP-04), publishes a kind 4, imports it and refreshes the conversation. */
  sendDm?(handle: number, text: string): Promise<PublishResult>;
  markAllDmsRead?(): Promise<ActionResult>;
  closeDms?(handle: number): Promise<void>;

  /** A profile page; setProfileKey switches it to another user (resets profile, stats and sidebars). */
  openProfile?(tabId: string, pubkey: string, cb: (s: ProfileSnapshot) => void): Promise<number>;
  setProfileKey?(handle: number, pubkey: string): Promise<void>;
  loadProfileTab?(handle: number, tab: ProfileTab): Promise<void>;
  loadMoreProfileTab?(handle: number, tab: ProfileTab): Promise<void>;
  closeProfile?(handle: number): Promise<void>;

  /** A thread (/e/) or an article with its replies (/a/). */
  openThread?(tabId: string, target: ThreadTarget, cb: (s: ThreadSnapshot) => void): Promise<number>;
  reloadThread?(handle: number, target?: ThreadTarget): Promise<void>;
  closeThread?(handle: number): Promise<void>;

  /** One page (20) of the reactions modal's tab, from offset. */
  loadReactions?(eventId: string, tab: ReactionTab, offset: number): Promise<ReactionPage>;
  /** Counts the modal cannot take from the note's stats: likes among the reactions, quotes. */
  reactionCounts?(eventId: string): Promise<ReactionCounts>;

  /** explore_people: accounts the viewer does not follow, by their daily follower gain (offset paging). */
  explorePeople?(page?: { limit?: number; offset?: number }, userPubkey?: string): Promise<ExplorePage<ExplorePerson>>;
  /** explore_zaps: the day's biggest zaps with sender, receiver and the zapped note. */
  exploreZaps?(page?: { limit?: number; offset?: number }, userPubkey?: string): Promise<ExplorePage<ExploreZap>>;
  /** explore_topics: the day's hashtags with their counts, biggest first. */
  exploreTopics?(): Promise<ExploreTopic[]>;
  /** user_search {query, limit}: profiles by name, most followed first; an npub or nprofile finds that user. */
  searchUsers?(query: string, limit?: number): Promise<Profile[]>;

  /** The worker's recent log (socket, relay and publish events, at most 200), now and after every entry. */
  watchLogs?(tabId: string, cb: (entries: LogEntry[]) => void): Promise<number>;
  unwatchLogs?(handle: number): Promise<void>;
  /** Moves the cache socket to another ws(s) server URL (refused with 'Érvénytelen URL' otherwise). */
  setCacheServer?(url: string): Promise<AddRelayResult>;
}

export type LogLevel = 'info' | 'warn' | 'error';

/** One line of the worker's log, for the devtools page. */
export interface LogEntry {
  /** ms since the epoch. */
  at: number;
  level: LogLevel;
  /** 'socket', 'relay', 'publish'... */
  source: string;
  message: string;
}

export interface ExplorePage<T> {
  items: T[];
  hasMore: boolean;
}

export interface ExplorePerson {
  profile: Profile;
  /** Followers gained over the last day. */
  increase: number;
  followers: number;
}

export interface ExploreZap {
  /** The zap receipt's id. */
  id: string;
  amount: number;
  message: string;
  created_at: number;
  sender: Profile;
  receiver: Profile;
  note?: FeedNote;
}

export interface ExploreTopic {
  tag: string;
  count: number;
}

export type ThemeName = 'sunrise' | 'sunset' | 'midnight' | 'ice';
export type MembershipTier = 'none' | 'premium' | 'premium-legend';

/** A subscribed mute (filter) list: whose list, and where it applies. */
export interface MuteListEntry {
  pubkey: string;
  relay?: string;
  petname?: string;
  content: boolean;
  trending: boolean;
}

export interface RelayFlags {
  read: boolean;
  write: boolean;
}

export interface EmojiUse {
  name: string;
  /** Custom (NIP-30) emoji image; absent for unicode emoji. */
  url?: string;
}

/** Spec §3 "Account state" and the account half of the "Per-user local record" (keyed by pubkey). */
export interface AccountRecord {
  pubkey: string;
  following: string[];
  /** created_at of the contact list the following comes from; only newer lists replace it. */
  followingSince: number;
  contactTags: string[][];
  contactContent: string;
  /** Every muted pubkey, public and private. */
  muted: string[];
  /** Public tags of the mute list (kind 10000). */
  mutedTags: string[][];
  /** The mute list's NIP-04-encrypted content, as published. */
  mutedPrivate: string;
  /** The decrypted private tags of the mute list, when they could be read (every kind, not only p). */
  mutedPrivateTags?: string[][];
  mutedSince: number;
  mutelists: MuteListEntry[];
  mutelistsSince: number;
  allowlist: string[];
  allowlistSince: number;
  /** Tags of the bookmarks list (kind 10003). */
  bookmarks: string[][];
  bookmarksSince: number;
  likes: string[];
  /** Most recent first, at most 40. */
  emojiHistory: EmojiUse[];
  relaySettings: Record<string, RelayFlags>;
  /** created_at of the last relay list (kind 10002) published here; the next one is kept after it. */
  relaysSince: number;
  recommendedUsers: string[];
  /** Note drafts keyed by the parent note id ('root' for a new note). */
  noteDraft: Record<string, string>;
  noteDraftUserRefs: Record<string, Record<string, Profile>>;
  uploadTime: Record<string, number>;
  selectedFeeds: { home?: string; reads?: string; bookmarks?: string };
  dmLastConversation?: string;
  dmLastRelation: 'follows' | 'other' | 'any';
  membershipTier: MembershipTier;
  /** When the premium reminder was last cleared (ms). */
  premiumReminder: number;
  dvms: string[];
  usePrimalRelay: boolean;
  /** [name, connection uri] pairs. */
  nwcList: string[][];
  /** The active [name, uri] pair, or empty. */
  nwcActive: string[];
  userProfile?: Profile;
  homeSidebarSelection?: string;
}

/** Local fields a tab may set directly. */
export type AccountLocalPatch = Partial<
  Pick<
    AccountRecord,
    | 'recommendedUsers'
    | 'uploadTime'
    | 'selectedFeeds'
    | 'dmLastConversation'
    | 'dmLastRelation'
    | 'dvms'
    | 'usePrimalRelay'
    | 'nwcList'
    | 'nwcActive'
    | 'userProfile'
    | 'homeSidebarSelection'
  >
>;

/** Spec §3 "Server-saved settings record"; unknown keys from the server are kept as they came. */
export interface AppSettings {
  theme?: string;
  feeds?: unknown[];
  zapDefault?: { amount: number; message: string };
  zapConfig?: { emoji?: string; amount: number; message: string }[];
  defaultZapAmount?: number;
  zapOptions?: number[];
  notifications?: Record<string, boolean>;
  applyContentModeration?: boolean;
  contentModeration?: { name: string; scopes: string[] }[];
  proxyThroughPrimal?: boolean;
  animated?: boolean;
  [key: string]: unknown;
}

export type FeedList = 'home' | 'reads';

export interface SettingsSnapshot {
  state: 'idle' | 'loading' | 'ready';
  settings: AppSettings;
  homeFeeds: FeedDefinition[];
  readsFeeds: FeedDefinition[];
  /** user-nwc sub-settings, as stored. */
  nwc: unknown;
  theme: ThemeName;
  animated: boolean;
  /** Set after a failed load ('settings-offline') or save ('Failed to save settings'). */
  warning?: string;
}

export type LoginState =
  | 'booting'
  | 'detecting'
  | 'pinPrompt'
  | 'unlocking'
  | 'signedIn'
  | 'readOnly'
  | 'locked'
  | 'loggedOut'
  | 'busy';

export interface AccountSnapshot {
  login: {
    state: LoginState;
    pubkey?: string;
    npub: string;
    method?: 'extension' | 'local' | 'readonly';
    /** A PIN-encrypted secret is stored (the PIN prompt can open). */
    hasPinSecret: boolean;
    /** The last §8 code or §5 message of a login step. */
    error?: string;
  };
  /** Undefined while no pubkey is known. */
  account?: AccountRecord;
  showPremiumReminder: boolean;
  /** A follow change left fewer than 2 contacts: the repair dialog waits for repairFollows. */
  followRepair: boolean;
  settings: SettingsSnapshot;
}

export type LoginRequest =
  | { method: 'extension' }
  | { method: 'nsec'; nsec: string; pin?: string; pinConfirm?: string }
  | { method: 'npub'; npub: string };

export interface ActionResult {
  ok: boolean;
  /** A §8 code, 'ignored', 'no-pubkey', 'follow-repair-cancelled', 'publish-failed' or a §5 message. */
  code?: string;
  /** The §5 text to show, when the spec gives one (invalid nsec, PIN rules). */
  message?: string;
  reasons?: string[];
}

export type AccountAction =
  | { type: 'follow'; pubkey: string }
  | { type: 'unfollow'; pubkey: string }
  | { type: 'repairFollows'; confirm: boolean }
  | { type: 'mute'; pubkey: string; private?: boolean }
  | { type: 'unmute'; pubkey: string }
  /** A ['word', text], ['t', hashtag] or ['e', note id] tag of the mute list (kind 10000). */
  | { type: 'muteTag'; tag: string[] }
  | { type: 'unmuteTag'; tag: string[] }
  | { type: 'like'; note: { id: string; pubkey: string; kind: number; address?: string } }
  | { type: 'bookmark'; tag: string[] }
  | { type: 'unbookmark'; tag: string[] }
  | { type: 'subscribeMuteList'; pubkey: string; relay?: string; petname?: string }
  | { type: 'unsubscribeMuteList'; pubkey: string }
  | { type: 'setMuteListFlags'; pubkey: string; content: boolean; trending: boolean }
  | { type: 'allow'; pubkey: string }
  | { type: 'disallow'; pubkey: string }
  | { type: 'publishRelays'; relays: Record<string, RelayFlags> }
  | { type: 'addEmoji'; emoji: EmojiUse }
  | { type: 'setDraft'; parent?: string; text: string; userRefs?: Record<string, Profile> }
  | { type: 'clearDraft'; parent?: string }
  | { type: 'clearPremiumReminder' }
  | { type: 'setLocal'; patch: AccountLocalPatch };

export type SettingsAction =
  | { type: 'setTheme'; theme: ThemeName }
  | { type: 'setAnimated'; animated: boolean }
  | { type: 'addFeed'; list: FeedList; feed: FeedDefinition; top?: boolean }
  | { type: 'removeFeed'; list: FeedList; spec: string }
  | { type: 'renameFeed'; list: FeedList; spec: string; name: string }
  | { type: 'enableFeed'; list: FeedList; spec: string; enabled: boolean }
  | { type: 'moveFeed'; list: FeedList; from: number; to: number }
  | { type: 'restoreDefaultFeeds'; list: FeedList }
  | { type: 'restoreDefaultZaps' }
  | { type: 'updateSettings'; patch: AppSettings }
  | { type: 'reload' };

/**
 * A tab's NIP-07 extension, lent to the worker (which cannot see window.nostr). Every method
 * throws 'Nostr extension not found' when the tab has none.
 */
export interface SignerBridge {
  available(): Promise<boolean>;
  getPublicKey(): Promise<string>;
  signEvent(event: UnsignedEvent): Promise<NostrEvent>;
  nip04Encrypt(pubkey: string, plaintext: string): Promise<string>;
  nip04Decrypt(pubkey: string, ciphertext: string): Promise<string>;
  nip44Encrypt(pubkey: string, plaintext: string): Promise<string>;
  nip44Decrypt(pubkey: string, ciphertext: string): Promise<string>;
}

/** Spec §3 "User stats": the 10000105 USER_PROFILE of user_profile. */
export interface UserStats {
  followers_count: number;
  follows_count: number;
  note_count: number;
  reply_count: number;
  time_joined: number;
  total_zap_count: number;
  total_satszapped: number;
  relay_count: number;
  media_count: number;
  long_form_note_count: number;
}

export type NotificationTypeGroup = 'all' | 'zaps' | 'replies' | 'mentions' | 'reposts';

/** One 10000110 notification (protocol S §3.8), with its roles picked out for the UI. */
export interface NotificationItem {
  id: string;
  /** Spec §3 "Notification types": 1 new follower ... 8, 101-104, 201-204 (and the server's 3xx, 401, 501, 601). */
  type: number;
  created_at: number;
  /** The recipient. */
  pubkey: string;
  /** Who caused it (follower, who_liked_it, you_were_mentioned_by...). */
  actor?: string;
  /** The post it is about (your_post, post_you_were_mentioned_in, you_were_mentioned_in...). */
  post?: string;
  /** The post that did it, when there is one besides `post` (a reply, a quoting post, a highlight). */
  related?: string;
  satszapped?: number;
  reaction?: string;
  message?: string;
  /** Every argument as the server sent it. */
  args: Record<string, unknown>;
}

export interface NotificationsSnapshot {
  typeGroup: NotificationTypeGroup;
  status: FeedStatus;
  /** Newest first. */
  notifications: NotificationItem[];
  /** The referenced notes, by event id. */
  notes: Record<string, FeedNote>;
  users: Record<string, Profile>;
  hasMore: boolean;
  error?: string;
}

export interface NotificationCountSnapshot {
  /** Unread notifications: the sum of every type's count. */
  count: number;
  /** notification_counts is open right now (signed in, key known, user active). */
  subscribed: boolean;
}

export interface MobileRelease {
  version: string;
  /** Release date, unix seconds. */
  date: number;
}

export interface ReleasesSnapshot {
  ios?: MobileRelease;
  android?: MobileRelease;
  /** The versions the user acknowledged, per platform. */
  acknowledged: { ios?: string; android?: string };
  /** Spec §4: an iOS or Android release newer than the acknowledged one and already released. */
  badge: boolean;
}

export type DmRelation = 'any' | 'follows' | 'other';

export interface DmInfo {
  /** Unread messages from this contact. */
  cnt: number;
  latest_at: number;
  latest_event_id: string;
}

export interface DmContact {
  pubkey: string;
  user: Profile;
  dmInfo: DmInfo;
  /** The conversation's latest kind-4 event, still encrypted. */
  latest?: NostrEvent;
}

export interface DirectMessage {
  id: string;
  sender: string;
  /** Decrypted text. */
  content: string;
  created_at: number;
}

export interface DmSnapshot {
  relation: DmRelation;
  contactsStatus: FeedStatus;
  /** Most recent conversation first. */
  contacts: DmContact[];
  hasMoreContacts: boolean;
  /** Unread messages in total (directmsg_count). */
  unreadTotal: number;
  selected?: string;
  conversationStatus: FeedStatus;
  /** The selected conversation, oldest first. */
  messages: DirectMessage[];
  hasMoreMessages: boolean;
  sending: boolean;
  error?: string;
}

export type ProfileTab = 'notes' | 'replies' | 'reads' | 'media' | 'zaps' | 'follows' | 'followers' | 'relays';

/** Spec §4 Profile loading flags (plus the profile itself and the reads tab). */
export type ProfileLoadingFlag =
  | 'profile'
  | 'notes'
  | 'replies'
  | 'reads'
  | 'zaps'
  | 'gallery'
  | 'contacts'
  | 'followers'
  | 'relays'
  | 'sidebarNotes'
  | 'sidebarArticles';

export interface ProfileZap {
  id: string;
  amount: number;
  sender: string;
  message: string;
  created_at: number;
  /** The zapped note, when the zap was on one. */
  eventId?: string;
}

export interface ProfileHistoryEntry {
  pubkey: string;
  profile?: Profile;
  stats?: UserStats;
}

export interface ProfileSnapshot {
  pubkey?: string;
  profile?: Profile;
  stats?: UserStats;
  /** stats.time_joined, unix seconds. */
  joinDate?: number;
  /** The profile follows the viewer (is_user_following). */
  followsYou: boolean;
  loading: Record<ProfileLoadingFlag, boolean>;
  sidebarNotes: FeedNote[];
  sidebarArticles: FeedNote[];
  notes: FeedNote[];
  replies: FeedNote[];
  reads: FeedNote[];
  media: FeedNote[];
  zaps: ProfileZap[];
  follows: Profile[];
  followers: Profile[];
  relays: Record<string, RelayFlags>;
  hasMore: Record<'notes' | 'replies' | 'reads' | 'media' | 'zaps', boolean>;
  /** Spec §3 "Profile history": most recent first, at most 10. */
  history: ProfileHistoryEntry[];
  error?: string;
}

/** A thread page: a note (/e/) or an article (/a/). */
export type ThreadTarget = { type: 'note'; id: string } | { type: 'article'; pubkey: string; kind: number; identifier: string };

export type ThreadStatus = 'loading' | 'resolving' | 'ready' | 'notFound' | 'error';

export interface ThreadSnapshot {
  target: ThreadTarget;
  status: ThreadStatus;
  /** The parent chain, oldest first. */
  parents: FeedNote[];
  /** The focused note; absent while loading and when it was not found. */
  note?: FeedNote;
  replies: FeedNote[];
  error?: string;
}

export type ReactionTab = 'reactions' | 'likes' | 'zaps' | 'reposts' | 'quotes';

/** One row of the reactions modal: who reacted, with what (emoji, or sats and a message for a zap). */
export interface ReactionEntry {
  id: string;
  pubkey: string;
  profile: Profile;
  created_at: number;
  /** The reaction's content ('+', an emoji, :shortcode:) or the zap message. */
  content: string;
  emojiUrl?: string;
  amount?: number;
}

export interface ReactionPage {
  tab: ReactionTab;
  items: ReactionEntry[];
  /** The quoting notes (quotes tab). */
  notes: FeedNote[];
  nextOffset: number;
  hasMore: boolean;
  notice?: string;
}

export interface ReactionCounts {
  reactions: number;
  likes: number;
  quotes: number;
  /** False when the note has more reactions than were read to count them. */
  complete: boolean;
}
