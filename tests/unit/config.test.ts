import { describe, expect, it } from 'vitest';
import { readConfig } from '../../server/config.ts';

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
      accessLog: false,
      databaseUrl: '',
      operatorPubkey: '',
      fetchPrivateAddresses: false,
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

  it('refuses a bad port or demo scale', () => {
    expect(() => readConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => readConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => readConfig({ DEMO_SCALE: '-1' })).toThrow(/DEMO_SCALE/);
  });
});
