import type { NostrEvent } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { followersIndexer } from './index-followers.ts';
import { hashtagsIndexer } from './index-hashtags.ts';
import { readsIndexer } from './index-reads.ts';
import { searchIndexer } from './index-search.ts';
import { mediaIndexer } from './index-media.ts';
import { dmIndexer } from './index-dms.ts';
import { notificationIndexer } from './index-notifications.ts';
import { moderationIndexer } from '../moderation/hidden.ts';

/**
 * Derived data that features keep beside the core tables (search index, notifications,
 * direct-message counters, hashtags, …). The importer runs every indexer for each newly
 * stored event inside the batch transaction, after the core tables are updated, so an
 * indexer may read posts, event_stats, follows and the replaceable pointers.
 * `onDelete` runs for each event a kind-5 deletion removed, to take back what `onEvent` added.
 */
export interface Indexer {
  name: string;
  onEvent(tx: Queryable, event: NostrEvent, now: number): Promise<void>;
  onDelete?(tx: Queryable, deletedId: string, now: number): Promise<void>;
  /**
   * Before a pipelined group's first event (PostgreSQL): reads what the indexer will most likely need
   * for the whole group at once. `stored`: stored events the group's actions name, and the posts they quote.
   */
  beforeGroup?(tx: Queryable, events: readonly NostrEvent[], stored: readonly NostrEvent[]): Promise<void>;
}

/** Each feature appends its indexer here. */
export const INDEXERS: Indexer[] = [moderationIndexer, mediaIndexer, notificationIndexer, dmIndexer, hashtagsIndexer, followersIndexer, readsIndexer, searchIndexer];
