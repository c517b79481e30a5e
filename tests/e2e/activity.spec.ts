import { expect, test, type Page } from '@playwright/test';
import { ACTIVITY_REPORT_THROTTLE_MS } from '../../core/config.ts';
import type { ActivitySnapshot, ActivityState, StruccApi } from '../../core/types.ts';
import type { StruccDevtools } from '../../src/lib/devtools.ts';
import { enableDevMode } from './support/nip07-stub.ts';
import { base } from './support/base.ts';


async function cacheConnections(): Promise<number> {
  const res = await fetch(`${base()}/api/status`);
  return ((await res.json()) as { cacheConnections: number }).cacheConnections;
}

/**
 * Test-speed timings (devMode only): the worker runs in its own thread, out of reach of the page
 * clock, so its own sleep and wake delays are shortened; the page clock decides when a tab reports.
 */
const TIMINGS = { sleepMs: 6000, wakeMs: 3000 };

type Driven = Required<StruccApi>;
type Recorder = Window & { activityStates?: ActivityState[] };

/** Every activity state the worker announces, in order, kept on the page for the test to read. */
async function recordActivity(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const { api, tabId, proxy } = window.strucc as StruccDevtools & { api: Driven };
    const w = window as Recorder;
    w.activityStates = [];
    await api.watchActivity(tabId, proxy((s: ActivitySnapshot) => void w.activityStates?.push(s.state)));
  });
}

const recorded = (page: Page) => page.evaluate(() => (window as Recorder).activityStates ?? []);

/**
 * The worker's state after every message this tab sent before: the tab's activity reports and this
 * call share one port, so the answer reflects any report the last input caused.
 */
function activityNow(page: Page): Promise<ActivityState> {
  return page.evaluate(async () => {
    const { api, tabId, proxy } = window.strucc as StruccDevtools & { api: Driven };
    let handle = 0;
    const state = await new Promise<ActivityState>((resolve) => {
      void api.watchActivity(tabId, proxy((s: ActivitySnapshot) => resolve(s.state))).then((h) => (handle = h));
    });
    if (handle) await api.unwatchActivity(handle);
    return state;
  });
}

test('idle tabs put the worker to sleep and close the socket; activity wakes it, reconnects, then it is woke', async ({ context }) => {
  await expect.poll(cacheConnections).toBe(0);
  await enableDevMode(context, TIMINGS);
  const tabs: Page[] = [];
  for (let i = 0; i < 2; i++) {
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(`${base()}/home`);
    await page.waitForFunction(() => window.strucc !== undefined);
    tabs.push(page);
  }
  const [a, b] = tabs;
  await recordActivity(a);
  await expect.poll(cacheConnections).toBe(1);

  // From here no tab's time moves by itself: each tab's last report stays within the throttle window.
  for (const page of tabs) await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);

  await expect.poll(() => recorded(a)).toContain('sleeping');
  await expect.poll(cacheConnections).toBe(0);

  // Within the tab's report throttle a mouse move is not reported, so the worker sleeps on.
  await b.mouse.move(200, 200);
  expect(await activityNow(b)).toBe('sleeping');

  // Once the page clock has passed the throttle, the same kind of move reaches the worker.
  await b.clock.fastForward(ACTIVITY_REPORT_THROTTLE_MS);
  await b.mouse.move(300, 260);
  expect(await activityNow(b)).not.toBe('sleeping');
  await expect.poll(cacheConnections).toBe(1);
  await expect.poll(() => recorded(a)).toEqual(['woke', 'sleeping', 'waking', 'woke']);
  expect(await activityNow(a)).toBe('woke');
  expect(await cacheConnections()).toBe(1);
});
