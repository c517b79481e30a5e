/** The home feed list (get_home_feeds, kind 10000153) and the built-in list used when it fails. */
import type { CacheReply, FeedDefinition } from './types.ts';
import { CacheKind } from './kinds.ts';

/** Shown when the cache server has no list or cannot be reached, so the home page is never empty. */
export const FALLBACK_HOME_FEEDS: readonly FeedDefinition[] = [
  {
    name: 'Legújabb bejegyzések',
    description: 'Minden friss bejegyzés a hálózatról',
    spec: JSON.stringify({ id: 'all-notes', kind: 'notes' }),
    enabled: true,
  },
  {
    name: 'Felkapott',
    description: 'Az elmúlt 24 óra legnépszerűbb bejegyzései',
    spec: JSON.stringify({ id: 'global-trending', kind: 'notes', hours: 24 }),
    enabled: true,
  },
  {
    name: 'Legtöbbet zappolt',
    description: 'Az elmúlt 4 óra legtöbbet zappolt bejegyzései',
    spec: JSON.stringify({ id: 'most-zapped', kind: 'notes', hours: 4 }),
    enabled: true,
  },
];

function toDefinition(v: unknown): FeedDefinition | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const e = v as Record<string, unknown>;
  // Specs arrive as JSON strings, occasionally as objects; either way they go back verbatim.
  const spec = typeof e.spec === 'string' ? e.spec : typeof e.spec === 'object' && e.spec !== null ? JSON.stringify(e.spec) : undefined;
  if (typeof e.name !== 'string' || !spec) return undefined;
  const def: FeedDefinition = {
    name: e.name,
    description: typeof e.description === 'string' ? e.description : '',
    spec,
    enabled: e.enabled !== false,
  };
  if (typeof e.feedkind === 'string') def.feedkind = e.feedkind;
  return def;
}

/** The feed list of a get_home_feeds reply; undefined when the reply holds none. */
export function parseFeedList(reply: CacheReply): FeedDefinition[] | undefined {
  if (reply.notice !== undefined) return undefined;
  const obj = reply.events.find((e) => e.kind === CacheKind.HOME_FEEDS) ?? reply.events.find((e) => typeof e.content === 'string');
  if (!obj || typeof obj.content !== 'string') return undefined;
  let list: unknown;
  try {
    list = JSON.parse(obj.content);
  } catch {
    return undefined;
  }
  if (!Array.isArray(list)) return undefined;
  const feeds = list.map(toDefinition).filter((f): f is FeedDefinition => f !== undefined);
  return feeds.length > 0 ? feeds : undefined;
}
