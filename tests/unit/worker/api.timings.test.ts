import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApi, type StruccWorker } from '../../../worker/api.ts';
import { FEED_POLL_INTERVAL_MS, REQUEST_TIMEOUT_MS } from '../../../core/config.ts';
import type { ClientConfig } from '../../../core/types.ts';
import { createFakeSocket, type FakeSocket } from '../helpers/fakeSocket.ts';
import { fakeWebSockets } from '../helpers/fakeWebSocket.ts';

const BASE: ClientConfig = { cacheServer: 'ws://127.0.0.1:8800/v1', mediaServer: 'http://127.0.0.1:8800', noBinary: true, devMode: false };
const FAST = { feedPollMs: 2000, requestTimeoutMs: 1000 };
const SPEC = JSON.stringify({ id: 'latest', kind: 'notes' });

const frames = (fake: FakeSocket) => fake.sent.map((d) => JSON.parse(d) as unknown[]);
const feedReqs = (fake: FakeSocket) => frames(fake).filter((f) => f[0] === 'REQ' && JSON.stringify(f[2]).includes('mega_feed_directive'));
const closed = (fake: FakeSocket, subid: unknown) => frames(fake).some((f) => f[0] === 'CLOSE' && f[1] === subid);

/** A worker greeted by one tab with `config`, its cache socket open; `answer` says whether the server replies. */
async function start(config: ClientConfig, answer: boolean): Promise<{ api: StruccWorker; fake: FakeSocket }> {
  const fake = createFakeSocket();
  const api = createApi({ socket: fake.logic, relaySocketFactory: fakeWebSockets().factory });
  await api.hello('tab1', config);
  fake.open();
  if (answer) {
    // An empty page at once for every request: the feed is loaded and starts polling.
    fake.onSend = (data) => {
      const f = JSON.parse(data) as unknown[];
      if (f[0] === 'REQ') fake.receive({ type: 'EOSE', subid: f[1] as string });
    };
  }
  await api.openFeed('tab1', SPEC, () => undefined);
  await vi.advanceTimersByTimeAsync(0);
  return { api, fake };
}

describe('devTimings from ClientConfig (devMode only)', () => {
  let api: StruccWorker | undefined;
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    api?.dispose();
    api = undefined;
    vi.useRealTimers();
  });

  it('a devMode tab shortens the feed poll', async () => {
    const run = await start({ ...BASE, devMode: true, devTimings: FAST }, true);
    api = run.api;
    expect(feedReqs(run.fake)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(FAST.feedPollMs);
    expect(feedReqs(run.fake)).toHaveLength(2);
  });

  it('without devMode the feed polls every 30 s', async () => {
    const run = await start({ ...BASE, devTimings: FAST }, true);
    api = run.api;
    await vi.advanceTimersByTimeAsync(FEED_POLL_INTERVAL_MS - 1);
    expect(feedReqs(run.fake)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(feedReqs(run.fake)).toHaveLength(2);
  });

  it('a devMode tab shortens the request timeout; without devMode it stays 20 s', async () => {
    const fast = await start({ ...BASE, devMode: true, devTimings: FAST }, false);
    api = fast.api;
    const [req] = feedReqs(fast.fake);
    await vi.advanceTimersByTimeAsync(FAST.requestTimeoutMs - 1);
    expect(closed(fast.fake, req[1])).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(closed(fast.fake, req[1])).toBe(true);
    api.dispose();

    const slow = await start({ ...BASE, devTimings: FAST }, false);
    api = slow.api;
    const [slowReq] = feedReqs(slow.fake);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(closed(slow.fake, slowReq[1])).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(closed(slow.fake, slowReq[1])).toBe(true);
  });
});
