import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, expect, test, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium.ts';
import { startServerProcess } from '../support/server-process.ts';
import { generateSecretKey } from 'nostr-tools/pure';
import { signIn } from './support/session.ts';
import { base } from './support/base.ts';

// The installable app: manifest, service worker, offline revisit and the update of a new build.
// http://127.0.0.1 is a secure context, so the service worker runs as it would over HTTPS.

const DIST = resolve(process.env.DIST_DIR ?? 'dist');

interface Manifest {
  name: string;
  short_name: string;
  description: string;
  lang: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
  shortcuts: { name: string; url: string }[];
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

/** The service worker controlling the page once it has installed and activated. */
async function controlled(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? ''), { timeout: 30_000 })
    .toMatch(/\/sw\.js$/);
}

const buildOf = (page: Page) => page.locator('meta[name="strucc-build"]').getAttribute('content');

/** Every cache of the origin with the paths it holds. */
function cacheContents(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const out: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search);
    }
    return out;
  });
}

function cachedRows(page: Page, store: string): Promise<number> {
  return page.evaluate(
    (name) =>
      new Promise<number>((done) => {
        const open = indexedDB.open('strucc-cache');
        open.onerror = () => done(0);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(name)) return done((db.close(), 0));
          const count = db.transaction(name).objectStore(name).count();
          count.onsuccess = () => done((db.close(), count.result));
          count.onerror = () => done(0);
        };
      }),
    store,
  );
}

test('Strucc is installable: manifest, icons, and a service worker with a fetch handler controlling the page', async () => {
  // Installability is not reported for off-the-record profiles, so this one has a real profile dir.
  const profileDir = mkdtempSync(join(tmpdir(), 'strucc-pwa-'));
  const context = await chromium.launchPersistentContext(profileDir, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, locale: 'hu-HU' });
  try {
    const page = await context.newPage();
    await page.goto(`${base()}/home`);
    expect(await page.evaluate(() => window.isSecureContext)).toBe(true);

    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifestUrl = new URL(href!, base()).href;
    const res = await page.request.get(manifestUrl);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as Manifest;
    expect(manifest).toMatchObject({ lang: 'hu', display: 'standalone', short_name: 'Strucc', start_url: '/home', scope: '/' });
    expect(manifest.name).toContain('Strucc');
    expect(manifest.description).toMatch(/^Magyar nyelvű Nostr-kliens/);
    // The sunrise theme's background, which index.html's theme-color starts with.
    expect(manifest.theme_color).toBe('#f8f4ee');
    expect(manifest.background_color).toBe('#f8f4ee');
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe('#f8f4ee');
    expect(manifest.shortcuts.map((s) => [s.name, s.url])).toEqual([
      ['Új bejegyzés', '/home?compose'],
      ['Értesítések', '/notifications'],
      ['Üzenetek', '/dms'],
    ]);
    const icons = manifest.icons.map((i) => `${i.sizes} ${i.purpose ?? 'any'}`);
    expect(icons).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
    for (const icon of manifest.icons) {
      const png = await page.request.get(new URL(icon.src, manifestUrl).href);
      expect(png.status(), icon.src).toBe(200);
      expect(png.headers()['content-type']).toBe('image/png');
      const [w, h] = pngSize(await png.body());
      expect(`${w}x${h}`).toBe(icon.sizes);
    }

    await controlled(page);
    // Navigations start while the worker boots, not after it.
    expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).navigationPreload.getState())).toMatchObject({ enabled: true });
    // A fetch handler answers: on a reload, the app's own chunks come from the service worker.
    const entry = await page.locator('script[type="module"][src]').getAttribute('src');
    const served = page.waitForResponse((r) => new URL(r.url()).pathname === entry);
    await page.reload();
    expect((await served).fromServiceWorker()).toBe(true);
    await expect(page.locator('[data-note-id]').first()).toBeVisible();

    // What Lighthouse's installability audit asks Chromium: no errors at all.
    const cdp = await context.newCDPSession(page);
    const parsed = (await cdp.send('Page.getAppManifest')) as { errors: { message: string }[] };
    expect(parsed.errors).toEqual([]);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(installabilityErrors).toEqual([]);
  } finally {
    await context.close();
    rmSync(profileDir, { recursive: true, force: true });
  }
});

test('with the network gone, /home opens from the service worker with the last feed and an offline banner', async ({ browser }) => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${base()}/home`);
    await expect(page.locator('[data-note-id]').first()).toBeVisible();
    const first = await page.locator('[data-note-id]').first().getAttribute('data-note-id');
    await expect.poll(() => cachedRows(page, 'pages')).toBeGreaterThan(0);
    await expect.poll(() => cachedRows(page, 'lists')).toBeGreaterThan(0);
    await controlled(page);
    await expect(page.getByTestId('offline-banner')).toHaveCount(0);

    await context.setOffline(true);
    expect(await page.evaluate(() => fetch('/api/info').then(() => 'network', () => 'offline'))).toBe('offline');
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await expect(page.locator('[data-note-id]').first()).toBeVisible();
    expect(await page.locator('[data-note-id]').first().getAttribute('data-note-id')).toBe(first);
    const banner = page.getByTestId('offline-banner');
    await expect(banner).toBeVisible();
    await expect(banner).toHaveText(/^Nincs kapcsolat — a legutóbb betöltött bejegyzéseket látod/);

    await context.setOffline(false);
    await expect(banner).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('the offline banner also shows while the browser is online but the cache server cannot be reached', async ({ browser }) => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    // Nothing listens on port 9: every attempt of the cache socket fails.
    await page.addInitScript(() => localStorage.setItem('cacheServer', 'ws://127.0.0.1:9/v1'));
    await page.goto(`${base()}/home`);
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    await expect(page.getByTestId('offline-banner')).toHaveText(/^Nincs kapcsolat/);
    // The socket retries every 200 ms; the banner must not blink with each attempt.
    const removals = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let removed = 0;
          const observer = new MutationObserver((records) => {
            for (const r of records) for (const n of r.removedNodes) if (n instanceof HTMLElement && n.dataset.testid === 'offline-banner') removed += 1;
          });
          observer.observe(document.body, { childList: true, subtree: true });
          setTimeout(() => {
            observer.disconnect();
            resolve(removed);
          }, 2000);
        }),
    );
    expect(removals).toBe(0);
  } finally {
    await context.close();
  }
});

test('API, websocket, media-cache and link-preview traffic is never answered or kept by the service worker', async ({ browser }) => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${base()}/home`);
    await controlled(page);
    const live = ['/api/status', '/api/info', '/v1', '/relay', '/media-cache?url=https%3A%2F%2Fexample.com%2Fa.png', '/link-preview?url=https%3A%2F%2Fexample.com%2F', '/.well-known/nostr.json?name=_'];
    const seen = new Map<string, boolean>();
    page.on('response', (r) => {
      const url = new URL(r.url());
      if (url.origin === new URL(base()).origin) seen.set(url.pathname + url.search, r.fromServiceWorker());
    });
    await page.evaluate(async (paths) => {
      for (const path of paths) await fetch(path).then((r) => r.arrayBuffer()).catch(() => undefined);
    }, live);
    for (const path of live) expect(seen.get(path), path).toBe(false);

    const build = await buildOf(page);
    const contents = await cacheContents(page);
    // One cache, this build's, holding its shell and nothing live.
    expect(Object.keys(contents)).toEqual([`strucc-shell-${build}`]);
    const kept = Object.values(contents).flat();
    expect(kept).toContain('/index.html');
    for (const path of kept) expect(path, path).toMatch(/^\/(index\.html|assets\/[\w.-]+|icons\/[\w.-]+\.png|favicon\.svg|manifest\.webmanifest)$/);
  } finally {
    await context.close();
  }
});

test("the manifest's Új bejegyzés shortcut opens the composer, or the login for a guest", async ({ browser }) => {
  const guest = await browser.newContext();
  try {
    const page = await guest.newPage();
    await page.goto(`${base()}/home?compose`);
    await expect(page.getByRole('dialog', { name: 'Bejelentkezés' })).toBeVisible();
    // The parameter is used once: a reload does not open the dialog again.
    expect(new URL(page.url()).search).toBe('');
  } finally {
    await guest.close();
  }
  const context = await browser.newContext();
  try {
    const { page } = await signIn(context, generateSecretKey());
    await page.goto(`${base()}/home?compose`);
    await expect(page.getByRole('dialog', { name: 'Új bejegyzés' })).toBeVisible();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/home');
  } finally {
    await context.close();
  }
});

/**
 * A second build of the client, made from the one under test: another build id, and one new
 * stylesheet that only the new index.html links and only the new sw.js lists.
 */
function deployNextBuild(dist: string, oldBuild: string, next: string): void {
  writeFileSync(join(dist, 'assets', `next-${next}.css`), `:root { --strucc-test-build: "${next}"; }\n`);
  const html = readFileSync(join(dist, 'index.html'), 'utf8')
    .replace(`content="${oldBuild}"`, `content="${next}"`)
    .replace('</head>', `  <link rel="stylesheet" href="/assets/next-${next}.css" />\n  </head>`);
  const sw = readFileSync(join(dist, 'sw.js'), 'utf8')
    .replace(`"build":"${oldBuild}"`, `"build":"${next}"`)
    .replace('"files":[', `"files":["/assets/next-${next}.css",`);
  expect(sw).toContain(`"build":"${next}"`);
  // The worker first, as a deploy that copies files one by one may do: until index.html follows,
  // the new worker's install refuses the old one (tools/sw.js).
  writeFileSync(join(dist, 'sw.js'), sw);
  writeFileSync(join(dist, 'index.html'), html);
}

test.describe('a new build', () => {
  let dist = '';
  let server: Awaited<ReturnType<typeof startServerProcess>> | null = null;
  let context: BrowserContext | null = null;

  test.afterEach(async () => {
    await context?.close();
    await server?.stop();
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  test('is offered on the next start, never while typing, and the click loads the new build whole', async ({ browser }) => {
    test.setTimeout(120_000);
    dist = mkdtempSync(join(tmpdir(), 'strucc-pwa-dist-'));
    cpSync(DIST, dist, { recursive: true });
    server = await startServerProcess({ DIST_DIR: dist, DEMO: '0' });
    context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/home`);
    await controlled(page);
    const oldBuild = (await buildOf(page))!;
    expect(oldBuild).toMatch(/^[0-9a-f]{16}$/);
    await expect(page.getByTestId('update-prompt')).toHaveCount(0);

    const next = 'feedfacecafe0001';
    deployNextBuild(dist, oldBuild, next);
    // The next start: the page is the server's current one, the old worker still in charge.
    await page.reload();
    const prompt = page.getByTestId('update-prompt');
    await expect(prompt).toBeVisible({ timeout: 30_000 });
    await expect(prompt).toHaveText('Új verzió érhető el — frissítés');
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => !!r?.waiting))).toBe(true);

    // Someone starts typing: the prompt steps aside until the field is left.
    await page.evaluate(() => {
      const field = document.createElement('textarea');
      field.id = 'typing-probe';
      field.setAttribute('aria-label', 'próba');
      document.querySelector('main')!.prepend(field);
    });
    await page.locator('#typing-probe').focus();
    await expect(prompt).toHaveCount(0);
    await page.locator('#typing-probe').blur();
    await expect(prompt).toBeVisible();
    // Nor while the article editor (a draft) is open.
    await page.evaluate(() => history.pushState(null, '', '/reads/edit'));
    await expect(prompt).toHaveCount(0);
    await page.goBack();
    await expect(prompt).toBeVisible();

    const reloaded = page.waitForEvent('framenavigated');
    await prompt.click();
    await reloaded;
    await expect.poll(() => buildOf(page)).toBe(next);
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? ''))
      .toMatch(/\/sw\.js$/);
    // The old build's cache is gone; the new one holds the new index.html with its new file.
    await expect.poll(async () => Object.keys(await cacheContents(page))).toEqual([`strucc-shell-${next}`]);
    const kept = (await cacheContents(page))[`strucc-shell-${next}`];
    expect(kept).toEqual(expect.arrayContaining(['/index.html', `/assets/next-${next}.css`]));
    await expect(page.getByTestId('update-prompt')).toHaveCount(0);

    // Offline, the shell is the new build's index.html, and every file it names is in the same cache.
    await context.setOffline(true);
    await page.reload();
    expect(await buildOf(page)).toBe(next);
    const named = await page.evaluate(() =>
      [...document.querySelectorAll('script[src], link[rel="stylesheet"], link[rel="modulepreload"]')].map((el) => el.getAttribute('src') ?? el.getAttribute('href') ?? ''),
    );
    for (const path of named.filter((p) => p.startsWith('/assets/'))) expect(kept, path).toContain(path);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--strucc-test-build').trim())).toBe(`"${next}"`);
    await context.setOffline(false);
  });

  test("a worker whose index.html on the server is another build's never installs", async ({ browser }) => {
    dist = mkdtempSync(join(tmpdir(), 'strucc-pwa-dist-'));
    cpSync(DIST, dist, { recursive: true });
    server = await startServerProcess({ DIST_DIR: dist, DEMO: '0' });
    context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/home`);
    await controlled(page);
    const oldBuild = (await buildOf(page))!;
    // Half a deploy: the new sw.js is out, index.html is still the old build's.
    const sw = readFileSync(join(dist, 'sw.js'), 'utf8').replace(`"build":"${oldBuild}"`, '"build":"0badbadbadbad0001"');
    writeFileSync(join(dist, 'sw.js'), sw);
    const outcome = await page.evaluate(async () => {
      const reg = (await navigator.serviceWorker.getRegistration())!;
      const found = new Promise<ServiceWorker>((done) => reg.addEventListener('updatefound', () => done(reg.installing!), { once: true }));
      await reg.update().catch(() => undefined);
      const worker = await found;
      // Settles as 'installed' (waiting) or 'redundant' (install failed).
      return new Promise<string>((done) => {
        const check = () => worker.state !== 'installing' && done(worker.state);
        worker.addEventListener('statechange', check);
        check();
      });
    });
    expect(outcome).toBe('redundant');
    // Still the old build's worker and cache alone; nothing of the half build was kept.
    expect(Object.keys(await cacheContents(page))).toEqual([`strucc-shell-${oldBuild}`]);
    await expect(page.getByTestId('update-prompt')).toHaveCount(0);
  });
});
