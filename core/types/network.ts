/** The cache socket, relays, publishing and activity as tabs see them. */
import type { NostrEvent } from './events.ts';

export type SocketState = 'idle' | 'connecting' | 'handshaking' | 'connected' | 'waiting' | 'resetting' | 'closed';

export interface SocketSnapshot {
  state: SocketState;
  connected: boolean;
  shouldReconnect: boolean;
  url: string;
}

/** Settings a tab reads from localStorage and hands to the worker (workers have no localStorage). */
export interface ClientConfig {
  /** ws(s) URL of the cache server's /v1 endpoint. */
  cacheServer: string;
  /** http(s) origin serving /media-cache and /.well-known/nostr.json. */
  mediaServer: string;
  noBinary: boolean;
  devMode: boolean;
  /** Hex pubkey of the account a guest's feeds are personalised for; defaults to core/config.ts DEFAULT_GUEST_PUBKEY. */
  guestPubkey?: string;
  /** The tab holds the Web Lock tabLockName(tabId) until it goes away (core/config.ts). */
  holdsTabLock?: boolean;
  /**
   * Shorter sleep and wake timings, honoured only with devMode on (localStorage activityTimings),
   * so tests and developers can watch sleep and wake without waiting 5 minutes.
   */
  activityTimings?: ActivityTimings;
  /**
   * Shorter feed polling and cache request timeout, honoured only with devMode on (localStorage
   * devTimings), so the new-notes pill and a failing save show in seconds instead of 30 and 20.
   */
  devTimings?: DevTimings;
}

export interface DevTimings {
  /** How often a feed asks for newer notes (spec: 30 s). */
  feedPollMs?: number;
  /** How long a cache request waits for its answer (spec: 20 s). */
  requestTimeoutMs?: number;
}

export interface ActivityTimings {
  /** Silence in every tab before the worker sleeps (spec: 5 minutes). */
  sleepMs: number;
  /** Time spent waking before woke (spec: 36 s). */
  wakeMs: number;
}

/** A NIP-01 filter as sent to relays. */
export interface RelayFilter {
  ids?: string[];
  authors?: string[];
  kinds?: number[];
  since?: number;
  until?: number;
  limit?: number;
  [tag: `#${string}`]: string[] | undefined;
}

export type RelayState = 'idle' | 'connecting' | 'connected' | 'waiting' | 'failed' | 'suspended';

/** One relay of the pool as the UI shows it. */
export interface RelayInfo {
  url: string;
  state: RelayState;
  read: boolean;
  write: boolean;
  /** Reconnect attempts made since the last good connection. */
  attempts: number;
  /** 'Reached atempt limit' once the relay gave up. */
  error?: string;
}

export type AddRelayResult = { ok: true; url: string } | { ok: false; error: string };

/** An event to publish: already signed, or a template the worker's signer signs. */
export interface UnsignedEvent {
  kind: number;
  tags: string[][];
  content: string;
  created_at: number;
  pubkey?: string;
}

/**
 * How a publish ended, for the §8 toasts: published ('Bejegyzés sikeresen közzétéve'),
 * no-confirmation (no relay confirmed within 8 seconds), failed (publish fail),
 * no-relays (no relays connected, try again shortly), not-signed (signing failed or no signer).
 */
export type PublishOutcome = 'published' | 'no-confirmation' | 'failed' | 'no-relays' | 'not-signed';

export interface PublishResult {
  success: boolean;
  /** Why each relay did not accept: 'timeout', 'failed', 'Failed to publish note', 'No publish confirmation' or the relay's OK message. Key '*' for reasons not tied to one relay. */
  reasons: Record<string, string>;
  /** The signed event, when signing got that far. */
  event?: NostrEvent;
  outcome: PublishOutcome;
}

export type ActivityState = 'woke' | 'waking' | 'sleeping';

export interface ActivitySnapshot {
  state: ActivityState;
  proxy: boolean;
}
