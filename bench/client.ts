/**
 * `npm run bench`: /home on the demo network in headless Chromium.
 * Prints the gzip bytes of JS sent before the first note appears (page and shared worker
 * alike, read from the server's access log), the time from navigation to the first note
 * painted (median of 5 cold loads), and the number of cache sockets with 1 and 3 tabs open.
 */
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/chromium.ts';
import { startServerProcess } from '../tests/support/server-process.ts';

// Records, in the page, the moment the first note card is in the DOM and painted.
const FIRST_NOTE_PROBE = `
  new MutationObserver((_, obs) => {
    if (document.querySelector('[data-note-id]')) {
      obs.disconnect();
      requestAnimationFrame(() => { window.__firstNote = performance.now(); });
    }
  }).observe(document, { childList: true, subtree: true });
`;

interface AccessEntry {
  at: number;
  path: string;
  bytes: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

async function coldLoad(browser: Browser, url: string, log: AccessEntry[]) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(FIRST_NOTE_PROBE);
  const startedAt = Date.now();
  await page.goto(`${url}/home`);
  await page.waitForFunction(() => (window as unknown as { __firstNote?: number }).__firstNote !== undefined, null, {
    timeout: 60_000,
  });
  const firstNoteMs = await page.evaluate(() => (window as unknown as { __firstNote: number }).__firstNote);
  const doneAt = Date.now();
  const jsBytes = log
    .filter((e) => e.at >= startedAt && e.at <= doneAt && e.path.endsWith('.js'))
    .reduce((sum, e) => sum + e.bytes, 0);
  await context.close();
  return { firstNoteMs, jsBytes };
}

async function socketsWithTabs(context: BrowserContext, url: string, tabs: number) {
  for (let i = 0; i < tabs; i++) {
    const page = await context.newPage();
    await page.goto(`${url}/home`);
    await page.waitForSelector('[data-note-id]', { timeout: 60_000 });
  }
  const status = (await (await fetch(`${url}/api/status`)).json()) as { cacheConnections: number };
  return status.cacheConnections;
}

async function main() {
  const scale = process.env.DEMO_SCALE ?? '1';
  const server = await startServerProcess({ DEMO_SCALE: scale, ACCESS_LOG: '1' });
  const log: AccessEntry[] = [];
  server.onLine((line) => {
    const m = /^ACCESS GET (\S+) \d+ (\d+)/.exec(line);
    if (m) log.push({ at: Date.now(), path: m[1].split('?')[0], bytes: Number(m[2]) });
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const loads = [];
    for (let i = 0; i < 5; i++) loads.push(await coldLoad(browser, server.url, log));
    const context = await browser.newContext();
    const one = await socketsWithTabs(context, server.url, 1);
    const three = await socketsWithTabs(context, server.url, 2);
    await context.close();

    const rows = [
      ['demo scale', scale],
      ['JS before first note, gzip bytes (median)', String(median(loads.map((l) => l.jsBytes)))],
      ['first note painted, ms (median of 5 cold)', median(loads.map((l) => l.firstNoteMs)).toFixed(0)],
      ['first note, each cold load, ms', loads.map((l) => l.firstNoteMs.toFixed(0)).join(', ')],
      ['cache sockets with 1 tab', String(one)],
      ['cache sockets with 3 tabs', String(three)],
    ];
    console.log(`\n## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} — client bench (/home)\n`);
    console.log('| measure | value |\n|---|---|');
    for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
