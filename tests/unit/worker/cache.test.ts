import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CacheClient } from '../../../worker/cache.ts';
import type { CacheObject } from '../../../core/types.ts';

/** A transport that records frames; `connected` is flipped by the test like the socket machine would. */
function transport() {
  const t = { sent: [] as unknown[][], connected: true };
  return {
    t,
    link: { send: (d: string) => t.sent.push(JSON.parse(d)), isConnected: () => t.connected },
  };
}

const reqs = (sent: unknown[][]) => sent.filter((f) => f[0] === 'REQ');
const closes = (sent: unknown[][]) => sent.filter((f) => f[0] === 'CLOSE').map((f) => f[1]);
const obj = (n: number): CacheObject => ({ kind: 10000100, content: String(n) });

describe('CacheClient', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends a REQ with a unique subid and resolves with the events at EOSE, then CLOSEs', async () => {
    const { t, link } = transport();
    const c = new CacheClient(link, { prefix: 'p' });
    const a = c.request('user_infos', { pubkeys: ['x'] });
    const b = c.request('get_home_feeds');
    const [ra, rb] = reqs(t.sent);
    expect(ra[1]).not.toBe(rb[1]);
    expect(ra[2]).toEqual({ cache: ['user_infos', { pubkeys: ['x'] }] });
    expect(rb[2]).toEqual({ cache: ['get_home_feeds'] });
    const sa = ra[1] as string, sb = rb[1] as string;
    // Replies of different requests interleave freely; each keeps its own.
    c.handle([
      { type: 'EVENT', subid: sb, event: obj(1) },
      { type: 'EVENT', subid: sa, event: obj(2) },
      { type: 'EOSE', subid: sb },
      { type: 'EVENT', subid: sa, event: obj(3) },
      { type: 'EOSE', subid: sa },
    ]);
    expect(await a).toEqual({ events: [obj(2), obj(3)] });
    expect(await b).toEqual({ events: [obj(1)] });
    expect(closes(t.sent)).toEqual([sb, sa]);
    expect(c.inFlight).toBe(0);
  });

  it('a NOTICE sets notice on the reply', async () => {
    const { t, link } = transport();
    const c = new CacheClient(link);
    const r = c.request('nope');
    const subid = reqs(t.sent)[0][1] as string;
    c.handle([{ type: 'NOTICE', subid, message: 'unknown api request' }, { type: 'EOSE', subid }]);
    expect(await r).toEqual({ events: [], notice: 'unknown api request' });
  });

  it('resolves with notice "timeout" instead of hanging', async () => {
    const { t, link } = transport();
    const c = new CacheClient(link, { timeoutMs: 20_000 });
    const r = c.request('slow');
    const subid = reqs(t.sent)[0][1] as string;
    c.handle([{ type: 'EVENT', subid, event: obj(1) }]);
    vi.advanceTimersByTime(19_999);
    expect(c.inFlight).toBe(1);
    vi.advanceTimersByTime(1);
    expect(await r).toEqual({ events: [obj(1)], notice: 'timeout' });
    expect(closes(t.sent)).toEqual([subid]);
    // A late answer is ignored.
    c.handle([{ type: 'EOSE', subid }]);
    expect(closes(t.sent)).toEqual([subid]);
  });

  it('re-sends in-flight requests after a reconnect so a restarting server still answers', async () => {
    const { t, link } = transport();
    const c = new CacheClient(link);
    c.onConnected();
    const r = c.request('thread_view', { event_id: 'e' });
    const first = reqs(t.sent)[0];
    const subid = first[1] as string;
    c.handle([{ type: 'EVENT', subid, event: obj(1) }]);
    // The socket drops mid-answer and comes back.
    t.connected = false;
    t.connected = true;
    c.onConnected();
    expect(reqs(t.sent)).toEqual([first, first]);
    c.handle([{ type: 'EVENT', subid, event: obj(1) }, { type: 'EOSE', subid }]);
    expect(await r).toEqual({ events: [obj(1)] });
  });

  it('does not send twice a request handed over while disconnected (the socket queue delivers it)', () => {
    const { t, link } = transport();
    const c = new CacheClient(link);
    c.onConnected();
    t.connected = false;
    c.request('a');
    expect(reqs(t.sent)).toHaveLength(1);
    t.connected = true;
    c.onConnected();
    expect(reqs(t.sent)).toHaveLength(1);
    // ...but if that connection dies too, it is sent again on the next one.
    c.onConnected();
    expect(reqs(t.sent)).toHaveLength(2);
  });

  it('subscriptions keep delivering after EOSE until closed, and are re-sent on reconnect', () => {
    const { t, link } = transport();
    const c = new CacheClient(link);
    c.onConnected();
    const got: CacheObject[] = [];
    const onEose = vi.fn();
    const sub = c.subscribe('net_stats', undefined, { onEvent: (e) => got.push(e), onEose });
    const subid = sub.subid;
    expect(reqs(t.sent)[0]).toEqual(['REQ', subid, { cache: ['net_stats'] }]);
    c.handle([{ type: 'EOSE', subid }, { type: 'EVENT', subid, event: obj(1) }, { type: 'EVENT', subid, event: obj(2) }]);
    expect(onEose).toHaveBeenCalledTimes(1);
    expect(got).toEqual([obj(1), obj(2)]);
    vi.advanceTimersByTime(60_000);
    c.onConnected();
    expect(reqs(t.sent)).toHaveLength(2);
    sub.close();
    expect(closes(t.sent)).toEqual([subid]);
    c.handle([{ type: 'EVENT', subid, event: obj(3) }]);
    expect(got).toHaveLength(2);
    sub.close();
    expect(closes(t.sent)).toHaveLength(1);
  });

  it('ignores replies for unknown subids', () => {
    const { link } = transport();
    const c = new CacheClient(link);
    expect(() => c.handle([{ type: 'EOSE', subid: 'set_protocol_x' }, { type: 'EVENT', subid: '?', event: obj(1) }])).not.toThrow();
  });
});
