/** Pure helpers of the network page: the relay flags to publish, and the own/suggested comparison. */
import type { CacheObject, RelayFlags, RelayInfo } from '../../../core/types';
import { CacheKind } from '../../../core/kinds';

/** The pool as the kind-10002 map, with one relay changed (or dropped when `change` is null). */
export function relayMap(relays: RelayInfo[], url?: string, change?: RelayFlags | null): Record<string, RelayFlags> {
  const out: Record<string, RelayFlags> = {};
  for (const r of relays) out[r.url] = { read: r.read, write: r.write };
  if (url !== undefined) {
    if (change === null) delete out[url];
    else if (change) out[url] = change;
  }
  return out;
}

/** Trailing slashes and case of the host do not make another relay. */
export function sameRelay(a: string, b: string): boolean {
  const norm = (u: string) => {
    try {
      const parsed = new URL(u.trim());
      return `${parsed.protocol}//${parsed.host.toLowerCase()}${parsed.pathname.replace(/\/+$/, '')}${parsed.search}`;
    } catch {
      return u.trim().replace(/\/+$/, '');
    }
  };
  return norm(a) === norm(b);
}

/** get_user_relays' 10000139 `r` tags as url → flags (marker read/write turns the other off). */
export function parseUserRelays(objects: CacheObject[]): Record<string, RelayFlags> | null {
  const obj = objects.find((o) => o.kind === CacheKind.USER_RELAYS);
  if (!obj || !Array.isArray(obj.tags)) return null;
  const out: Record<string, RelayFlags> = {};
  for (const t of obj.tags as unknown[]) {
    if (!Array.isArray(t) || t[0] !== 'r' || typeof t[1] !== 'string') continue;
    out[t[1]] = { read: t[2] !== 'write', write: t[2] !== 'read' };
  }
  return out;
}

/** get_default_relays' 10000124: a JSON array of relay URLs. */
export function parseDefaultRelays(objects: CacheObject[]): string[] {
  const obj = objects.find((o) => o.kind === CacheKind.DEFAULT_RELAYS);
  if (!obj || typeof obj.content !== 'string') return [];
  try {
    const list: unknown = JSON.parse(obj.content);
    return Array.isArray(list) ? list.filter((u): u is string => typeof u === 'string') : [];
  } catch {
    return [];
  }
}

/** The tags of a kind-10002 list for the pool (setRelays takes the same shape as the event). */
export function relayTags(map: Record<string, RelayFlags>): string[][] {
  return Object.entries(map)
    .filter(([, f]) => f.read || f.write)
    .map(([url, f]) => (f.read && f.write ? ['r', url] : ['r', url, f.read ? 'read' : 'write']));
}
