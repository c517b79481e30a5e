import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium.ts';
import { base } from './support/base.ts';


async function cacheConnections(): Promise<number> {
  const res = await fetch(`${base()}/api/status`);
  return ((await res.json()) as { cacheConnections: number }).cacheConnections;
}

/** Rows in one store of the worker's IndexedDB cache, read from the page (same origin, same database). */
function cachedRows(page: Page, store: 'pages' | 'lists' | 'profiles'): Promise<number> {
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('strucc-cache');
        open.onerror = () => resolve(0);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(name)) {
            db.close();
            resolve(0);
            return;
          }
          const count = db.transaction(name).objectStore(name).count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
          count.onerror = () => resolve(0);
        };
      }),
    store,
  );
}

const noteIds = (page: Page) =>
  page.locator('[data-note-id]').evaluateAll((els) => els.map((el) => el.getAttribute('data-note-id') ?? ''));

test('a second visit in the same browser profile paints the last feed while the cache server is unreachable', async () => {
  const profileDir = await mkdtemp(join(tmpdir(), 'strucc-warm-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    locale: 'hu-HU',
    timezoneId: 'Europe/Budapest',
  });
  try {
    // Earlier tests' workers may still be closing their sockets.
    await expect.poll(cacheConnections).toBe(0);

    const first = await context.newPage();
    await first.goto(`${base()}/home`);
    await expect(first.locator('[data-note-id]').first()).toBeVisible();
    const seen = await noteIds(first);
    const author = (await first.locator('[data-note-id] .note-author').first().innerText()).trim();
    expect(seen.length).toBeGreaterThan(0);
    // The worker keeps the page and the feed list as soon as the network answers.
    await expect.poll(() => cachedRows(first, 'pages')).toBeGreaterThan(0);
    await expect.poll(() => cachedRows(first, 'lists')).toBe(1);
    await expect.poll(() => cachedRows(first, 'profiles')).toBeGreaterThan(0);
    await first.close();
    // The last tab is gone, so is the shared worker and its one socket.
    await expect.poll(cacheConnections).toBe(0);

    const second = await context.newPage();
    // Nothing listens on port 9: the new worker's cache socket never opens.
    await second.addInitScript(() => {
      localStorage.setItem('cacheServer', 'ws://127.0.0.1:9/v1');
      // window.strucc, to see the worker's socket give up on it.
      localStorage.setItem('devMode', 'true');
    });
    await second.goto(`${base()}/home`);
    await expect(second.locator('[data-note-id]').first()).toBeVisible({ timeout: 5000 });
    const painted = await noteIds(second);
    expect(painted[0]).toBe(seen[0]);
    expect(painted.slice(0, 3)).toEqual(seen.slice(0, 3));
    // The cards are whole: the first one names the author the network showed.
    await expect(second.locator('[data-note-id] .note-author').first()).toHaveText(author);
    expect(await cacheConnections()).toBe(0);
    // They stay: no error page or skeleton replaces them once the worker found the server away (its
    // socket failed to open and waits to retry).
    await second.waitForFunction(() => window.strucc !== undefined);
    const socketState = await second.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const { api, tabId, proxy } = window.strucc as unknown as { api: { watchSocket(tab: string, cb: (s: { state: string }) => void): Promise<number> }; tabId: string; proxy: <T>(f: T) => T };
          void api.watchSocket(
            tabId,
            proxy((snap: { state: string }) => {
              if (snap.state === 'waiting') resolve(snap.state);
            }),
          );
        }),
    );
    expect(socketState).toBe('waiting');
    await expect(second.locator('[data-note-id]').first()).toHaveAttribute('data-note-id', seen[0]);
    await expect(second.getByRole('feed')).toBeVisible();
  } finally {
    await context.close();
    await rm(profileDir, { recursive: true, force: true });
  }
});

test('a revisit of /home paints the kept copy of the last screen before the app loads, and the app replaces it', async () => {
  const profileDir = await mkdtemp(join(tmpdir(), 'strucc-copy-'));
  const viewport = { width: 1280, height: 800 };
  // The test withholds the entry module by routing it away; a service worker would answer it from
  // its cache (pwa.spec.ts covers that), so this profile runs without one.
  const context = await chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, viewport, serviceWorkers: 'block' });
  try {
    const first = await context.newPage();
    await first.goto(`${base()}/home`);
    await expect(first.locator('[data-note-id]').first()).toBeVisible();
    const seen = await noteIds(first);
    // Kept once the network's notes have settled, without waiting for the tab to be closed.
    await expect
      .poll(() => first.evaluate(() => localStorage.getItem('strucc:paintedCopy') !== null), { timeout: 15_000 })
      .toBe(true);
    await first.close();

    // The app's entry module never arrives: whatever shows a note now is the copy alone.
    const still = await context.newPage();
    await still.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort());
    await still.goto(`${base()}/home`);
    const copy = still.locator('#root > [data-painted-copy]');
    await expect(copy.locator('[data-note-id]').first()).toBeVisible();
    expect((await noteIds(still))[0]).toBe(seen[0]);
    // A still picture: inert, styled by the feed's own stylesheets, with nothing that plays or runs.
    await expect(copy).toHaveAttribute('inert', '');
    expect(await copy.locator('script, iframe, video, audio, object, embed, [role="dialog"]').count()).toBe(0);
    // No app code ran, so the feed's lazily loaded stylesheets are in only because the copy asked for them.
    const styles = await still.evaluate(() => [...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => l.getAttribute('href') ?? ''));
    expect(styles.some((href) => /\/assets\/NoteStats-[\w-]+\.css$/.test(href))).toBe(true);
    // Rows the window could not show were left out of it.
    expect(await copy.locator('[role="feed"] > [data-index]').count()).toBeLessThan(seen.length);
    // The rows keep their places: their transforms came back through CSSOM (the CSP refuses style attributes).
    const offsets = await copy.locator('[role="feed"] > [data-index]').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).style.transform));
    expect(offsets.length).toBeGreaterThan(1);
    expect(offsets.every((t) => /^translateY\(\d+(\.\d+)?px\)$/.test(t))).toBe(true);
    expect(new Set(offsets).size).toBe(offsets.length);
    expect(await copy.locator('[data-painted-style]').count()).toBe(0);
    // An app that never comes does not leave a screen that looks alive and does nothing.
    await expect(copy).toHaveCount(0, { timeout: 15_000 });
    await still.close();

    // With the app, its own render takes the copy's place and the screen is live.
    const live = await context.newPage();
    await live.goto(`${base()}/home`);
    await expect(live.locator('#root > [data-painted-copy]')).toHaveCount(0);
    await expect(live.locator('#root > .app-shell [data-note-id]').first()).toBeVisible();
    expect((await noteIds(live))[0]).toBe(seen[0]);
    await live.close();

    // Another window width would lay the rows out differently: no copy is painted.
    const narrow = await context.newPage();
    await narrow.setViewportSize({ width: 900, height: 800 });
    await narrow.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort());
    await narrow.goto(`${base()}/home`);
    await narrow.waitForLoadState('load');
    await expect(narrow.locator('[data-painted-copy]')).toHaveCount(0);
    await narrow.close();
  } finally {
    await context.close();
    await rm(profileDir, { recursive: true, force: true });
  }
});
