/** Notifications, releases, direct messages, profiles, threads and reactions. */
import type { FeedNote, NostrEvent, Profile } from './events.ts';
import type { FeedStatus } from './feeds.ts';
import type { RelayFlags } from './account.ts';

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
  /** That event decrypted in the worker, for the list's preview (absent when it could not be). */
  preview?: string;
  /** The latest message is a NIP-17 private one (unwrapped in the worker; the server never saw the pair). */
  latestPrivate?: boolean;
  /** Who wrote the latest message, when it is a private one (`latest` is the NIP-04 event then). */
  latestSender?: string;
}

/** A message written on this page that the cache has not returned yet (machines/dms.ts DmOutgoing). */
export interface DmOutgoing {
  id: number;
  peer: string;
  text: string;
  created_at: number;
  status: 'pending' | 'sent' | 'failed';
  reason?: string;
  eventId?: string;
}

export interface DirectMessage {
  id: string;
  sender: string;
  /** Decrypted text. */
  content: string;
  created_at: number;
  /** A NIP-17 private message (gift-wrapped), not a NIP-04 one. */
  private?: boolean;
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
  /** Written here and not yet in `messages`: pending, sent, or failed with its reason. */
  outbox: DmOutgoing[];
  /** Messages of the open conversation were skipped because they could not be decrypted, and why. */
  decryptError?: string;
  /** How a message to the open conversation is sent: NIP-17 when the other side has inbox relays (kind 10050). */
  protocol?: 'nip17' | 'nip04';
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

/** What a profile page lists: its sidebar blocks and the rows of each tab. */
export interface ProfileLists {
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
}

export interface ProfileSnapshot extends ProfileLists {
  pubkey?: string;
  profile?: Profile;
  stats?: UserStats;
  /** stats.time_joined, unix seconds. */
  joinDate?: number;
  /** The profile follows the viewer (is_user_following). */
  followsYou: boolean;
  loading: Record<ProfileLoadingFlag, boolean>;
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
