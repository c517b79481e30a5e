/**
 * Where the tab keeps the caching service's address: localStorage 'cacheServer', read by
 * src/worker-client.ts at start; 'cacheServerAlternative' holds the one to switch to.
 */
export const CACHE_SERVER_KEY = 'cacheServer';
export const CACHE_SERVER_ALT_KEY = 'cacheServerAlternative';

export function defaultCacheServer(loc: Pick<Location, 'protocol' | 'host'> = location): string {
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}/v1`;
}

export function readStored(key: string): string {
  try {
    return localStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

export function writeStored(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Blocked storage: the change still applies to the running worker, only not after a restart.
  }
}
