/**
 * The app's own warm first note on /home (issue 18) as main-thread work rather than wall time: on a
 * machine others are using, the wall time of one load swings by hundreds of ms, while the renderer
 * main thread's own CPU time (Chrome's trace, thread time of its tasks) moves far less. For each
 * server given, a persistent profile visits /home twice (first visit, warm-up), then RUNS traced
 * revisits alternate between the servers. Printed per revisit and as medians, with the ratio of each
 * server to the last one given (the baseline):
 * - live: ms to the app's own first note (the FIRST_NOTE_PROBE frame), wall time;
 * - cpu: thread time of the main thread's tasks from navigation to that frame;
 * - the thread time of the main kinds of work inside them (script, React's calls, style, layout...).
 * `npx tsx bench/first-screen-cpu.ts http://127.0.0.1:PORT_NEW http://127.0.0.1:PORT_BASELINE`
 * (two servers on one seeded data dir, as bench/first-screen.ts's CURRENT_URL/BASELINE_URL).
 * Tracing adds its own cost to both sides alike; compare the two, not with untraced figures.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/support/chromium.ts';
import { FIRST_NOTE_PROBE, median } from './first-screen.ts';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

const KINDS = ['ParseHTML', 'EvaluateScript', 'v8.evaluateModule', 'FunctionCall', 'RunMicrotasks', 'UpdateLayoutTree', 'Layout', 'Paint'];
const CATEGORIES = ['toplevel', 'devtools.timeline', 'blink.user_timing', 'v8.execute'];

/** The events of `events` not inside another of them (a nested call would count twice). */
function outermost(events: TraceEvent[]): TraceEvent[] {
  return events.filter((e) => !events.some((o) => o !== e && o.ts <= e.ts && o.ts + (o.dur ?? 0) >= e.ts + (e.dur ?? 0) && (o.dur ?? 0) > (e.dur ?? 0)));
}

const threadMs = (events: TraceEvent[]) => outermost(events).reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1000;

async function tracedRevisit(context: BrowserContext, url: string, trace: boolean): Promise<Record<string, number>> {
  const page = await context.newPage();
  await page.addInitScript(FIRST_NOTE_PROBE);
  const cdp = await context.newCDPSession(page);
  const events: TraceEvent[] = [];
  if (trace) {
    cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES }, transferMode: 'ReportEvents' });
  }
  await page.goto(`${url}/home`);
  await page.waitForFunction(() => (window as unknown as { __liveNote?: number }).__liveNote !== undefined, null, { timeout: 30_000 });
  const live = await page.evaluate(() => (window as unknown as { __liveNote: number }).__liveNote);
  const out: Record<string, number> = { live };
  if (trace) {
    const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.end');
    await done;
    // The page's main thread is the one that ran main.tsx's mark; its last navigationStart is this load's.
    const mark = events.find((e) => e.name === 'strucc:main');
    if (!mark) throw new Error('no strucc:main mark in the trace');
    const nav = events.filter((e) => e.name === 'navigationStart' && e.pid === mark.pid && e.tid === mark.tid).pop()!;
    const end = nav.ts + live * 1000;
    const main = events.filter((e) => e.pid === mark.pid && e.tid === mark.tid && e.ph === 'X' && e.ts >= nav.ts && e.ts < end);
    out.cpu = threadMs(main.filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask'));
    for (const kind of KINDS) out[kind] = threadMs(main.filter((e) => e.name === kind));
  }
  await page.waitForTimeout(1000);
  await page.close();
  return out;
}

async function main() {
  const urls = process.argv.slice(2).filter((a) => /^https?:\/\//.test(a));
  if (urls.length === 0) throw new Error('usage: npx tsx bench/first-screen-cpu.ts <url> [<baseline url>]');
  const runs = Number(process.env.RUNS ?? 7);
  const dirs: string[] = [];
  const contexts: BrowserContext[] = [];
  const results: Record<string, number>[][] = urls.map(() => []);
  try {
    for (const url of urls) {
      const dir = await mkdtemp(join(tmpdir(), 'strucc-cpu-'));
      dirs.push(dir);
      const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
      contexts.push(context);
      await tracedRevisit(context, url, false);
      await tracedRevisit(context, url, false);
    }
    for (let i = 0; i < runs; i++) {
      const order = urls.map((_, j) => j);
      if (i % 2) order.reverse();
      for (const j of order) {
        const r = await tracedRevisit(contexts[j], urls[j], true);
        results[j].push(r);
        console.log(urls[j], Object.entries(r).map(([k, v]) => `${k}=${v.toFixed(1)}`).join(' '));
      }
    }
  } finally {
    for (const c of contexts) await c.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  }
  const keys = ['live', 'cpu', ...KINDS];
  const medians = results.map((rs) => Object.fromEntries(keys.map((k) => [k, median(rs.map((r) => r[k]))])));
  const base = medians[medians.length - 1];
  console.log(`\n| server | ${keys.join(' | ')} |\n|---|${keys.map(() => '---').join('|')}|`);
  urls.forEach((url, j) => {
    const cell = (k: string) => `${medians[j][k].toFixed(1)}${j < urls.length - 1 && base[k] > 0 ? ` (${(medians[j][k] / base[k]).toFixed(2)})` : ''}`;
    console.log(`| ${url}${j === urls.length - 1 && urls.length > 1 ? ' (baseline)' : ''} | ${keys.map(cell).join(' | ')} |`);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
