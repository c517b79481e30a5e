/**
 * /{vanityName}: a NIP-05 name (or a premium name) on the server's own domain, looked up through
 * the media server's /.well-known/nostr.json, which answers for both.
 */
import { config } from '../../worker-client';
import { useRequest } from '../../lib/useWorkerRequest';
import { isVanityName } from '../thread/ids';

export type VanityState = { status: 'loading' } | { status: 'found'; pubkey: string } | { status: 'missing' } | { status: 'error' };

const LOADING: VanityState = { status: 'loading' };
const MISSING: VanityState = { status: 'missing' };
const ERROR: VanityState = { status: 'error' };

const HEX64 = /^[0-9a-f]{64}$/;
// Names rarely change within a visit; the profile and its vanity threads share one lookup.
const resolved = new Map<string, Promise<string | null>>();

export function lookupVanityName(name: string): Promise<string | null> {
  const key = name.toLowerCase();
  let promise = resolved.get(key);
  if (!promise) {
    promise = fetch(`${config.mediaServer}/.well-known/nostr.json?name=${encodeURIComponent(key)}`)
      .then((res) => {
        if (!res.ok) throw new Error(`nostr.json ${res.status}`);
        return res.json() as Promise<{ names?: Record<string, unknown> }>;
      })
      .then((body) => {
        const hex = body.names?.[key];
        return typeof hex === 'string' && HEX64.test(hex) ? hex : null;
      });
    // A failed lookup may succeed next time; only answers are remembered.
    promise.catch(() => resolved.delete(key));
    resolved.set(key, promise);
  }
  return promise;
}

export function useVanityName(name: string | undefined): VanityState {
  const wanted = name && isVanityName(name) ? name : null;
  const { data, error, loading } = useRequest(wanted ? () => lookupVanityName(wanted) : null, [wanted]);
  if (name && !wanted) return MISSING;
  if (!wanted || loading) return LOADING;
  if (error !== undefined) return ERROR;
  return data ? { status: 'found', pubkey: data } : MISSING;
}
