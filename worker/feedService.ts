/**
 * The feed part of the tabs' API: the home feed list and the live feeds a tab opens, pages and switches.
 */
import type { CacheReply, FeedDefinition, FeedNote, FeedSnapshot, FeedsApi } from '../core/types.ts';
import type { FeedRegistry } from './feedRegistry.ts';
import type { FeedCache } from './feedCache.ts';
import { FALLBACK_HOME_FEEDS, parseFeedList } from '../core/feedList.ts';

export interface FeedApiDeps {
  feeds: FeedRegistry;
  request: (command: string, payload?: Record<string, unknown>) => Promise<CacheReply>;
  feedCache: FeedCache | undefined;
  /** The guest account whose home feed list a visitor sees. */
  guest: () => string | undefined;
  touch: (tabId: string) => void;
  releaser: (cb: object) => () => void;
}

export function createFeedApi({ feeds, request, feedCache, guest, touch, releaser }: FeedApiDeps): FeedsApi {
  return {
    async getHomeFeeds(): Promise<FeedDefinition[]> {
      // The list is the same for everyone; one cached copy serves every viewer.
      const who = guest();
      const fresh = request('get_home_feeds').then((reply) => {
        const list = parseFeedList(reply);
        if (list && feedCache) void feedCache.saveHomeFeeds(who, list);
        return list;
      });
      // Whichever comes first answers: the list kept from the last visit (a new worker's socket is not
      // even open yet) or the network's, which on a first visit often beats IndexedDB's open.
      // The network's list is kept for the next visit either way.
      const kept = feedCache ? feedCache.loadHomeFeeds(who).catch(() => undefined) : Promise.resolve(undefined);
      const fallback = () => FALLBACK_HOME_FEEDS.map((f) => ({ ...f }));
      return new Promise<FeedDefinition[]>((resolve) => {
        void kept.then((list) => list && resolve(list));
        void fresh.then(async (list) => resolve(list ?? (await kept) ?? fallback()));
      });
    },

    async openFeed(tabId: string, spec: string, cb: (s: FeedSnapshot) => void, painted?: FeedNote[]) {
      touch(tabId);
      return feeds.open(tabId, spec, cb, releaser(cb), painted);
    },

    async loadMore(handle) {
      feeds.loadMore(handle);
    },

    async showPending(handle) {
      feeds.showPending(handle);
    },

    async closeFeed(handle) {
      feeds.close(handle);
    },

    async selectFeed(handle, spec) {
      feeds.select(handle, spec);
    },

    async retryFeed(handle) {
      feeds.retry(handle);
    },
  };
}
