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
  /** Seed the demo network when the database is empty. */
  demo: boolean;
  /** Run the demo lightning network: ledger, LNURL-pay callbacks, NIP-47 wallet service (DEMO_LIGHTNING, default = DEMO). */
  demoLightning?: boolean;
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
  /** Print one `ACCESS <method> <path> <status> <body bytes sent>` line per HTTP response (ACCESS_LOG=1; the client bench reads it). */
  accessLog: boolean;
  /** Per-relay time limit of broadcast_events and broadcast_reply; 15 s when absent (tests shorten it). */
  broadcastTimeoutMs?: number;
  /** Hex pubkey whose kind-30000 lists d=spam and d=nsfw are the primal_spam / primal_nsfw groups (OPERATOR_PUBKEY); '' = empty groups. */
  operatorPubkey: string;
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
}
