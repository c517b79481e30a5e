import type { ServerConfig, ServerLimits } from './context.ts';

/** Spec §6: premium media storage, 100 GB; the same figure membership reports as the storage quota. */
export const STORAGE_QUOTA_BYTES = 100 * 1024 ** 3;
/** Link previews are small rows: 64 MiB holds a few hundred thousand. */
export const LINK_PREVIEW_CACHE_BYTES = 64 * 1024 ** 2;
/** Media-cache originals on disk; rendered again from the source when evicted. */
export const MEDIA_CACHE_BYTES = 10 * 1024 ** 3;

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value.trim() === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.trim().toLowerCase());
}

function integer(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} érvénytelen: ${JSON.stringify(value)} (${min}–${max} közötti egész szám kell)`);
  }
  return n;
}

function operatorPubkey(value: string | undefined): string {
  const v = value?.trim() ?? '';
  if (v !== '' && !/^[0-9a-fA-F]{64}$/.test(v)) {
    throw new Error(`OPERATOR_PUBKEY érvénytelen: ${JSON.stringify(value)} (64 hexadecimális karakter kell)`);
  }
  return v.toLowerCase();
}

/** What one client may cost the server; every value has an env override (README, configuration). */
function readLimits(env: NodeJS.ProcessEnv): ServerLimits {
  const heartbeatMs = integer('WS_HEARTBEAT_MS', env.WS_HEARTBEAT_MS, 30_000, 0, 3_600_000);
  const limits: ServerLimits = {
    heartbeatMs,
    // Two missed pings, so one slow round trip never costs a healthy client its socket.
    idleTimeoutMs: integer('WS_IDLE_TIMEOUT_MS', env.WS_IDLE_TIMEOUT_MS, 75_000, 1, 86_400_000),
    maxBufferedBytes: integer('WS_MAX_BUFFERED_BYTES', env.WS_MAX_BUFFERED_BYTES, 8 * 1024 * 1024, 64 * 1024, 1024 * 1024 * 1024),
    // As many as the subscriptions a connection may hold: a client's burst at start-up stays under it.
    maxQueuedFrames: integer('WS_MAX_QUEUED_FRAMES', env.WS_MAX_QUEUED_FRAMES, 200, 1, 100_000),
    maxConnectionsPerIp: integer('MAX_CONNECTIONS_PER_IP', env.MAX_CONNECTIONS_PER_IP, 50, 0, 1_000_000),
    relayMaxLimit: integer('RELAY_MAX_LIMIT', env.RELAY_MAX_LIMIT, 500, 1, 100_000),
    relayMaxFilters: integer('RELAY_MAX_FILTERS', env.RELAY_MAX_FILTERS, 20, 1, 1000),
    relayMaxSubscriptions: integer('RELAY_MAX_SUBSCRIPTIONS', env.RELAY_MAX_SUBSCRIPTIONS, 200, 1, 100_000),
  };
  if (heartbeatMs > 0 && limits.idleTimeoutMs < heartbeatMs) {
    throw new Error(`WS_IDLE_TIMEOUT_MS (${limits.idleTimeoutMs}) nem lehet kisebb, mint WS_HEARTBEAT_MS (${heartbeatMs})`);
  }
  return limits;
}

/** Whether the server only listens on this machine (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || /^::ffff:127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * Demo seeding and demo payments only on a server nobody else can reach, unless the operator
 * says with DEMO_PUBLIC=1 that a public demo is meant: a production server started without
 * DEMO=0 must neither fill its store with fake people nor mark membership quotes paid for anyone.
 */
export function demoAllowed(config: Pick<ServerConfig, 'host' | 'demoPublic'>): boolean {
  return config.demoPublic || isLoopbackHost(config.host);
}

/** Both VAPID keys or neither (then a kept pair in DATA_DIR); a half-given pair is a typo worth stopping for. */
function vapidConfig(env: NodeJS.ProcessEnv): ServerConfig['vapid'] {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim() ?? '';
  const privateKey = env.VAPID_PRIVATE_KEY?.trim() ?? '';
  const subject = env.VAPID_SUBJECT?.trim() ?? '';
  if (subject && !/^(mailto:|https:\/\/)/.test(subject)) {
    throw new Error(`VAPID_SUBJECT érvénytelen: ${JSON.stringify(subject)} (mailto: vagy https:// cím kell)`);
  }
  if (!publicKey && !privateKey) return subject ? { publicKey: '', privateKey: '', subject } : undefined;
  if (!/^[A-Za-z0-9_-]{80,90}$/.test(publicKey) || !/^[A-Za-z0-9_-]{40,45}$/.test(privateKey)) {
    throw new Error('VAPID_PUBLIC_KEY és VAPID_PRIVATE_KEY együtt kell, base64url kódolású P-256 kulcspárként (npx web-push generate-vapid-keys)');
  }
  return { publicKey, privateKey, subject };
}

/** Reads the server configuration from environment variables, with the documented defaults. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const scale = env.DEMO_SCALE === undefined || env.DEMO_SCALE.trim() === '' ? 1 : Number(env.DEMO_SCALE);
  if (!Number.isFinite(scale) || scale <= 0) {
    throw new Error(`DEMO_SCALE érvénytelen: ${JSON.stringify(env.DEMO_SCALE)} (pozitív szám kell)`);
  }
  const demo = env.DEMO?.trim() !== '0';
  const host = env.HOST?.trim() || '127.0.0.1';
  const demoPublic = flag(env.DEMO_PUBLIC, false);
  const demoLightning = flag(env.DEMO_LIGHTNING, demo) && demoAllowed({ host, demoPublic });
  return {
    host,
    port: integer('PORT', env.PORT, 8800, 0, 65535),
    dataDir: env.DATA_DIR?.trim() || './data',
    databaseUrl: env.DATABASE_URL?.trim() || '',
    distDir: env.DIST_DIR?.trim() || './dist',
    upstreamRelays: (env.UPSTREAM_RELAYS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
    upstreamPageLimit: integer('UPSTREAM_PAGE_LIMIT', env.UPSTREAM_PAGE_LIMIT, 500, 1, 100_000),
    storageQuotaBytes: integer('STORAGE_QUOTA_BYTES', env.STORAGE_QUOTA_BYTES, STORAGE_QUOTA_BYTES, 0, Number.MAX_SAFE_INTEGER),
    linkPreviewCacheBytes: integer('LINK_PREVIEW_CACHE_BYTES', env.LINK_PREVIEW_CACHE_BYTES, LINK_PREVIEW_CACHE_BYTES, 0, Number.MAX_SAFE_INTEGER),
    mediaCacheBytes: integer('MEDIA_CACHE_BYTES', env.MEDIA_CACHE_BYTES, MEDIA_CACHE_BYTES, 0, Number.MAX_SAFE_INTEGER),
    // Demo is on unless explicitly '0': a fresh checkout should show a populated network.
    demo,
    demoPublic,
    // The demo lightning network (server/lightning) runs with the demo network unless DEMO_LIGHTNING=0;
    // its free sats are as much a demo as the seeded network, so never on a public HOST without DEMO_PUBLIC.
    demoLightning,
    // The mint's ecash is backed by the demo ledger's sats, so it never runs without it.
    mint: flag(env.MINT, demoLightning) && demoLightning,
    mintKeysetDays: integer('MINT_KEYSET_DAYS', env.MINT_KEYSET_DAYS, 30, 0, 3650),
    demoScale: scale,
    nip05Domain: env.NIP05_DOMAIN?.trim() || 'strucc.test',
    mediaDomain: env.MEDIA_DOMAIN?.trim() || 'media.strucc.test',
    verbose: flag(env.VERBOSE, false),
    warmCaches: flag(env.WARM_CACHES, true),
    accessLog: flag(env.ACCESS_LOG, false),
    fetchPrivateAddresses: flag(env.FETCH_PRIVATE_ADDRESSES, false),
    operatorPubkey: operatorPubkey(env.OPERATOR_PUBKEY),
    vapid: vapidConfig(env),
    limits: readLimits(env),
  };
}
