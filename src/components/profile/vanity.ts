/**
 * /{vanityName}: a NIP-05 name (or a premium name) on the server's own domain, looked up through
 * the media server's /.well-known/nostr.json, which answers for both.
 */
import { useEffect, useState } from 'react';
import { config } from '../../worker-client';
import { isVanityName } from '../thread/ids';

export type VanityState = { status: 'loading' } | { status: 'found'; pubkey: string } | { status: 'missing' } | { status: 'error' };

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
  const [state, setState] = useState<VanityState>({ status: 'loading' });
  useEffect(() => {
    if (!name) return;
    if (!isVanityName(name)) {
      setState({ status: 'missing' });
      return;
    }
    let live = true;
    setState({ status: 'loading' });
    lookupVanityName(name)
      .then((pubkey) => live && setState(pubkey ? { status: 'found', pubkey } : { status: 'missing' }))
      .catch(() => live && setState({ status: 'error' }));
    return () => {
      live = false;
    };
  }, [name]);
  return state;
}
