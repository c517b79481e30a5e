/**
 * The caching service URL a person may type on the network page: a ws:// or wss:// address of
 * the cache server's socket. Shared by the worker (setCacheServer) and the page's own check.
 */
import { INVALID_RELAY_URL } from './config.ts';
import type { AddRelayResult } from './types.ts';

export function checkCacheServerUrl(raw: string): AddRelayResult {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    return { ok: false, error: INVALID_RELAY_URL };
  }
  if ((parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') || parsed.hostname === '' || parsed.username !== '' || parsed.password !== '') {
    return { ok: false, error: INVALID_RELAY_URL };
  }
  parsed.hash = '';
  return { ok: true, url: parsed.href };
}
