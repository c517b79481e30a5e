/**
 * Publishing events to other relays on a client's behalf (broadcast_events, broadcast_reply;
 * protocol S §3.10): one websocket per relay, every event sent as NIP-01 EVENT, and each
 * relay's OK answer collected, with a time limit per relay.
 */
import type WebSocket from 'ws';
import type { NostrEvent } from '../context.ts';
import { openGuardedSocket, PrivateRelayError } from './outbound-ws.ts';

/** How long one relay may take to connect and answer every event (S §3.10). */
export const BROADCAST_TIMEOUT_MS = 15_000;

/** [relay url, accepted, message], the relay's OK (or why there was none). */
export type RelayResponse = [string, boolean, string];

/** Why a relay address is refused before anything is sent, or null when it is a ws:// or wss:// URL. */
export function relayUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'invalid: not a URL';
  }
  if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') return 'invalid: only ws:// and wss:// relays are accepted';
  return null;
}

/**
 * Sends `events` to one relay and resolves with one response per event, in order. Never
 * rejects: a refused connection, a close or the time limit become `false` answers with the reason.
 */
export function publishToRelay(
  url: string,
  events: readonly NostrEvent[],
  timeoutMs = BROADCAST_TIMEOUT_MS,
  allowPrivate = false,
): Promise<RelayResponse[]> {
  const answers = new Map<string, RelayResponse>();
  const problem = relayUrlProblem(url);
  if (problem || events.length === 0) return Promise.resolve(events.map(() => [url, false, problem ?? '']));
  // The same event twice is sent (and answered) once.
  const unique = [...new Map(events.map((e) => [e.id, e])).values()];
  return new Promise((resolve) => {
    let done = false;
    let ws: WebSocket;
    const finish = (reason: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      ws.removeAllListeners();
      // Errors after we stopped listening must not crash the process.
      ws.on('error', () => undefined);
      ws.terminate();
      resolve(events.map((e) => answers.get(e.id) ?? [url, false, reason]));
    };
    const timer = setTimeout(() => finish(`error: no answer within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
    try {
      ws = openGuardedSocket(url, { handshakeTimeout: timeoutMs, maxPayload: 1024 * 1024 }, allowPrivate);
    } catch (err) {
      clearTimeout(timer);
      const reason = err instanceof PrivateRelayError ? err.message : `error: ${(err as Error).message}`;
      resolve(events.map(() => [url, false, reason]));
      return;
    }
    ws.on('open', () => {
      for (const e of unique) ws.send(JSON.stringify(['EVENT', e]));
    });
    ws.on('message', (data) => {
      let msg: unknown;
      try {
        msg = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (!Array.isArray(msg) || msg[0] !== 'OK' || typeof msg[1] !== 'string') return;
      if (!unique.some((e) => e.id === msg[1]) || answers.has(msg[1])) return;
      answers.set(msg[1], [url, msg[2] === true, typeof msg[3] === 'string' ? msg[3] : '']);
      if (answers.size === unique.length) finish('');
    });
    ws.on('error', (err: NodeJS.ErrnoException) =>
      finish(err.code === 'EPRIVATE' ? 'blocked: private address' : `error: ${err.message || 'connection failed'}`),
    );
    ws.on('close', () => finish('error: connection closed before an answer'));
  });
}

/** Publishes to every relay at once (private and loopback relays only with `allowPrivate`, FETCH_PRIVATE_ADDRESSES); per event, the responses in the order of `relays`. */
export async function publish(
  events: readonly NostrEvent[],
  relays: readonly string[],
  timeoutMs = BROADCAST_TIMEOUT_MS,
  allowPrivate = false,
): Promise<Map<string, RelayResponse[]>> {
  const perRelay = await Promise.all(relays.map((r) => publishToRelay(r, events, timeoutMs, allowPrivate)));
  const out = new Map<string, RelayResponse[]>();
  events.forEach((e, i) => out.set(e.id, perRelay.map((answers) => answers[i])));
  return out;
}
