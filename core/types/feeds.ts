/** Feeds: their snapshots and definitions, and the explore pages. */
import type { FeedNote, Profile } from './events.ts';

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
