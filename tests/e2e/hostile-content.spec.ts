import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { finalizeEvent, generateSecretKey, getPublicKey, type Event } from 'nostr-tools/pure';
import { naddrEncode, neventEncode, npubEncode } from 'nostr-tools/nip19';
import { publishAccepted } from './support/session.ts';
import { ROUTES, visit } from './support/routes.ts';
import { base } from './support/base.ts';

// Our origin holds the key (in its shared worker), so nothing shown on it may run a stranger's
// code. A corpus of hostile notes, profiles, articles, link previews and media responses is
// rendered in Chromium: a window.__pwned probe must stay unset and the page's Content-Security-
// Policy must never have to step in (every violation fails the test, so the CSP is also proven
// to let the app itself run untouched).

const PWN = 'window.__pwned=1';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

/** Collects CSP violations of every document the page loads, and the console's CSP refusals. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeBinding('__reportCspViolation', (_source, text: string) => {
    violations.push(text);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __reportCspViolation: (t: string) => void }).__reportCspViolation;
      void report(`${location.pathname}: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber}) ${e.sample}`);
    });
  });
  page.on('console', (msg) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(msg.text())) violations.push(`console: ${msg.text()}`);
  });
  return violations;
}

async function expectSafeDom(page: Page, where: string): Promise<void> {
  // Every rendered image has loaded or failed, so an onerror that could run has had its chance. A lazy
  // image inside a hidden box never loads until shown; the attribute checks below cover it.
  await expect
    .poll(() => page.evaluate(() => [...document.images].every((img) => img.complete || !img.checkVisibility())), { message: `${where}: images settle` })
    .toBe(true);
  expect(await page.evaluate(() => window.__pwned), `${where}: no hostile code ran`).toBeUndefined();
  const found = await page.evaluate(() => {
    const bad: string[] = [];
    for (const el of document.querySelectorAll('*')) {
      for (const a of el.attributes) {
        const value = a.value.replace(/[\u0000-\u0020]+/g, '').toLowerCase();
        if (a.name.startsWith('on') || value.startsWith('javascript:')) bad.push(`<${el.localName} ${a.name}="${a.value}">`);
      }
    }
    return bad;
  });
  expect(found, `${where}: no event-handler attributes or javascript: URLs in the DOM`).toEqual([]);
}

test.describe('the app under its own CSP', () => {
  const MAIN = new Set(['home', 'explore', 'reads', 'thread', 'article', 'profile', 'settings', 'search', 'search results']);

  for (const route of ROUTES.filter((r) => MAIN.has(r.name))) {
    test(`${route.name} runs without a single CSP violation`, async ({ page }) => {
      const violations = await watchCsp(page);
      const response = page.waitForResponse((r) => r.request().resourceType() === 'document');
      const path = await visit(page, route);
      const csp = (await response).headers()['content-security-policy'] ?? '';
      expect(csp, `${path}: the page is served with a CSP`).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+(;|$)/);
      // visit() waited for the screen's data: the worker started and the app did its real work under the policy.
      expect(violations, `${path}: CSP violations`).toEqual([]);
    });
  }
});

test('a painted first-screen copy planted in localStorage cannot run', async ({ page }) => {
  const violations = await watchCsp(page);
  const index = await (await fetch(`${base()}/home`)).text();
  const build = /<script type="module"[^>]*\ssrc="([^"]+)"/.exec(index)?.[1];
  expect(build, 'the built index.html names its entry module').toMatch(/^\/assets\//);
  const html =
    `<p id="planted">Régi képernyő</p><img id="x" src="/nincs-ilyen.png" onerror="${PWN}">` +
    `<a id="js" href="  java&#x09;script:${PWN}">link</a><a id="ok" href="/home">haza</a>` +
    `<svg id="s" onload="${PWN}"><a href="javascript:${PWN}"><circle r="4"/></a><animate attributeName="href" to="javascript:${PWN}"/></svg>` +
    `<script>${PWN}</script><iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>` +
    `<form action="javascript:${PWN}"><button formaction="javascript:${PWN}">x</button></form>` +
    `<object data="javascript:${PWN}"></object><embed src="javascript:${PWN}"><base href="https://tamado.example/">` +
    `<meta http-equiv="refresh" content="0;url=javascript:${PWN}"><link rel="stylesheet" href="https://tamado.example/x.css">` +
    `<img id="d" src="data:text/html,<script>${PWN}</script>"><div id="st" style="color: red" data-x="1">stílus</div>` +
    `<div id="ps" data-painted-style="color: red">a másolat stílusa</div>`;
  await page.addInitScript(
    ({ build, html }) => {
      const copy = { v: 2, build, path: '/home', width: window.innerWidth, styles: [], html };
      localStorage.setItem('strucc:paintedCopy', JSON.stringify(copy));
    },
    { build: build!, html },
  );
  // The app never starts, so its first render does not replace the copy before it is looked at.
  await page.route(`**${build}`, (route) => route.abort());
  await page.goto(`${base()}/home`);
  const copy = page.locator('[data-painted-copy]');
  await expect(copy.locator('#planted')).toHaveText('Régi képernyő');
  await expectSafeDom(page, 'painted copy');
  expect(await copy.locator('script, iframe, form, object, embed, base, meta, link, animate').count()).toBe(0);
  await expect(copy.locator('#x')).not.toHaveAttribute('onerror', /.*/);
  await expect(copy.locator('#s')).not.toHaveAttribute('onload', /.*/);
  await expect(copy.locator('#js')).not.toHaveAttribute('href', /.*/);
  await expect(copy.locator('#d')).not.toHaveAttribute('src', /.*/);
  // What the picture needs survives: ordinary links, classes and data; the copy's own styles are set
  // through CSSOM from data-painted-style, while a planted style attribute is dropped.
  await expect(copy.locator('#ok')).toHaveAttribute('href', '/home');
  await expect(copy.locator('#st')).toHaveAttribute('data-x', '1');
  await expect(copy.locator('#st')).not.toHaveAttribute('style', /.*/);
  await expect(copy.locator('#ps')).toHaveCSS('color', 'rgb(255, 0, 0)');
  await expect(copy.locator('#ps')).not.toHaveAttribute('data-painted-style', /.*/);
  // Chromium checks the page's CSP already while the planted HTML is parsed into the cleaning
  // document, so the handlers, the style attribute and the <base> are refused twice; nothing else may be reported.
  const reports = violations.filter((v) => !v.startsWith('console: '));
  expect(reports.length).toBeGreaterThan(0);
  expect(reports.filter((v) => !/: (script-src-attr|style-src-attr|base-uri) blocked /.test(v)), 'other CSP violations').toEqual([]);
});

test.describe('a hostile-content corpus', () => {
  let upstream: Server;
  let up = '';
  const sk = generateSecretKey();
  const pubkey = getPublicKey(sk);
  const now = Math.floor(Date.now() / 1000);
  const evilHtml = `<!doctype html><html><body><script>${PWN};try{parent.__pwned=1;top.__pwned=1}catch(e){}</script>gonosz</body></html>`;
  const evilSvg = `<svg xmlns="http://www.w3.org/2000/svg" onload="${PWN}"><script>${PWN}</script></svg>`;
  const xss = [
    `<img src=x onerror=${PWN}>`,
    `<script>${PWN}</script>`,
    `<svg onload=${PWN}>`,
    `"><img src=x onerror=${PWN}>`,
    `<iframe src="javascript:${PWN}"></iframe>`,
    `javascript:${PWN}`,
    `[kattints](javascript:${PWN})`,
  ].join(' ');
  let note: Event;
  let reply: Event;
  let article: Event;

  const sign = (kind: number, content: string, tags: string[][] = [], ago = 0) => finalizeEvent({ kind, created_at: now - ago, tags, content }, sk);

  test.beforeAll(async () => {
    upstream = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/oldal') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html><head><title>${xss}</title>` +
            `<meta property="og:title" content="&lt;img src=x onerror=${PWN}&gt; Gonosz cím">` +
            `<meta property="og:description" content="&lt;script&gt;${PWN}&lt;/script&gt;">` +
            `<meta property="og:image" content="${up}/gonosz.png"></head><body>${xss}</body></html>`,
        );
      } else if (path === '/js-kep') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(`<html><head><meta property="og:title" content="Másik"><meta property="og:image" content="javascript:${PWN}"></head></html>`);
      } else if (path === '/gonosz.png') {
        res.writeHead(200, { 'Content-Type': 'image/png, text/html' });
        res.end(evilHtml);
      } else if (path === '/gonosz.svg' || path === '/rajz.png') {
        res.writeHead(200, { 'Content-Type': 'image/png, image/svg+xml' });
        res.end(evilSvg);
      } else {
        res.writeHead(404, { 'Content-Type': 'text/html' });
        res.end(evilHtml);
      }
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

    await publishAccepted(
      sign(
        0,
        JSON.stringify({
          name: `<img src=x onerror=${PWN}>`,
          display_name: `<svg onload=${PWN}> Gonosz`,
          about: `${xss} ${up}/oldal`,
          picture: `${up}/gonosz.png`,
          banner: `${up}/gonosz.svg`,
          website: `javascript:${PWN}`,
          nip05: `"><img src=x onerror=${PWN}>@pelda.hu`,
          lud16: `<script>${PWN}</script>@pelda.hu`,
        }),
        [],
        30,
      ),
    );
    note = sign(1, `Gonosz jegyzet ${xss}\n${up}/gonosz.png\n${up}/rajz.png\n${up}/oldal\n${up}/js-kep`, [], 20);
    await publishAccepted(note);
    reply = sign(1, `Válasz ${xss} ${up}/gonosz.png`, [['e', note.id, '', 'root'], ['p', pubkey]], 10);
    await publishAccepted(reply);
    const markdown = [
      '# Gonosz cikk',
      xss,
      `<a href="javascript:${PWN}">link</a> <a href="JaVaScRiPt:${PWN}">link2</a> <a href="data:text/html,<script>${PWN}</script>">adat</a>`,
      `<svg><animate onbegin="${PWN}" attributeName="x" dur="1s"/></svg>`,
      `<math><mtext><table><mglyph><style><img src=x onerror=${PWN}></style></mglyph></table></mtext></math>`,
      `<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe><object data="${up}/gonosz.png"></object><embed src="${up}/gonosz.svg">`,
      `<form action="javascript:${PWN}"><button>küldés</button></form><style>body { display: none }</style>`,
      `<div style="background: url(javascript:${PWN})">stílus</div>`,
      `![kép](${up}/gonosz.png) ![rajz](${up}/rajz.png) ![js](javascript:${PWN})`,
      `[link](javascript:${PWN}) [adat](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)`,
      `${up}/oldal`,
    ].join('\n\n');
    article = sign(
      30023,
      markdown,
      [
        ['d', 'gonosz-cikk'],
        ['title', `<img src=x onerror=${PWN}> Gonosz cikk`],
        ['summary', `<script>${PWN}</script>`],
        ['image', `${up}/gonosz.png`],
        ['t', 'gonosz'],
        ['published_at', String(now - 25)],
      ],
      25,
    );
    await publishAccepted(article);
  });

  test.afterAll(async () => {
    await new Promise((resolve) => upstream.close(resolve));
  });

  test('nothing runs in the thread, on the profile or in the article, and the CSP never has to step in', async ({ page }) => {
    test.setTimeout(120_000);
    const violations = await watchCsp(page);

    // The thread: the hostile note, its link previews and media, and a hostile reply.
    const card = page.locator(`article[data-note-id="${note.id}"]`);
    await expect(async () => {
      await page.goto(`${base()}/e/${neventEncode({ id: note.id, author: pubkey })}`);
      await expect(card).toBeVisible({ timeout: 15_000 });
    }).toPass({ timeout: 50_000 });
    await expect(card).toContainText('Gonosz jegyzet');
    await expect(card).toContainText(`<img src=x onerror=${PWN}>`);
    await expect(page.locator('.link-preview-title').filter({ hasText: 'Gonosz cím' })).toBeVisible();
    await expect(page.locator(`article[data-note-id="${reply.id}"]`)).toBeVisible();
    await expectSafeDom(page, 'thread');

    // The author's profile (name, about, picture, banner, website, NIP-05, lightning address).
    await page.goto(`${base()}/p/${npubEncode(pubkey)}`);
    await expect(page.locator('h1').first()).toContainText('Gonosz');
    await expect(page.locator(`article[data-note-id="${note.id}"]`)).toBeVisible();
    await expectSafeDom(page, 'profile');

    // The article: raw HTML in markdown, javascript: and data: links, SVG and MathML tricks.
    await page.goto(`${base()}/a/${naddrEncode({ kind: 30023, pubkey, identifier: 'gonosz-cikk' })}`);
    await expect(page.locator('h1').filter({ hasText: 'Gonosz cikk' }).first()).toBeVisible();
    await expectSafeDom(page, 'article');
    expect(await page.locator('main iframe, main object, main embed, main form, main style, main script').count()).toBe(0);

    expect(violations, 'CSP violations').toEqual([]);
  });

  test('hostile media opened directly from our origin is never a page that runs', async ({ page }) => {
    const violations = await watchCsp(page);
    for (const path of ['/gonosz.png', '/rajz.png']) {
      for (const s of ['o', 'm']) {
        const url = `${base()}/media-cache?s=${s}&a=1&u=${encodeURIComponent(up + path)}`;
        const res = await page.goto(url);
        expect(res?.status(), `${path} ${s}: refused`).toBe(404);
        expect(res?.headers()['content-type'] ?? '').not.toMatch(/html|svg/);
        expect(res?.headers()['location']).toBeUndefined();
        expect(await page.evaluate(() => window.__pwned), `${path} ${s}: nothing ran`).toBeUndefined();
      }
    }
    // The redirect that used to send a browser anywhere from our origin.
    const res = await page.goto(`${base()}/media-cache?s=o&u=${encodeURIComponent(`${up}/oldal`)}`);
    expect(res?.status()).toBe(404);
    expect(page.url().startsWith(base())).toBe(true);
    expect(violations).toEqual([]);
  });
});
