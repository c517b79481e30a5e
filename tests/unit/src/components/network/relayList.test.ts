import { describe, expect, it } from 'vitest';
import { LOG_LIMIT, publishLogLine, relayLogLines, socketLogLine, WorkerLog } from '../../../../../worker/logs.ts';
import { checkCacheServerUrl } from '../../../../../core/cacheServerUrl.ts';
import { parseDefaultRelays, parseUserRelays, relayMap, relayTags, sameRelay } from '../../../../../src/components/network/relayList.ts';
import { defaultCacheServer } from '../../../../../src/components/network/cacheServer.ts';
import type { LogEntry, RelayInfo } from '../../../../../core/types.ts';

const relay = (url: string, state: RelayInfo['state'], read = true, write = true): RelayInfo => ({ url, state, read, write, attempts: 0 });

describe('worker log', () => {
  it('keeps only the newest entries and tells watchers once per burst', async () => {
    let t = 0;
    const log = new WorkerLog(() => ++t, 3);
    const seen: LogEntry[][] = [];
    log.watch((e) => seen.push(e));
    for (let i = 0; i < 5; i++) log.add('info', 'socket', `m${i}`);
    expect(log.list().map((e) => e.message)).toEqual(['m2', 'm3', 'm4']);
    await Promise.resolve();
    expect(seen).toHaveLength(2);
    expect(seen[1].map((e) => e.message)).toEqual(['m2', 'm3', 'm4']);
    expect(LOG_LIMIT).toBe(200);
  });

  it('describes socket, relay and publish changes', () => {
    expect(socketLogLine(undefined, { state: 'connecting', connected: false, shouldReconnect: true, url: 'ws://x/v1' })).toEqual({
      level: 'info',
      message: 'connecting ws://x/v1',
      key: 'socketState',
      params: { state: 'connecting', url: 'ws://x/v1' },
    });
    expect(socketLogLine({ state: 'connected', connected: true, shouldReconnect: true, url: 'u' }, { state: 'waiting', connected: false, shouldReconnect: true, url: 'u' })?.level).toBe('warn');
    expect(socketLogLine({ state: 'connected', connected: true, shouldReconnect: true, url: 'u' }, { state: 'connected', connected: true, shouldReconnect: false, url: 'u' })).toBeUndefined();
    const lines = relayLogLines([relay('wss://a', 'connecting'), relay('wss://b', 'connected')], [{ ...relay('wss://a', 'failed'), error: 'Reached atempt limit' }, relay('wss://c', 'idle')]);
    expect(lines).toEqual([
      {
        level: 'error',
        message: 'wss://a: connecting → failed (Reached atempt limit)',
        key: 'relayChanged',
        params: { url: 'wss://a', from: 'connecting', to: 'failed', error: 'Reached atempt limit' },
      },
      { level: 'info', message: 'added wss://c (idle)', key: 'relayAdded', params: { url: 'wss://c', state: 'idle' } },
      { level: 'info', message: 'removed wss://b', key: 'relayRemoved', params: { url: 'wss://b' } },
    ]);
    expect(publishLogLine(1, { success: false, outcome: 'no-relays', reasons: { '*': 'no relays' } })).toEqual({
      level: 'error',
      message: 'kind 1: no-relays — no relays',
      key: 'publish',
      params: { kind: 1, id: '', outcome: 'no-relays', reasons: 'no relays' },
    });
  });
});

describe('network settings', () => {
  it('validates the caching service address', () => {
    expect(checkCacheServerUrl('wss://cache.example.com/v1')).toEqual({ ok: true, url: 'wss://cache.example.com/v1' });
    expect(checkCacheServerUrl('ws://127.0.0.1:8080/v1')).toEqual({ ok: true, url: 'ws://127.0.0.1:8080/v1' });
    expect(checkCacheServerUrl('http://x')).toEqual({ ok: false, error: 'Érvénytelen URL' });
    expect(checkCacheServerUrl('nem url')).toEqual({ ok: false, error: 'Érvénytelen URL' });
    expect(defaultCacheServer({ protocol: 'https:', host: 'strucc.hu' })).toBe('wss://strucc.hu/v1');
  });

  it('builds the relay list to publish and the pool tags', () => {
    const pool = [relay('wss://a', 'connected'), relay('wss://b', 'idle', true, false)];
    expect(relayMap(pool, 'wss://a', { read: true, write: false })).toEqual({ 'wss://a': { read: true, write: false }, 'wss://b': { read: true, write: false } });
    expect(relayMap(pool, 'wss://b', null)).toEqual({ 'wss://a': { read: true, write: true } });
    expect(relayTags({ 'wss://a': { read: true, write: true }, 'wss://b': { read: false, write: true }, 'wss://c': { read: false, write: false } })).toEqual([
      ['r', 'wss://a'],
      ['r', 'wss://b', 'write'],
    ]);
    expect(sameRelay('wss://Relay.Example.com/', 'wss://relay.example.com')).toBe(true);
  });

  it('reads the user relays and the suggested relays', () => {
    expect(parseUserRelays([{ kind: 10000139, tags: [['r', 'wss://a'], ['r', 'wss://b', 'read']] }])).toEqual({
      'wss://a': { read: true, write: true },
      'wss://b': { read: true, write: false },
    });
    expect(parseUserRelays([])).toBeNull();
    expect(parseDefaultRelays([{ kind: 10000124, content: '["wss://a","wss://b"]' }])).toEqual(['wss://a', 'wss://b']);
    expect(parseDefaultRelays([{ kind: 10000124, content: 'x' }])).toEqual([]);
  });
});
