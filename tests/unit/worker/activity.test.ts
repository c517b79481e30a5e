import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApi, type StruccWorker } from '../../../worker/api.ts';
import { INACTIVITY_MS, WAKE_UP_MS } from '../../../core/config.ts';
import type { ActivityState, ClientConfig } from '../../../core/types.ts';
import { createFakeSocket } from '../helpers/fakeSocket.ts';
import { fakeWebSockets } from '../helpers/fakeWebSocket.ts';

const BASE: ClientConfig = { cacheServer: 'ws://127.0.0.1:8800/v1', mediaServer: 'http://127.0.0.1:8800', noBinary: true, devMode: false };
const FAST = { sleepMs: 2000, wakeMs: 1000 };

/** A worker greeted by a tab with this config, and the activity states it goes through. */
async function start(config: ClientConfig): Promise<{ api: StruccWorker; states: ActivityState[] }> {
  const api = createApi({ socket: createFakeSocket().logic, relaySocketFactory: fakeWebSockets().factory });
  await api.hello('tab1', config);
  const states: ActivityState[] = [];
  await api.watchActivity?.('tab1', (s) => states.push(s.state));
  // Timings apply from the next report, as a tab's opening report does in the browser.
  await api.reportActivity?.('tab1');
  return { api, states };
}

/** Moves time on while the tab keeps its heartbeat, so the worker does not drop it as closed. */
async function advance(api: StruccWorker, ms: number): Promise<void> {
  for (let left = ms; left > 0; left -= 10_000) {
    await api.heartbeat('tab1');
    await vi.advanceTimersByTimeAsync(Math.min(left, 10_000));
  }
}

describe('activity timings from ClientConfig (devMode only)', () => {
  let api: StruccWorker | undefined;
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    api?.dispose();
    api = undefined;
    vi.useRealTimers();
  });

  it('a devMode tab shortens sleep and wake', async () => {
    const run = await start({ ...BASE, devMode: true, activityTimings: FAST });
    api = run.api;
    await advance(api, FAST.sleepMs);
    expect(run.states.at(-1)).toBe('sleeping');
    await api.reportActivity?.('tab1');
    expect(run.states.at(-1)).toBe('waking');
    await advance(api, FAST.wakeMs);
    expect(run.states.at(-1)).toBe('woke');
  });

  it('without devMode the spec timings stay: 5 minutes to sleep, 36 s to wake', async () => {
    const run = await start({ ...BASE, activityTimings: FAST });
    api = run.api;
    await advance(api, INACTIVITY_MS - 1);
    expect(run.states.at(-1)).toBe('woke');
    await advance(api, 1);
    expect(run.states.at(-1)).toBe('sleeping');
    await api.reportActivity?.('tab1');
    await advance(api, WAKE_UP_MS - 1);
    expect(run.states.at(-1)).toBe('waking');
    await advance(api, 1);
    expect(run.states.at(-1)).toBe('woke');
  });
});
