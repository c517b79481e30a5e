/**
 * NIP-65 on login: the signed-in user's kind-10002 relay list becomes the relay pool, so a new
 * worker (a reload, a new browser session) publishes to the user's own write relays. Strucc's own
 * relay (the cache server's, first of get_default_relays) is added unless the account turned
 * usePrimalRelay off — on a network without internet it is the relay everyone reaches — and a
 * user with no list gets the server's default relays. A pool the person already changed in this
 * worker is left alone, even one they emptied while the list was on its way: their edit is newer
 * than the stored list.
 */
import type { AccountSnapshot, CacheReply, NostrEvent, RelayInfo } from '../core/types.ts';
import { CacheKind } from '../core/kinds.ts';

export interface RelayListLoaderDeps {
  request(command: string, payload?: Record<string, unknown>): Promise<CacheReply>;
  relays(): RelayInfo[];
  /** True once a tab added, removed or replaced relays in this worker. */
  poolEdited(): boolean;
  setRelays(event: Pick<NostrEvent, 'tags'>): void;
}

/** get_default_relays' URLs; the first is our own relay. */
export function defaultRelays(reply: CacheReply): string[] {
  const obj = reply.events.find((e) => e.kind === CacheKind.DEFAULT_RELAYS);
  try {
    const urls: unknown = JSON.parse(String(obj?.content ?? '[]'));
    return Array.isArray(urls) ? urls.filter((u): u is string => typeof u === 'string') : [];
  } catch {
    return [];
  }
}

function newestList(reply: CacheReply, pubkey: string): NostrEvent | undefined {
  return reply.events
    .filter((e): e is typeof e & NostrEvent => e.kind === 10002 && e.pubkey === pubkey && Array.isArray(e.tags))
    .sort((a, b) => b.created_at - a.created_at)[0];
}

/** The pool's r tags: the user's list plus our relay, or the defaults when the user has none. */
export function poolTags(list: NostrEvent | undefined, defaults: string[], useOwnRelay: boolean): string[][] {
  const tags = (list?.tags ?? []).filter((t) => t[0] === 'r' && typeof t[1] === 'string');
  if (tags.length === 0) return defaults.map((url) => ['r', url]);
  const own = defaults[0];
  if (useOwnRelay && own && !tags.some((t) => t[1] === own)) tags.push(['r', own]);
  return tags;
}

/** Returns the account watcher; it loads each pubkey's list once per worker. */
export function relayListLoader(deps: RelayListLoaderDeps): (s: AccountSnapshot) => void {
  const loaded = new Set<string>();
  return (s) => {
    const pubkey = s.login.pubkey;
    if (!pubkey || (s.login.state !== 'signedIn' && s.login.state !== 'readOnly') || loaded.has(pubkey)) return;
    loaded.add(pubkey);
    const useOwnRelay = s.account?.usePrimalRelay !== false;
    void Promise.all([deps.request('replaceable_event', { pubkey, kind: 10002 }), deps.request('get_default_relays')])
      .then(([listReply, defaultsReply]) => {
        if (deps.relays().length > 0 || deps.poolEdited()) return;
        const tags = poolTags(newestList(listReply, pubkey), defaultRelays(defaultsReply), useOwnRelay);
        if (tags.length) deps.setRelays({ tags });
      })
      // Without the cache server the pool stays as it is; the next login tries again.
      .catch(() => loaded.delete(pubkey));
  };
}
