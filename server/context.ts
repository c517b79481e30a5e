import type { EventEmitter } from 'node:events';
import type { Database } from './store/db.ts';

/** A signed Nostr event (NIP-01), as nostr-tools types it. */
import type { NostrEvent } from 'nostr-tools/core';

export type { NostrEvent };

export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  /** PostgreSQL connection string (DATABASE_URL); when empty, SQLite at DATA_DIR/strucc.sqlite. */
  databaseUrl: string;
  /** Directory holding the built client (vite build output). */
  distDir: string;
  /** Upstream relays to ingest from (comma list in UPSTREAM_RELAYS); empty by default. */
  upstreamRelays: string[];
  /** Events per catch-up REQ to an upstream relay (UPSTREAM_PAGE_LIMIT); 500 when absent. */
  upstreamPageLimit?: number;
  /** Bytes of uploads (Blossom and the upload socket) one pubkey may own (STORAGE_QUOTA_BYTES); 100 GiB when absent. */
  storageQuotaBytes?: number;
  /** Bytes of link previews kept before the least recently used go (LINK_PREVIEW_CACHE_BYTES); 64 MiB when absent. */
  linkPreviewCacheBytes?: number;
  /** Bytes of media-cache originals kept under DATA_DIR before the least recently used go (MEDIA_CACHE_BYTES); 10 GiB when absent. */
  mediaCacheBytes?: number;
  /** Seed the demo network when the database is empty. */
  demo: boolean;
  /** Demo seeding and payments also when HOST is not a loopback address (DEMO_PUBLIC=1). */
  demoPublic: boolean;
  /** Run the demo lightning network: ledger, LNURL-pay callbacks, NIP-47 wallet service (DEMO_LIGHTNING, default = DEMO). */
  demoLightning?: boolean;
  /** Run the demo Cashu mint at /mint (MINT, default = the demo lightning network, which backs it). */
  mint?: boolean;
  /** Days before the mint's active keyset is replaced by a new one (MINT_KEYSET_DAYS, 0 = never); 30 when absent. */
  mintKeysetDays?: number;
  /** 1 = the full demo network; tests use a small fraction. */
  demoScale: number;
  /** Domain of the demo network's NIP-05 names and lightning addresses. */
  nip05Domain: string;
  /** Host of the demo network's media URLs, rendered locally by /media-cache. */
  mediaDomain: string;
  /** Let link previews and the media cache fetch private and loopback addresses (FETCH_PRIVATE_ADDRESSES=1). */
  fetchPrivateAddresses: boolean;
  /** Print progress lines (seeding, listening). */
  verbose: boolean;
  /** Build the newest notes' bundles once after start, so the first requests find the caches full (cache/warm.ts). */
  warmCaches: boolean;
  /** Print one `ACCESS <method> <path> <status> <body bytes sent>` line per HTTP response (ACCESS_LOG=1; the client bench reads it). */
  accessLog: boolean;
  /** Per-relay time limit of broadcast_events and broadcast_reply; 15 s when absent (tests shorten it). */
  broadcastTimeoutMs?: number;
  /** Hex pubkey whose kind-30000 lists d=spam and d=nsfw are the primal_spam / primal_nsfw groups (OPERATOR_PUBKEY); '' = empty groups. */
  operatorPubkey: string;
  /**
   * VAPID key pair of Web Push (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, base64url) and the contact the push
   * services see (VAPID_SUBJECT, mailto: or https:). Without the keys, a pair is made once and kept in
   * the store (server/push/keys.ts): a new pair would void every browser's subscription.
   */
  vapid?: { publicKey: string; privateKey: string; subject: string };
  limits: ServerLimits;
}

/** Per-client bounds of the websocket endpoints (server/sockets.ts, /v1 and /relay). */
export interface ServerLimits {
  /** Ping interval of every websocket (WS_HEARTBEAT_MS); 0 = no pings. */
  heartbeatMs: number;
  /** A socket from which nothing (message or pong) was heard for this long is closed (WS_IDLE_TIMEOUT_MS). */
  idleTimeoutMs: number;
  /** A socket whose unsent output passes this is closed: the client does not read (WS_MAX_BUFFERED_BYTES). */
  maxBufferedBytes: number;
  /** Frames one connection may have waiting or running; more are dropped with a NOTICE (WS_MAX_QUEUED_FRAMES). */
  maxQueuedFrames: number;
  /** Open websockets from one remote address, all endpoints together; 0 = no cap (MAX_CONNECTIONS_PER_IP). */
  maxConnectionsPerIp: number;
  /** Largest LIMIT of a /relay filter (RELAY_MAX_LIMIT). */
  relayMaxLimit: number;
  /** Filters in one /relay REQ or COUNT (RELAY_MAX_FILTERS). */
  relayMaxFilters: number;
  /** Open /relay subscriptions per connection (RELAY_MAX_SUBSCRIPTIONS). */
  relayMaxSubscriptions: number;
}

export interface ImportResult {
  id: string;
  ok: boolean;
  /** NIP-01 OK-message style reason: "duplicate: …", "invalid: …", "blocked: …", "error: …". */
  reason: string;
}

export interface Importer {
  /** Checks and stores events (S §5.2 order), applying every derived table. Never throws for bad input. */
  importEvents(events: unknown[], source?: string): Promise<ImportResult[]>;
}

/** Counters read by GET /api/status and the tests that count sockets. */
export interface ServerStats {
  cacheConnections: number;
  cacheConnectionsTotal: number;
  relayConnections: number;
  relayConnectionsTotal: number;
  /** Open async subscriptions (S §1.5) by command, so tests can see from outside that a CLOSE landed. */
  asyncSubscriptions: Record<string, number>;
}

export interface ServerContext {
  config: ServerConfig;
  db: Database;
  importer: Importer;
  stats: ServerStats;
  /** Emits 'event' (NostrEvent) after each newly stored event, for live subscriptions. */
  live: EventEmitter;
  /** Unix seconds; tests may freeze it. */
  now(): number;
  /** Set once the server runs: this process's id and whether it runs the periodic jobs (server/cluster/). */
  cluster?: { processId: string; isLeader(): boolean };
}
