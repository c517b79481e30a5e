import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../server/config.ts';

describe('readConfig', () => {
  it('uses the documented defaults', () => {
    expect(readConfig({})).toEqual({
      host: '127.0.0.1',
      port: 8800,
      dataDir: './data',
      distDir: './dist',
      upstreamRelays: [],
      upstreamPageLimit: 500,
      storageQuotaBytes: 100 * 1024 ** 3,
      linkPreviewCacheBytes: 64 * 1024 ** 2,
      mediaCacheBytes: 10 * 1024 ** 3,
      demo: true,
      demoScale: 1,
      nip05Domain: 'strucc.test',
      mediaDomain: 'media.strucc.test',
      verbose: false,
      warmCaches: true,
      accessLog: false,
      databaseUrl: '',
      operatorPubkey: '',
      fetchPrivateAddresses: false,
      demoPublic: false,
      demoLightning: true,
      mint: true,
      mintKeysetDays: 30,
      limits: {
        heartbeatMs: 30_000,
        idleTimeoutMs: 75_000,
        maxBufferedBytes: 8 * 1024 * 1024,
        maxQueuedFrames: 200,
        maxConnectionsPerIp: 50,
        relayMaxLimit: 500,
        relayMaxFilters: 20,
        relayMaxSubscriptions: 200,
      },
    });
  });

  it('reads every variable', () => {
    const config = readConfig({
      HOST: '0.0.0.0',
      PORT: '0',
      DATA_DIR: '/tmp/x',
      DIST_DIR: '/tmp/d',
      UPSTREAM_RELAYS: ' wss://a.example , ,wss://b.example',
      DEMO: '0',
      DEMO_SCALE: '0.05',
      NIP05_DOMAIN: 'pelda.hu',
      MEDIA_DOMAIN: 'm.pelda.hu',
      VERBOSE: '1',
    });
    expect(config).toMatchObject({ host: '0.0.0.0', port: 0, upstreamRelays: ['wss://a.example', 'wss://b.example'], demo: false, demoScale: 0.05, verbose: true });
    expect(readConfig({ DEMO: 'yes' }).demo).toBe(true);
  });

  it('reads the limits, and refuses an idle timeout shorter than the heartbeat', () => {
    const limits = readConfig({
      WS_HEARTBEAT_MS: '1000', WS_IDLE_TIMEOUT_MS: '2500', WS_MAX_BUFFERED_BYTES: '65536', WS_MAX_QUEUED_FRAMES: '3',
      MAX_CONNECTIONS_PER_IP: '0', RELAY_MAX_LIMIT: '7', RELAY_MAX_FILTERS: '2', RELAY_MAX_SUBSCRIPTIONS: '4', DEMO_PUBLIC: '1',
    });
    expect(limits.demoPublic).toBe(true);
    expect(limits.limits).toEqual({
      heartbeatMs: 1000, idleTimeoutMs: 2500, maxBufferedBytes: 65536, maxQueuedFrames: 3,
      maxConnectionsPerIp: 0, relayMaxLimit: 7, relayMaxFilters: 2, relayMaxSubscriptions: 4,
    });
    expect(() => readConfig({ WS_HEARTBEAT_MS: '5000', WS_IDLE_TIMEOUT_MS: '1000' })).toThrow(/WS_IDLE_TIMEOUT_MS/);
    expect(() => readConfig({ RELAY_MAX_LIMIT: '0' })).toThrow(/RELAY_MAX_LIMIT/);
  });

  it('refuses a bad port or demo scale', () => {
    expect(() => readConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => readConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => readConfig({ DEMO_SCALE: '-1' })).toThrow(/DEMO_SCALE/);
  });
  it('keeps the demo lightning network off on a public HOST unless DEMO_PUBLIC says so', () => {
    expect(readConfig({ HOST: '0.0.0.0' }).demoLightning).toBe(false);
    expect(readConfig({ HOST: '0.0.0.0', DEMO_PUBLIC: '1' }).demoLightning).toBe(true);
    expect(readConfig({ HOST: '127.0.0.1', DEMO_LIGHTNING: '0' }).demoLightning).toBe(false);
    expect(readConfig({ DEMO: '0' }).demoLightning).toBe(false);
  });
  it('runs the mint with the demo lightning network it is backed by; MINT=0 turns it off', () => {
    expect(readConfig({ HOST: '127.0.0.1' }).mint).toBe(true);
    expect(readConfig({ HOST: '127.0.0.1', MINT: '0' }).mint).toBe(false);
    expect(readConfig({ HOST: '127.0.0.1', DEMO_LIGHTNING: '0', MINT: '1' }).mint).toBe(false);
    expect(readConfig({ HOST: '0.0.0.0' }).mint).toBe(false);
    expect(() => readConfig({ MINT_KEYSET_DAYS: '-1' })).toThrow(/MINT_KEYSET_DAYS/);
  });
});
