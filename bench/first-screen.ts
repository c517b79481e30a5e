/**
 * The two first-screen targets of issue 18, each beside a baseline measured in the same run:
 * /home cold (fresh profile) and the app's own first note on a warm revisit (not the painted copy),
 * for this build and for a baseline build served by a second server, loads alternating between the
 * two so a noisy machine weighs on both alike. `npm run bench` runs it when BASELINE_DIST names the
 * baseline's built client (e.g. `git worktree add /tmp/old main && cd /tmp/old && npx vite build
 * --outDir /tmp/dist-old`); `npm run bench:first-screen` runs it alone.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/chromium.ts';
import { startServerProcess } from '../tests/support/server-process.ts';

// Records, in the page, the frame in which the first note card is painted, and the frame in which
// the app's own render shows one (on a revisit of /home the first is the painted copy's).
export const FIRST_NOTE_PROBE = `
  new MutationObserver((_, obs) => {
    if (window.__noteSeen === undefined && document.querySelector('[data-note-id]')) {
      window.__noteSeen = true;
      requestAnimationFrame(() => { window.__firstNote = performance.now(); });
    }
    if (document.querySelector('#root > :not([data-painted-copy]) [data-note-id]')) {
      obs.disconnect();
      requestAnimationFrame(() => { window.__liveNote = performance.now(); });
    }
  }).observe(document, { childList: true, subtree: true });
`;

/** The figures issue 18 quotes for main before the work on them (ms). */
export const ISSUE_BASELINE = { coldMs: 1500, warmLiveMs: 653 };
export const TARGET = { coldMs: 1000, warmLiveMs: 300 };

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** Navigates and waits for the app's own note; undefined when none appears in 30 s. */
export async function noteTimes(page: Page, url: string): Promise<{ firstNoteMs: number; liveNoteMs: number } | undefined> {
  await page.addInitScript(FIRST_NOTE_PROBE);
  await page.goto(url);
  try {
    await page.waitForFunction(() => (window as unknown as { __liveNote?: number }).__liveNote !== undefined, null, { timeout: 30_000 });
  } catch {
    return undefined;
  }
  return page.evaluate(() => {
    const w = window as unknown as { __firstNote: number; __liveNote: number };
    return { firstNoteMs: w.__firstNote, liveNoteMs: w.__liveNote };
  });
}

const cacheConnections = async (url: string) =>
  ((await (await fetch(`${url}/api/status`)).json()) as { cacheConnections: number }).cacheConnections;

export async function untilNoSockets(url: string) {
  for (let i = 0; i < 100 && (await cacheConnections(url)) > 0; i++) await new Promise((r) => setTimeout(r, 100));
}

async function coldLoad(browser: Browser, url: string): Promise<number | undefined> {
  const context = await browser.newContext();
  const times = await noteTimes(await context.newPage(), `${url}/home`);
  await context.close();
  await untilNoSockets(url);
  return times?.firstNoteMs;
}

/** One revisit of /home in context; the worker starts anew each time (the last tab closed). */
async function warmLoad(context: BrowserContext, url: string): Promise<number | undefined> {
  const page = await context.newPage();
  const times = await noteTimes(page, `${url}/home`);
  // Give the worker its moment to keep the network's page before the tab (and with it the worker) goes.
  await page.waitForTimeout(1000);
  await page.close();
  await untilNoSockets(url);
  return times?.liveNoteMs;
}

export interface FirstScreenSide {
  cold: number[];
  warmLive: number[];
}

/** Alternates cold loads, then warm revisits (after one first visit each), between the two servers. */
export async function compareFirstScreen(browser: Browser, urls: { current: string; baseline: string }, runs = 5) {
  const sides = { current: { cold: [], warmLive: [] } as FirstScreenSide, baseline: { cold: [], warmLive: [] } as FirstScreenSide };
  const order = ['baseline', 'current'] as const;
  for (let i = 0; i < runs; i++) {
    for (const side of i % 2 ? [...order].reverse() : order) {
      const ms = await coldLoad(browser, urls[side]);
      if (ms !== undefined) sides[side].cold.push(ms);
    }
  }
  const dirs: string[] = [];
  const contexts: Record<string, BrowserContext> = {};
  try {
    for (const side of order) {
      const dir = await mkdtemp(join(tmpdir(), 'strucc-bench-'));
      dirs.push(dir);
      contexts[side] = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
      await warmLoad(contexts[side], urls[side]);
    }
    for (let i = 0; i < runs; i++) {
      for (const side of i % 2 ? [...order].reverse() : order) {
        const ms = await warmLoad(contexts[side], urls[side]);
        if (ms !== undefined) sides[side].warmLive.push(ms);
      }
    }
  } finally {
    for (const c of Object.values(contexts)) await c.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
  return sides;
}

/** Table rows: each target with this build's median, the baseline's median in the same run, and their ratio. */
export function comparisonRows(sides: Awaited<ReturnType<typeof compareFirstScreen>>): string[][] {
  const row = (label: string, now: number[], before: number[], target: number) => {
    if (!now.length || !before.length) return [label, 'no note shown'];
    const a = median(now);
    const b = median(before);
    return [
      label,
      `${a.toFixed(0)} vs baseline ${b.toFixed(0)} in the same run (ratio ${(a / b).toFixed(2)}; target < ${target}: ${a < target ? 'met' : 'NOT met'}; each: ${now.map((x) => x.toFixed(0)).join(', ')} / ${before.map((x) => x.toFixed(0)).join(', ')})`,
    ];
  };
  return [
    row('A/B cold first note on /home, ms (median)', sides.current.cold, sides.baseline.cold, TARGET.coldMs),
    row("A/B warm first note drawn by the app itself on /home, ms (median)", sides.current.warmLive, sides.baseline.warmLive, TARGET.warmLiveMs),
  ];
}

async function main() {
  const baselineDist = process.env.BASELINE_DIST;
  const runs = Number(process.env.RUNS ?? 5);
  // CURRENT_URL and BASELINE_URL: two servers already running (seeding one takes minutes on a busy machine).
  const running = (url: string) => ({ url, stop: async () => undefined });
  const given = process.env.CURRENT_URL && process.env.BASELINE_URL;
  if (!given && !baselineDist) throw new Error('BASELINE_DIST must name the baseline build (see the comment at the top of bench/first-screen.ts)');
  const [current, baseline] = given
    ? [running(process.env.CURRENT_URL!), running(process.env.BASELINE_URL!)]
    : await Promise.all([startServerProcess({ DIST_DIR: process.env.DIST_DIR ?? './dist' }), startServerProcess({ DIST_DIR: baselineDist! })]);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const rows = comparisonRows(await compareFirstScreen(browser, { current: current.url, baseline: baseline.url }, runs));
    console.log(`\n## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} — first screen A/B (baseline ${baselineDist ?? baseline.url})\n`);
    console.log('| measure | value |\n|---|---|');
    for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
  } finally {
    await browser.close();
    await Promise.all([current.stop(), baseline.stop()]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
