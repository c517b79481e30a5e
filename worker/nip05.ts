/**
 * NIP-05 name checks for the verification badge (spec §4 "Avatar", §7 HTTP). Names on our own
 * demo domain are answered by the cache server's origin, everything else by the named domain.
 * Answers are cached for the worker's lifetime; failures count as "not verified", never throw.
 */
import { NIP05_TIMEOUT_MS } from '../core/config.ts';

export type Fetcher = (url: string, init?: { signal?: AbortSignal }) => Promise<Pick<Response, 'ok' | 'json'>>;

/** The http(s) origin behind a ws(s) cache-server URL. */
export function httpOrigin(wsUrl: string): string | undefined {
  try {
    const u = new URL(wsUrl);
    const protocol = u.protocol === 'wss:' ? 'https:' : u.protocol === 'ws:' ? 'http:' : u.protocol;
    return `${protocol}//${u.host}`;
  } catch {
    return undefined;
  }
}

export function splitNip05(nip05: string): { name: string; domain: string } | undefined {
  const at = nip05.trim().toLowerCase().split('@');
  // A bare domain means the root identifier "_" (NIP-05).
  const [name, domain] = at.length === 1 ? ['_', at[0]] : at.length === 2 ? at : [undefined, undefined];
  if (!name || !domain || !/^[a-z0-9.-]+(:\d+)?$/.test(domain)) return undefined;
  return { name, domain };
}

export class Nip05Verifier {
  private readonly results = new Map<string, Promise<boolean>>();
  private info?: Promise<string | undefined>;

  constructor(
    private readonly cacheServerUrl: () => string | undefined,
    private readonly fetcher: Fetcher = (url, init) => fetch(url, init),
  ) {}

  verify(pubkey: string, nip05: string): Promise<boolean> {
    const key = `${pubkey}|${nip05.trim().toLowerCase()}`;
    let result = this.results.get(key);
    if (!result) {
      // An unreachable server is no answer: forget it so a later check can still succeed.
      result = this.check(pubkey, nip05).catch(() => {
        this.results.delete(key);
        return false;
      });
      this.results.set(key, result);
    }
    return result;
  }

  private async check(pubkey: string, nip05: string): Promise<boolean> {
    const parts = splitNip05(nip05);
    if (!parts) return false;
    const origin = this.origin();
    const ownDomain = origin ? await this.nip05Domain(origin) : undefined;
    const base = ownDomain !== undefined && parts.domain === ownDomain ? origin : `https://${parts.domain}`;
    const body = await this.getJson(`${base}/.well-known/nostr.json?name=${encodeURIComponent(parts.name)}`);
    if (body === undefined) throw new Error('nostr.json unreachable');
    const names = (body as { names?: Record<string, unknown> } | undefined)?.names;
    const found = names && typeof names === 'object' ? names[parts.name] : undefined;
    return typeof found === 'string' && found.toLowerCase() === pubkey.toLowerCase();
  }

  private origin(): string | undefined {
    const url = this.cacheServerUrl();
    return url ? httpOrigin(url) : undefined;
  }

  private nip05Domain(origin: string): Promise<string | undefined> {
    if (!this.info) {
      this.info = this.getJson(`${origin}/api/info`).then((body) => {
        const d = (body as { nip05Domain?: unknown } | undefined)?.nip05Domain;
        return typeof d === 'string' ? d.toLowerCase() : undefined;
      });
      // A failed lookup is retried by the next check instead of being remembered forever.
      void this.info.then((d) => {
        if (d === undefined) this.info = undefined;
      });
    }
    return this.info;
  }

  private async getJson(url: string): Promise<unknown> {
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), NIP05_TIMEOUT_MS);
    try {
      const res = await this.fetcher(url, { signal: ctrl.signal });
      return res.ok ? await res.json() : undefined;
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}
