/**
 * Where the app's own warm first render of /home spends its time: a CPU profile of one revisit
 * (after a first visit and a warm-up revisit), printed as self time per function, heaviest first,
 * with the visit's first-note times. Functions are named by chunk, line and column of the built
 * client (minified names; look the column up in /tmp/<dist>/assets). Against a running server:
 * `npx tsx bench/first-screen-profile.ts http://127.0.0.1:PORT` (see bench/first-screen.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/chromium.ts';
import { FIRST_NOTE_PROBE } from './first-screen.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

async function visit(context: BrowserContext, url: string, profile: boolean) {
  const page = await context.newPage();
  await page.addInitScript(FIRST_NOTE_PROBE);
  const cdp = await context.newCDPSession(page);
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await page.goto(`${url}/home`);
  await page.waitForFunction(() => (window as unknown as { __liveNote?: number }).__liveNote !== undefined, null, { timeout: 30_000 });
  const times = await page.evaluate(() => {
    const w = window as unknown as { __firstNote: number; __liveNote: number };
    return { paintedCopyMs: Math.round(w.__firstNote), appOwnMs: Math.round(w.__liveNote) };
  });
  if (profile) {
    const { profile: p } = await cdp.send('Profiler.stop');
    await writeFile(join(tmpdir(), 'strucc-first-screen.cpuprofile'), JSON.stringify(p));
    const nodes = new Map((p.nodes as ProfileNode[]).map((n) => [n.id, n]));
    const self = new Map<string, number>();
    const samples = p.samples ?? [];
    const deltas = p.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      const frame = nodes.get(samples[i])!.callFrame;
      const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}:${frame.columnNumber}`;
      self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
    }
    console.log('self ms\tfunction chunk:line:column');
    for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${v.toFixed(1)}\t${k}`);
    console.log(`(whole profile in ${join(tmpdir(), 'strucc-first-screen.cpuprofile')}, for Chrome's Performance panel)`);
  }
  console.log(profile ? 'profiled visit' : 'visit', JSON.stringify(times));
  await page.waitForTimeout(1000);
  await page.close();
}

const url = process.argv[2];
if (!url) throw new Error('usage: npx tsx bench/first-screen-profile.ts http://127.0.0.1:PORT');
const dir = await mkdtemp(join(tmpdir(), 'strucc-profile-'));
const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  await visit(context, url, false);
  await visit(context, url, false);
  await visit(context, url, true);
} finally {
  await context.close();
  await rm(dir, { recursive: true, force: true });
}
