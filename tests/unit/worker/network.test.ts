import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateSecretKey } from 'nostr-tools/pure';
import { signEvent } from '../../support/sign.ts';
import { createApi, type StruccWorker } from '../../../worker/api.ts';
import { CONNECT_GRACE_MS, parseBroadcastReply } from '../../../worker/publish.ts';
import type { ActivitySnapshot, ClientConfig, NostrEvent, RelayInfo, UnsignedEvent } from '../../../core/types.ts';
import { createFakeSocket, type FakeSocket } from '../helpers/fakeSocket.ts';
import { fakeWebSockets } from '../helpers/fakeWebSocket.ts';

const CONFIG: ClientConfig = { cacheServer: 'ws://127.0.0.1:8800/v1', mediaServer: 'http://127.0.0.1:8800', noBinary: true, devMode: false };
const A = 'wss://a.example';
const B = 'wss://b.example';
const key = generateSecretKey();
const note = (): UnsignedEvent => ({ kind: 1, tags: [], content: 'helló', created_at: 1_700_000_000 });
const sign = (t: UnsignedEvent): NostrEvent => signEvent(key, t);

/** Answers cache REQs by command; returns what was asked. */
function serveCache(fake: FakeSocket, answer: (command: string, payload: Record<string, unknown>) => unknown[] | null) {
  const seen: { command: string; payload: Record<string, unknown> }[] = [];
  fake.onSend = (data) => {
    const frame = JSON.parse(data) as [string, string, { cache: [string, Record<string, unknown>] }];
    if (frame[0] !== 'REQ') return;
    const [command, payload] = frame[2].cache;
    seen.push({ command, payload });
    const out = answer(command, payload);
    if (!out) return;
    fake.receive(...out.map((event) => ({ type: 'EVENT' as const, subid: frame[1], event: event as { kind: number } })), { type: 'EOSE', subid: frame[1] });
  };
  return seen;
}

describe('worker network api (relays, publish, activity)', () => {
  let cacheSocket: FakeSocket;
  let ws: ReturnType<typeof fakeWebSockets>;
  let api: StruccWorker;

  beforeEach(async () => {
    vi.useFakeTimers();
    cacheSocket = createFakeSocket();
    ws = fakeWebSockets();
    api = createApi({ socket: cacheSocket.logic, relaySocketFactory: ws.factory });
    await api.hello('tab1', CONFIG);
    cacheSocket.open();
  });
  afterEach(() => {
    api.dispose();
    vi.useRealTimers();
  });

  it('adds relays, refuses invalid URLs and streams pool snapshots to watchers', async () => {
    expect(await api.addRelay?.('http://nope.example')).toEqual({ ok: false, error: 'Érvénytelen URL' });
    const seen: RelayInfo[][] = [];
    await api.watchRelays?.('tab1', (s) => seen.push(s));
    expect(seen[0]).toEqual([]);
    expect(await api.addRelay?.(`${A}/`)).toEqual({ ok: true, url: A });
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.at(-1)).toEqual([{ url: A, state: 'connecting', read: true, write: true, attempts: 0 }]);
    ws.last(A)?.open();
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.at(-1)?.[0].state).toBe('connected');
    await api.removeRelay?.(A);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen.at(-1)).toEqual([]);
  });

  it('setRelays takes a 10002 event; two tabs share one socket per relay', async () => {
    const list = sign({ kind: 10002, tags: [['r', A, 'write'], ['r', B]], content: '', created_at: 1 });
    const infos = await api.setRelays?.(list);
    expect(infos?.map((r) => [r.url, r.read, r.write])).toEqual([
      [A, false, true],
      [B, true, true],
    ]);
    await api.hello('tab2', CONFIG);
    await api.addRelay?.(A);
    expect(ws.sockets.map((s) => s.url)).toEqual([A, B]);
  });

  it('publishes a signed event to the write relays, succeeds on one OK and imports it', async () => {
    const imports = serveCache(cacheSocket, (cmd) => (cmd === 'import_events' ? [{ kind: 10000127, content: '{"imported":1}' }] : []));
    await api.addRelay?.(A);
    await api.addRelay?.(B);
    ws.last(A)?.open();
    ws.last(B)?.open();
    const event = sign(note());
    // B refuses at once, A accepts a moment later.
    ws.last(A)!.onFrame = (f) => f[0] === 'EVENT' && setTimeout(() => ws.last(A)?.reply('OK', event.id, true, ''), 5);
    ws.last(B)!.onFrame = (f) => f[0] === 'EVENT' && ws.last(B)?.reply('OK', event.id, false, 'blocked: no');
    const result = api.publish!(event);
    await vi.advanceTimersByTimeAsync(10);
    expect(await result).toMatchObject({ success: true, outcome: 'published', reasons: { [B]: 'blocked: no' } });
    // A published note is also shown in every tab's feeds, whose card asks once for the author's profile.
    expect(imports.map((r) => r.command).sort()).toEqual(['import_events', 'user_infos']);
    expect(imports.find((r) => r.command === 'user_infos')?.payload).toEqual({ pubkeys: [event.pubkey] });
    expect((imports.find((r) => r.command === 'import_events')?.payload.events as NostrEvent[])[0].id).toBe(event.id);
  });

  it('settles at the first accept; a silent relay and one still connecting get the event all the same', async () => {
    serveCache(cacheSocket, () => []);
    const C = 'wss://c.example';
    await api.addRelay?.(A);
    await api.addRelay?.(B);
    await api.addRelay?.(C);
    ws.last(A)?.open();
    ws.last(B)?.open();
    const event = sign(note());
    ws.last(A)!.onFrame = (f) => f[0] === 'EVENT' && ws.last(A)?.reply('OK', event.id, true, '');
    const result = api.publish!(event);
    await vi.advanceTimersByTimeAsync(10);
    expect(await result).toMatchObject({ success: true, outcome: 'published', reasons: {} });
    // B never answers, C was still connecting: both still get the note once they can.
    expect(ws.last(B)?.sent.some((f) => f[0] === 'EVENT')).toBe(true);
    ws.last(C)?.open();
    await vi.advanceTimersByTimeAsync(10);
    expect(ws.last(C)?.sent.some((f) => f[0] === 'EVENT' && (f[1] as NostrEvent).id === event.id)).toBe(true);
  });

  it('signs templates with the signer the login service set, and refuses a forged signature', async () => {
    serveCache(cacheSocket, () => []);
    await api.addRelay?.(A);
    ws.last(A)?.open();
    ws.last(A)!.onFrame = (f) => f[0] === 'EVENT' && ws.last(A)?.reply('OK', (f[1] as NostrEvent).id, true, '');
    const unsigned = await api.publish!(note());
    expect(unsigned).toMatchObject({ success: false, outcome: 'not-signed', reasons: { '*': 'event_not_signed' } });
    api.setSigner(async (t) => sign(t));
    const signed = api.publish!(note());
    await vi.advanceTimersByTimeAsync(10);
    expect(await signed).toMatchObject({ success: true });
    const forged = { ...sign(note()), content: 'changed' };
    expect(await api.publish!(forged)).toMatchObject({ success: false, reasons: { '*': 'event-sig-not-verified' } });
  });

  it('no write relay connects within the grace period: the no-relays outcome', async () => {
    await api.addRelay?.(A);
    const result = api.publish!(sign(note()));
    await vi.advanceTimersByTimeAsync(CONNECT_GRACE_MS + 200);
    expect(await result).toMatchObject({ success: false, outcome: 'no-relays' });
  });

  it('a write relay that connects during the grace period gets the event', async () => {
    serveCache(cacheSocket, () => []);
    await api.addRelay?.(A);
    const event = sign(note());
    const result = api.publish!(event);
    await vi.advanceTimersByTimeAsync(500);
    ws.last(A)?.open();
    ws.last(A)!.onFrame = (f) => f[0] === 'EVENT' && ws.last(A)?.reply('OK', event.id, true, '');
    await vi.advanceTimersByTimeAsync(200);
    expect(await result).toMatchObject({ success: true, outcome: 'published' });
  });

  it('a relay that is not connected reports failed, a drop before OK No publish confirmation', async () => {
    serveCache(cacheSocket, () => []);
    await api.addRelay?.(A);
    await api.addRelay?.(B);
    ws.last(A)?.open();
    ws.last(B)?.drop();
    const event = sign(note());
    ws.last(A)!.onFrame = (f) => f[0] === 'EVENT' && ws.last(A)?.drop();
    const result = await api.publish!(event);
    expect(result).toMatchObject({ success: false, outcome: 'failed', reasons: { [A]: 'No publish confirmation', [B]: 'failed' } });
  });

  it('proxying suspends the relays and publishes with broadcast_events; off reconnects them', async () => {
    await api.addRelay?.(A);
    ws.last(A)?.open();
    const event = sign(note());
    const seen = serveCache(cacheSocket, (cmd) =>
      cmd === 'broadcast_events'
        ? [{ kind: 10000149, content: JSON.stringify([{ event_id: event.id, responses: [[A, ['OK', event.id, true, '']]] }]) }]
        : [],
    );
    await api.setProxy?.(true);
    expect(ws.last(A)?.readyState).toBe(3);
    const result = api.publish!(event);
    await vi.advanceTimersByTimeAsync(10);
    expect(await result).toMatchObject({ success: true, reasons: {} });
    expect(seen.map((s) => s.command).filter((c) => c !== 'user_infos')).toEqual(['broadcast_events', 'import_events']);
    expect(seen[0].payload).toEqual({ events: [JSON.parse(JSON.stringify(event))], relays: [A] });
    await api.setProxy?.(false);
    expect(ws.sockets.filter((s) => s.url === A)).toHaveLength(2);
  });

  it('sleeps after 5 silent minutes (cache socket closed, relays suspended) and wakes on any tab', async () => {
    await api.addRelay?.(A);
    ws.last(A)?.open();
    // Watched afresh each time: without heartbeats a test tab counts as closed after 30 s.
    const activity = async () => {
      let snap: ActivitySnapshot | undefined;
      await api.watchActivity?.('tab1', (s) => (snap = s));
      return snap;
    };
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    await api.reportActivity?.('tab1');
    await vi.advanceTimersByTimeAsync(5 * 60_000 - 1);
    expect(cacheSocket.alive()).toBe(true);
    expect(await activity()).toEqual({ state: 'woke', proxy: false });
    await vi.advanceTimersByTimeAsync(1);
    expect(await activity()).toEqual({ state: 'sleeping', proxy: false });
    expect(cacheSocket.alive()).toBe(false);
    expect(ws.last(A)?.readyState).toBe(3);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(cacheSocket.opened).toBe(1);
    await api.reportActivity?.('tab2');
    expect((await activity())?.state).toBe('waking');
    expect(cacheSocket.opened).toBe(2);
    expect(ws.sockets.filter((s) => s.url === A)).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(36_000);
    expect((await activity())?.state).toBe('woke');
  });

  it('waking retries a relay that reached its attempt limit', async () => {
    await api.addRelay?.(A);
    for (let i = 0; i < 4; i++) {
      ws.last(A)?.drop();
      await vi.advanceTimersByTimeAsync(4000);
    }
    let relays: RelayInfo[] = [];
    await api.watchRelays?.('tab1', (s) => (relays = s));
    expect(relays[0]).toMatchObject({ state: 'failed', error: 'Reached atempt limit', attempts: 3 });
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    await api.reportActivity?.('tab1');
    expect(ws.sockets).toHaveLength(5);
    ws.last(A)?.open();
    await api.watchRelays?.('tab1', (s) => (relays = s));
    expect(relays[0]).toEqual({ url: A, state: 'connected', read: true, write: true, attempts: 0 });
  });

  it('asleep with proxying on, the relays were suspended by the proxy and stay so on wake', async () => {
    await api.addRelay?.(A);
    ws.last(A)?.open();
    await api.setProxy?.(true);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(cacheSocket.alive()).toBe(false);
    await api.reportActivity?.('tab1');
    expect(cacheSocket.opened).toBe(2);
    expect(ws.sockets).toHaveLength(1);
  });

  it('a closing tab leaves no watcher or relay subscription behind', async () => {
    await api.addRelay?.(A);
    ws.last(A)?.open();
    const events: NostrEvent[] = [];
    await api.subscribeRelays?.('tab1', [{ kinds: [1] }], (e) => events.push(e));
    const req = ws.last(A)?.sent.at(-1);
    expect(req?.[0]).toBe('REQ');
    const ev = sign(note());
    ws.last(A)?.reply('EVENT', req?.[1], ev);
    ws.last(A)?.reply('EVENT', req?.[1], ev);
    expect(events.map((e) => e.id)).toEqual([ev.id]);
    await api.goodbye('tab1');
    expect(ws.last(A)?.sent.at(-1)).toEqual(['CLOSE', req?.[1]]);
  });
});

describe('broadcast_events reply', () => {
  it('reads the plausible response shapes', () => {
    const reply = {
      events: [
        {
          kind: 10000149,
          content: JSON.stringify([
            { event_id: 'x', responses: [[A, ['OK', 'x', true, '']], [B, false, 'blocked'], { relay: 'wss://c.example', ok: false, message: 'nope' }] },
            { event_id: 'other', responses: [[A, false, 'not this one']] },
          ]),
        },
      ],
    };
    expect(parseBroadcastReply(reply, 'x', [A, B])).toEqual([
      { relay: A, ok: true, message: '' },
      { relay: B, ok: false, message: 'blocked' },
      { relay: 'wss://c.example', ok: false, message: 'nope' },
    ]);
    const ordered = { events: [{ kind: 10000149, content: JSON.stringify([{ event_id: 'x', responses: [['OK', 'x', true, ''], ['OK', 'x', false, 'no']] }]) }] };
    expect(parseBroadcastReply(ordered, 'x', [A, B])).toEqual([
      { relay: A, ok: true, message: '' },
      { relay: B, ok: false, message: 'no' },
    ]);
    expect(parseBroadcastReply({ events: [{ kind: 10000149, content: 'garbage' }] }, 'x', [A])).toEqual([]);
  });
});
