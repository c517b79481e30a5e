import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { createApi, type StruccWorker } from '../../../worker/api.ts';
import { DEFAULT_GUEST_PUBKEY } from '../../../core/config.ts';
import { FALLBACK_HOME_FEEDS } from '../../../core/feedList.ts';
import type { Fetcher } from '../../../worker/nip05.ts';
import type { ServerMessage } from '../../../core/protocol.ts';
import type { CacheObject, ClientConfig, FeedSnapshot, SocketSnapshot } from '../../../core/types.ts';
import { createFakeSocket, type FakeSocket } from '../helpers/fakeSocket.ts';

const CONFIG: ClientConfig = { cacheServer: 'ws://127.0.0.1:8800/v1', mediaServer: 'http://127.0.0.1:8800', noBinary: true, devMode: false };
const PK = 'a'.repeat(64);

type Answer = (command: string, payload: Record<string, unknown> | undefined) => ServerMessage[] | null;

/** Plays the cache server on the fake socket: answers each REQ with what `answer` returns (null = silence). */
function serve(fake: FakeSocket, answer: Answer) {
  const seen: { command: string; payload?: Record<string, unknown> }[] = [];
  fake.onSend = (data) => {
    const frame = JSON.parse(data) as [string, string, { cache: [string, Record<string, unknown>?] }];
    if (frame[0] !== 'REQ') return;
    const [command, payload] = frame[2].cache;
    seen.push({ command, payload });
    const out = answer(command, payload);
    if (out) fake.receive(...out.map((m) => ({ ...m, subid: m.subid || frame[1] })), { type: 'EOSE', subid: frame[1] });
  };
  return seen;
}
const event = (o: CacheObject): ServerMessage => ({ type: 'EVENT', subid: '', event: o });

describe('worker api', () => {
  let fake: FakeSocket;
  let api: StruccWorker;
  let fetcher: Mock<Fetcher>;

  beforeEach(() => {
    vi.useFakeTimers();
    fake = createFakeSocket();
    fetcher = vi.fn<Fetcher>();
    api = createApi({ socket: fake.logic, fetcher, feedThrottleMs: 50 });
  });
  afterEach(() => {
    api.dispose();
    vi.useRealTimers();
  });

  async function connect() {
    await api.hello('tab1', CONFIG);
    fake.open();
  }

  it('the first hello starts the socket; later tabs share it', async () => {
    expect(await api.hello('tab1', CONFIG)).toEqual({ version: '2.0.11' });
    expect(fake.urls).toEqual([CONFIG.cacheServer]);
    await api.hello('tab2', { ...CONFIG, cacheServer: 'ws://elsewhere/v1' });
    expect(fake.opened).toBe(1);
  });

  it('watchSocket reports the current state at once and every change', async () => {
    const seen: SocketSnapshot[] = [];
    await api.watchSocket('tab1', (s) => seen.push(s));
    expect(seen[0]).toMatchObject({ state: 'idle', connected: false });
    await connect();
    expect(seen.map((s) => s.state)).toEqual(['idle', 'connecting', 'connected']);
    expect(seen.at(-1)).toEqual({ state: 'connected', connected: true, shouldReconnect: true, url: CONFIG.cacheServer });
  });

  it('requests sent before the socket is up are answered once it connects', async () => {
    serve(fake, () => [event({ kind: 10000100, content: '{}' })]);
    const early = api.request('net_stats');
    await connect();
    await vi.advanceTimersByTimeAsync(100);
    expect(await early).toEqual({ events: [{ kind: 10000100, content: '{}' }] });
  });

  it('an in-flight request survives a cache-server restart', async () => {
    await connect();
    let up = false;
    serve(fake, () => (up ? [event({ kind: 1 })] : null));
    const r = api.request('thread_view', { event_id: 'x' });
    await vi.advanceTimersByTimeAsync(0);
    fake.close();
    up = true;
    await vi.advanceTimersByTimeAsync(200);
    fake.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(await r).toEqual({ events: [{ kind: 1 }] });
  });

  it('getHomeFeeds parses the server list', async () => {
    await connect();
    const list = [{ name: 'Legújabb', spec: '{"id":"latest","kind":"notes"}', description: 'x' }, { name: 'Régi', hex: PK }];
    serve(fake, (cmd) => (cmd === 'get_home_feeds' ? [event({ kind: 10000153, content: JSON.stringify(list) })] : []));
    const feeds = await api.getHomeFeeds();
    expect(feeds).toEqual([{ name: 'Legújabb', spec: '{"id":"latest","kind":"notes"}', description: 'x', enabled: true }]);
  });

  it('getHomeFeeds falls back to the built-in Hungarian list on NOTICE or silence', async () => {
    await connect();
    serve(fake, () => [{ type: 'NOTICE', subid: '', message: 'unknown api request' }]);
    expect(await api.getHomeFeeds()).toEqual(FALLBACK_HOME_FEEDS);
    expect(FALLBACK_HOME_FEEDS.map((f) => JSON.parse(f.spec))).toContainEqual({ id: 'all-notes', kind: 'notes' });
    serve(fake, () => null);
    const p = api.getHomeFeeds();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await p).toEqual(FALLBACK_HOME_FEEDS);
  });

  it('openFeed streams throttled snapshots and asks mega_feed_directive', async () => {
    await connect();
    const note = { id: 'b'.repeat(64), pubkey: PK, created_at: 1700000000, kind: 1, tags: [], content: 'szia', sig: '' };
    const seen = serve(fake, () => [
      event(note),
      event({ kind: 0, id: 'c'.repeat(64), pubkey: PK, created_at: 1, tags: [], content: '{"name":"Béla"}', sig: '' }),
      event({ kind: 10000113, content: JSON.stringify({ since: 1700000000, until: 1700000000, order_by: 'created_at', elements: [note.id] }) }),
    ]);
    const snaps: FeedSnapshot[] = [];
    const handle = await api.openFeed('tab1', '{"id":"all-notes","kind":"notes"}', (s) => snaps.push(s));
    await vi.advanceTimersByTimeAsync(100);
    expect(seen[0]).toEqual({ command: 'mega_feed_directive', payload: { spec: '{"id":"all-notes","kind":"notes"}', limit: 20, user_pubkey: DEFAULT_GUEST_PUBKEY } });
    expect(snaps.map((s) => s.status)).toEqual(['loading', 'ready']);
    expect(snaps.at(-1)?.notes[0].author.name).toBe('Béla');
    await api.closeFeed(handle);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(seen).toHaveLength(1);
  });

  it('guests send the configured guest pubkey as user_pubkey', async () => {
    const api2 = createApi({ socket: fake.logic, fetcher });
    await api2.hello('t', { ...CONFIG, guestPubkey: PK });
    fake.open();
    const seen = serve(fake, () => []);
    await api2.openFeed('t', '{"id":"latest","kind":"notes"}', () => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen[0].payload?.user_pubkey).toBe(PK);
    api2.dispose();
  });

  it('a tab silent for 30 s is cleaned up; a heartbeating one is kept', async () => {
    await connect();
    await api.hello('tab2', CONFIG);
    const seen = serve(fake, () => []);
    const s1: SocketSnapshot[] = [];
    await api.watchSocket('tab1', (s) => s1.push(s));
    await api.openFeed('tab1', '{"id":"a"}', () => undefined);
    await api.openFeed('tab2', '{"id":"b"}', () => undefined);
    for (let i = 0; i < 4; i++) {
      await vi.advanceTimersByTimeAsync(10_000);
      await api.heartbeat('tab2');
    }
    // tab1 is gone: its feed no longer polls and its watcher hears nothing.
    const specs = () => seen.filter((r) => r.command === 'mega_feed_directive').map((r) => r.payload?.spec);
    const before = specs().length;
    await vi.advanceTimersByTimeAsync(30_000);
    await api.heartbeat('tab2');
    expect(specs().slice(before)).toEqual(['{"id":"b"}']);
    fake.close();
    expect(s1.at(-1)?.state).toBe('connected');
  });

  it('a tab holding its Web Lock outlives lapsed heartbeats and is closed when the lock is released', async () => {
    // Node has no navigator.locks: a minimal one that grants a waiting request when the holder lets go.
    const held = new Map<string, () => void>();
    const waiting = new Map<string, () => unknown>();
    const locks = {
      request: (name: string, cb: () => unknown) => {
        if (held.has(name)) waiting.set(name, cb);
        else cb();
        return Promise.resolve();
      },
    };
    vi.stubGlobal('navigator', { locks });
    held.set('strucc-tab:tab2', () => undefined);
    try {
      await connect();
      await api.hello('tab2', { ...CONFIG, holdsTabLock: true });
      const seen = serve(fake, () => []);
      await api.openFeed('tab2', '{"id":"b"}', () => undefined);
      const specs = () => seen.filter((r) => r.command === 'mega_feed_directive').map((r) => r.payload?.spec);
      // Two minutes without a heartbeat, as a hidden tab's throttled timers allow: still polled.
      const before = specs().length;
      await vi.advanceTimersByTimeAsync(120_000);
      expect(specs().length).toBeGreaterThan(before);
      // The tab closes: its lock is released, and the worker stops its feed at once.
      held.delete('strucc-tab:tab2');
      waiting.get('strucc-tab:tab2')?.();
      const closedAt = specs().length;
      await vi.advanceTimersByTimeAsync(120_000);
      expect(specs().length).toBe(closedAt);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('subscriptions stream pushes until unsubscribed, and end with their tab', async () => {
    await connect();
    const frames: unknown[][] = [];
    fake.onSend = (d) => frames.push(JSON.parse(d));
    const got: CacheObject[] = [];
    const handle = await api.subscribe!('tab1', 'net_stats', undefined, (e) => got.push(e));
    await vi.advanceTimersByTimeAsync(0);
    const subid = frames[0][1] as string;
    expect(frames[0]).toEqual(['REQ', subid, { cache: ['net_stats'] }]);
    fake.receive({ type: 'EOSE', subid }, { type: 'EVENT', subid, event: { kind: 10000101, content: '{}' } });
    expect(got).toHaveLength(1);
    await api.unsubscribe!(handle);
    await vi.advanceTimersByTimeAsync(0);
    expect(frames.at(-1)).toEqual(['CLOSE', subid]);
    await api.subscribe!('tab1', 'directmsg_count', { pubkey: PK }, () => undefined);
    await api.goodbye('tab1');
    await vi.advanceTimersByTimeAsync(0);
    expect(frames.at(-1)?.[0]).toBe('CLOSE');
  });

  it('goodbye closes a tab at once', async () => {
    await connect();
    const s1: SocketSnapshot[] = [];
    await api.watchSocket('tab1', (s) => s1.push(s));
    await api.goodbye('tab1');
    fake.close();
    expect(s1.map((s) => s.state)).toEqual(['connected']);
  });
});

describe('verifyNip05', () => {
  let api: StruccWorker;
  afterEach(() => api.dispose());

  function withFetch(routes: Record<string, unknown>) {
    const fetcher = vi.fn<Fetcher>(async (url) => {
      if (!(url in routes)) throw new Error(`offline: ${url}`);
      return { ok: true, json: async () => routes[url] };
    });
    api = createApi({ socket: createFakeSocket().logic, fetcher });
    return fetcher;
  }

  it('asks the cache server for its own NIP-05 domain and caches the answer', async () => {
    const fetcher = withFetch({
      'http://127.0.0.1:8800/api/info': { nip05Domain: 'strucc.example', mediaDomain: 'media.strucc.example' },
      'http://127.0.0.1:8800/.well-known/nostr.json?name=bela': { names: { bela: PK } },
    });
    await api.hello('t', CONFIG);
    expect(await api.verifyNip05(PK, 'Bela@strucc.example')).toBe(true);
    expect(await api.verifyNip05(PK, 'bela@strucc.example')).toBe(true);
    expect(fetcher.mock.calls.filter(([u]) => String(u).includes('nostr.json'))).toHaveLength(1);
    expect(await api.verifyNip05('f'.repeat(64), 'bela@strucc.example')).toBe(false);
  });

  it('asks https://domain for other domains, and the root name for a bare domain', async () => {
    withFetch({
      'http://127.0.0.1:8800/api/info': { nip05Domain: 'strucc.example' },
      'https://other.example/.well-known/nostr.json?name=anna': { names: { anna: PK } },
      'https://other.example/.well-known/nostr.json?name=_': { names: { _: PK } },
    });
    await api.hello('t', CONFIG);
    expect(await api.verifyNip05(PK, 'anna@other.example')).toBe(true);
    expect(await api.verifyNip05(PK, 'other.example')).toBe(true);
  });

  it('never throws: unreachable or malformed answers are false', async () => {
    withFetch({ 'https://bad.example/.well-known/nostr.json?name=x': 'not an object' });
    await api.hello('t', CONFIG);
    expect(await api.verifyNip05(PK, 'x@bad.example')).toBe(false);
    expect(await api.verifyNip05(PK, 'y@offline.example')).toBe(false);
    expect(await api.verifyNip05(PK, 'not a nip05 @@')).toBe(false);
  });
});
