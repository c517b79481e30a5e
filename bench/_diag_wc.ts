import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '/work/main/tests/support/chromium.ts';
const url = process.argv[2];
const PROBE = `
  window.__marks = [];
  const Orig = window.SharedWorker;
  window.SharedWorker = class extends Orig { constructor(...a) { super(...a); window.__marks.push(['created', Math.round(performance.now())]); this.port.addEventListener('message', (e) => { const s = JSON.stringify(e.data); if (s.includes('version') || s.includes('Leg')) window.__marks.push([s.includes('version') ? 'hello' : 'feeds', Math.round(performance.now())]); }); } };
  new MutationObserver((_, obs) => {
    if (document.querySelector('[data-note-id]')) {
      obs.disconnect();
      window.__marks.push(['inDom', Math.round(performance.now())]);
      requestAnimationFrame(() => { window.__firstNote = performance.now(); });
    }
  }).observe(document, { childList: true, subtree: true });
`;
const dir = await mkdtemp(join(tmpdir(), 'diag-'));
const ctx = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
for (let i = 0; i < 5; i++) {
  const page = await ctx.newPage();
  await page.addInitScript(PROBE);
  await page.goto(`${url}/home`);
  await page.waitForFunction(() => (window as any).__firstNote !== undefined, null, { timeout: 15000 }).catch(() => console.log('TIMEOUT'));
  const r = await page.evaluate(() => ({ fn: Math.round((window as any).__firstNote), dcl: Math.round((performance.getEntriesByType('navigation')[0] as any).domContentLoadedEventEnd), marks: (window as any).__marks }));
  console.log(i, JSON.stringify(r));
  await page.waitForTimeout(1000);
  await page.close();
  await new Promise((r) => setTimeout(r, 1500));
}
await ctx.close();
