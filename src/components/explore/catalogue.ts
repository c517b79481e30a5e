/**
 * The feed catalogue behind /explore/feed/{id}: the advanced feeds (get_advanced_feeds), the
 * featured DVM feeds (get_featured_dvm_feeds) and the home feeds, each with a stable URL id.
 */
import type { CacheObject, FeedDefinition, NostrEvent } from '../../../core/types';
import type { Api } from '../../worker-client';
import { CacheKind } from '../../../core/kinds';

const DVM_KIND = 31990;

export interface CatalogueFeed {
  id: string;
  name: string;
  description: string;
  spec: string;
  source: 'advanced' | 'dvm' | 'home';
  /** DVM feeds: the announcing service's pubkey, its own picture and the announcement id (for its stats). */
  pubkey?: string;
  picture?: string;
  eventId?: string;
}

/** mega_feed_directive ids of S §3.1 that name a feed by themselves, so /explore/feed/{id} opens them too. */
export const MEGA_FEED_IDS = [
  'latest',
  'global-trending',
  'most-zapped',
  'all-notes',
  'video-reels',
  'wide-net-notes',
  'strange-but-popular',
  'engaging-discussions',
  'only-tweets',
  'bookmarked-by-follows',
  'explore-media',
  'hall-of-fame-notes',
] as const;

export function megaFeedSpec(id: string): string | undefined {
  return (MEGA_FEED_IDS as readonly string[]).includes(id) ? JSON.stringify({ id, kind: 'notes' }) : undefined;
}

/** URL ids from names: lower case, accents dropped, words joined by hyphens ("Képek" -> "kepek"). */
export function slugOf(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function parseAdvanced(objects: CacheObject[]): CatalogueFeed[] {
  const obj = objects.find((o) => o.kind === CacheKind.ADVANCED_FEEDS);
  if (!obj?.content) return [];
  let list: unknown;
  try {
    list = JSON.parse(obj.content);
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  const out: CatalogueFeed[] = [];
  for (const v of list) {
    const e = (v ?? {}) as Record<string, unknown>;
    const raw = e.specification ?? e.spec;
    const spec = typeof raw === 'string' ? raw : raw && typeof raw === 'object' ? JSON.stringify(raw) : '';
    if (typeof e.name !== 'string' || !spec) continue;
    out.push({ id: slugOf(e.name), name: e.name, description: typeof e.description === 'string' ? e.description : '', spec, source: 'advanced' });
  }
  return out;
}

export function parseDvms(objects: CacheObject[], kind: 'notes' | 'reads' = 'notes'): CatalogueFeed[] {
  const out: CatalogueFeed[] = [];
  for (const o of objects) {
    if (o.kind !== DVM_KIND) continue;
    const e = o as unknown as NostrEvent;
    const d = e.tags.find((t) => t[0] === 'd')?.[1];
    if (!d) continue;
    let meta: Record<string, unknown> = {};
    try {
      meta = JSON.parse(e.content) as Record<string, unknown>;
    } catch {
      // A DVM without readable metadata still runs; its identifier names it.
    }
    const name = typeof meta.name === 'string' && meta.name ? meta.name : d;
    const spec = typeof meta.primal_spec === 'string' ? meta.primal_spec : JSON.stringify({ dvm_id: d, dvm_pubkey: e.pubkey, kind });
    const feed: CatalogueFeed = { id: slugOf(d) || d, name, description: typeof meta.about === 'string' ? meta.about : '', spec, source: 'dvm', pubkey: e.pubkey, eventId: e.id };
    const picture = typeof meta.picture === 'string' ? meta.picture : typeof meta.image === 'string' ? meta.image : '';
    if (picture) feed.picture = picture;
    out.push(feed);
  }
  return out;
}

export function fromHome(feeds: FeedDefinition[]): CatalogueFeed[] {
  return feeds.map((f) => {
    let id = slugOf(f.name);
    try {
      const spec = JSON.parse(f.spec) as { id?: unknown };
      if (typeof spec.id === 'string' && spec.id) id = spec.id;
    } catch {
      // Kept by name.
    }
    return { id, name: f.name, description: f.description, spec: f.spec, source: 'home' as const };
  });
}

/** Every catalogue feed, first id wins; a source that fails leaves the others standing. */
export async function loadCatalogue(api: Api, viewer: string | undefined): Promise<CatalogueFeed[]> {
  const [advanced, dvms, home] = await Promise.all([
    api.request('get_advanced_feeds').then((r) => parseAdvanced(r.events), () => []),
    api.request('get_featured_dvm_feeds', viewer ? { kind: 'notes', user_pubkey: viewer } : { kind: 'notes' }).then((r) => parseDvms(r.events), () => []),
    api.getHomeFeeds().then(fromHome, () => []),
  ]);
  const seen = new Set<string>();
  return [...advanced, ...dvms, ...home].filter((f) => f.id && !seen.has(f.id) && (seen.add(f.id), true));
}
