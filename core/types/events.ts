/** Nostr events, cache objects and the note card as the worker hands them to tabs. */

/** A signed Nostr event (NIP-01), as nostr-tools types it. */
import type { NostrEvent } from 'nostr-tools/core';

export type { NostrEvent };

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
  /** Premium or legend membership and a legend's chosen looks (10000168/10000169 of the same reply). */
  membership?: ProfileMembership;
}

/** Legend styles of the spec; '' is a legend who chose none. */
export type LegendStyle = '' | 'GOLD' | 'AQUA' | 'SILVER' | 'PURPLE' | 'PURPLEHAZE' | 'TEAL' | 'BROWN' | 'BLUE' | 'SUNFIRE';

export interface ProfileMembership {
  tier: 'premium' | 'premium-legend';
  style: LegendStyle;
  /** The legend shows the custom badge next to the name. */
  badge: boolean;
  /** The legend's avatar glows in the style's colours. */
  glow: boolean;
  /** The year membership (or legend status) began, as the server's cohort_2 gives it. */
  since: string;
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
  /** Published from this browser a moment ago and not yet accepted by a relay (worker/feedView.ts). */
  local?: 'pending';
}
