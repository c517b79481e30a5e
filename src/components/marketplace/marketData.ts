/**
 * What the marketplace offers for a list, from the same catalogue code as /explore: the server's
 * own feeds (the default list and the advanced feeds) and the featured DVM feeds with their authors.
 */
import type { CacheObject, FeedList, NostrEvent, Profile } from '../../../core/types';
import { parseFeedList } from '../../../core/feedList';
import { parseProfile } from '../../../core/profile';
import type { Api } from '../../worker-client';
import { fromHome, parseAdvanced, parseDvms, type CatalogueFeed } from '../explore/catalogue';
import { canonicalSpec } from '../feedSettings/feedModel';
import { CacheKind } from '../../../core/kinds';

export interface MarketFeed extends CatalogueFeed {
  author?: Profile;
  likes?: number;
}

export interface MarketCatalogue {
  strucc: MarketFeed[];
  dvm: MarketFeed[];
}

/** Whether a spec lists long-form articles, so it belongs with the reads feeds. */
export function isReadsSpec(spec: string): boolean {
  try {
    const parsed = JSON.parse(spec) as Record<string, unknown>;
    if (parsed.kind === 'reads') return true;
    return typeof parsed.query === 'string' && /\bkind:30023\b/.test(parsed.query);
  } catch {
    return false;
  }
}

/** First occurrence of each spec wins (the default list comes first). */
export function uniqueBySpec<T extends { spec: string }>(feeds: T[]): T[] {
  const seen = new Set<string>();
  return feeds.filter((f) => {
    const key = canonicalSpec(f.spec);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** DVM feeds with their authors' profiles and like counts from the same reply. */
export function dvmFeeds(objects: CacheObject[], kind: 'notes' | 'reads'): MarketFeed[] {
  const profiles = new Map<string, Profile>();
  const likes = new Map<string, number>();
  for (const o of objects) {
    if (o.kind === 0 && typeof o.pubkey === 'string' && typeof o.content === 'string') {
      profiles.set(o.pubkey, parseProfile(o as unknown as NostrEvent));
    } else if (o.kind === CacheKind.NOTE_STATS && typeof o.content === 'string') {
      try {
        const s = JSON.parse(o.content) as { event_id?: unknown; likes?: unknown };
        if (typeof s.event_id === 'string' && typeof s.likes === 'number') likes.set(s.event_id, s.likes);
      } catch {
        // Stats are decoration; the feed is listed without them.
      }
    }
  }
  return parseDvms(objects, kind).map((f) => {
    const out: MarketFeed = { ...f };
    const author = f.pubkey ? profiles.get(f.pubkey) : undefined;
    if (author) out.author = author;
    const count = f.eventId ? likes.get(f.eventId) : undefined;
    if (count !== undefined) out.likes = count;
    return out;
  });
}

const eventsOf = (reply: { events: CacheObject[]; notice?: string }) => (reply.notice === undefined ? reply.events : []);

/** Every source is asked at once; one that fails leaves the others standing, all failing is an error. */
export async function loadMarket(api: Api, list: FeedList, viewer: string | undefined): Promise<MarketCatalogue> {
  const kind = list === 'home' ? 'notes' : 'reads';
  const [defaults, advanced, dvms] = await Promise.allSettled([
    list === 'home' ? api.getHomeFeeds().then(fromHome) : api.request('get_reads_feeds').then((r) => fromHome(parseFeedList(r) ?? [])),
    api.request('get_advanced_feeds').then((r) => parseAdvanced(eventsOf(r))),
    api.request('get_featured_dvm_feeds', viewer ? { kind, user_pubkey: viewer } : { kind }).then((r) => dvmFeeds(eventsOf(r), kind)),
  ]);
  if (defaults.status === 'rejected' && advanced.status === 'rejected' && dvms.status === 'rejected') throw defaults.reason;
  const value = <T,>(r: PromiseSettledResult<T[]>): T[] => (r.status === 'fulfilled' ? r.value : []);
  const fitting = value(advanced).filter((f) => isReadsSpec(f.spec) === (list === 'reads'));
  return { strucc: uniqueBySpec([...value(defaults), ...fitting]), dvm: uniqueBySpec(value(dvms)) };
}
