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
  relayHint?: string;
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
}
