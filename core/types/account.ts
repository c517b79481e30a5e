/** The account: its stored record, settings, login state and the actions a person takes. */
import type { NostrEvent, Profile } from './events.ts';
import type { FeedDefinition } from './feeds.ts';
import type { UnsignedEvent } from './network.ts';

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
  /** NIP-17 conversations: the created_at up to which each was read (the server cannot count them). */
  dmPrivateRead?: Record<string, number>;
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
    | 'dmPrivateRead'
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

/** The settings as saved: the app settings record and its sub-settings, plus the local look. */
export interface SettingsValues {
  settings: AppSettings;
  homeFeeds: FeedDefinition[];
  readsFeeds: FeedDefinition[];
  /** user-nwc sub-settings, as stored. */
  nwc: unknown;
  theme: ThemeName;
  animated: boolean;
}

export interface SettingsSnapshot extends SettingsValues {
  state: 'idle' | 'loading' | 'ready';
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
    method?: 'extension' | 'local' | 'readonly' | 'remote';
    /** The relays a remote signer (NIP-46) answers on, to say which signer is in use. */
    remoteRelays?: string[];
    /** A PIN-encrypted secret is stored (the PIN prompt can open). */
    hasPinSecret: boolean;
    /** Unlocked with a PIN shorter than new PINs may be (set before the 6-character rule): ask for a new one. */
    weakPin?: boolean;
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
  | { method: 'npub'; npub: string }
  | { method: 'bunker'; uri: string };

/** The kinds of news a Web Push subscription asks for (server/push/schema.ts). */
export type PushType = 'dm' | 'mention' | 'reply' | 'zap';

/** A browser's PushSubscription as toJSON() gives it. */
export interface PushSubscriptionInfo {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

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

/** The settings half of the per-user record (spec §3): theme, animation, feeds, server settings. */
export interface SettingsRecord {
  theme: ThemeName;
  animated: boolean;
  settings: AppSettings;
  homeFeeds: FeedDefinition[];
  readsFeeds: FeedDefinition[];
  nwc: unknown;
  /** Parts changed locally whose save to the server has not succeeded yet. */
  unsaved: ('settings' | 'home' | 'reads')[];
}
