import type { ServerConfig } from './context.ts';

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

/** Reads the server configuration from environment variables, with the documented defaults. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const scale = env.DEMO_SCALE === undefined || env.DEMO_SCALE.trim() === '' ? 1 : Number(env.DEMO_SCALE);
  if (!Number.isFinite(scale) || scale <= 0) {
    throw new Error(`DEMO_SCALE érvénytelen: ${JSON.stringify(env.DEMO_SCALE)} (pozitív szám kell)`);
  }
  const demo = env.DEMO?.trim() !== '0';
  return {
    host: env.HOST?.trim() || '127.0.0.1',
    port: integer('PORT', env.PORT, 8800, 0, 65535),
    dataDir: env.DATA_DIR?.trim() || './data',
    databaseUrl: env.DATABASE_URL?.trim() || '',
    distDir: env.DIST_DIR?.trim() || './dist',
    upstreamRelays: (env.UPSTREAM_RELAYS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
    // Demo is on unless explicitly '0': a fresh checkout should show a populated network.
    demo,
    // The demo lightning network (server/lightning) runs with the demo network unless DEMO_LIGHTNING=0.
    demoLightning: flag(env.DEMO_LIGHTNING, demo),
    demoScale: scale,
    nip05Domain: env.NIP05_DOMAIN?.trim() || 'strucc.test',
    mediaDomain: env.MEDIA_DOMAIN?.trim() || 'media.strucc.test',
    verbose: flag(env.VERBOSE, false),
    accessLog: flag(env.ACCESS_LOG, false),
    fetchPrivateAddresses: flag(env.FETCH_PRIVATE_ADDRESSES, false),
    operatorPubkey: operatorPubkey(env.OPERATOR_PUBKEY),
  };
}
