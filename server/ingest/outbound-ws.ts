/**
 * Websockets the server opens to relays a user named (broadcast_events, broadcast_reply, content
 * rebroadcast). They go through the link previews' address guard: an IP literal is checked here,
 * a host name at DNS lookup time inside the connection, so a name that resolves (or re-resolves)
 * to this machine, a private network or a metadata address is never reached.
 */
import WebSocket from 'ws';
import { assertPublicHost, guardedLookupFor } from '../media/guard.ts';

export class PrivateRelayError extends Error {}

/** `allowPrivate` is the server's FETCH_PRIVATE_ADDRESSES (tests talk to relays on 127.0.0.1). */
export function openGuardedSocket(url: string, options: WebSocket.ClientOptions, allowPrivate: boolean): WebSocket {
  const refused = assertPublicHost(new URL(url).hostname, allowPrivate);
  if (refused) throw new PrivateRelayError(`blocked: ${refused}`);
  // ws hands its options to net/tls.connect, which resolve through `lookup`; ws's types omit it.
  const lookup = guardedLookupFor(allowPrivate);
  const guarded: WebSocket.ClientOptions & { lookup: typeof lookup } = { ...options, lookup, followRedirects: false };
  return new WebSocket(url, guarded);
}
