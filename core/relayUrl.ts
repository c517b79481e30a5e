/**
 * Relay URLs as Strucc accepts them (spec §5), shared by the relay machine, the worker and the
 * pages that take a relay address (settings → network).
 */
import { INVALID_RELAY_URL } from './config.ts';

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export type RelayUrlCheck = { ok: true; url: string } | { ok: false; error: string };

/**
 * Spec §5: relay URLs start with wss://; ws:// only for relay hints. Decision: ws:// is also
 * accepted for loopback hosts, so a Strucc relay on the same machine and the tests can be configured.
 * The URL is normalised (lower-case host, no trailing slash on the root) so one relay is one entry.
 */
export function checkRelayUrl(raw: string, opts: { hint?: boolean } = {}): RelayUrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    return { ok: false, error: INVALID_RELAY_URL };
  }
  const local = LOCAL_HOSTS.has(parsed.hostname);
  const allowed = parsed.protocol === 'wss:' || (parsed.protocol === 'ws:' && (opts.hint === true || local));
  if (!allowed || parsed.hostname === '' || parsed.username !== '' || parsed.password !== '') {
    return { ok: false, error: INVALID_RELAY_URL };
  }
  parsed.hash = '';
  const href = parsed.href;
  return { ok: true, url: parsed.pathname === '/' && parsed.search === '' ? href.replace(/\/$/, '') : href };
}
