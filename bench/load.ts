/**
 * `npm run load` (not in CI): N concurrent websocket clients (default 1,000) for a fixed time
 * (default 60 s) against one server, each mixing the hot cache commands the web client sends, with
 * a random pause of 0–2×LOAD_THINK_MS between its requests. Prints p50/p99 per command, errors
 * and the server's RSS (GET /api/status) as a markdown section for bench/RESULTS.md.
 *
 * Without LOAD_URL it starts its own server process with the demo network (LOAD_DEMO_SCALE,
 * default 1) and MAX_CONNECTIONS_PER_IP=0, since every client comes from this one address; a
 * server given by LOAD_URL (http://host:port) needs that cap raised the same way.
 *
 * LOAD_BASELINE=<another checkout> (e.g. a `git worktree add /tmp/old main`) also starts that
 * checkout's server and runs the same load against both, alternating LOAD_ROUNDS times (default 1:
 * baseline then this tree), and ends with each command's p99 beside the baseline's. With LOAD_URL,
 * LOAD_BASELINE may be the baseline server's URL instead (LOAD_PID, LOAD_BASELINE_PID: their
 * process ids, for the CPU figure).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startServerProcess } from '../tests/support/server-process.ts';
import { Client } from './server-load.ts';
import { requestMix } from './load-mix.ts';

const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 1000);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const THINK_MS = Number(process.env.LOAD_THINK_MS ?? 1000);
const DEMO_SCALE = process.env.LOAD_DEMO_SCALE ?? '1';
/** LOAD_TIMELINE=1: a per-second table of latency beside the generator's and the server's event-loop delay, CPU and GC. */
const TIMELINE = /^(1|true|yes)$/i.test(process.env.LOAD_TIMELINE ?? '');
// Seeding the demo network takes minutes on a busy machine.
process.env.SERVER_START_TIMEOUT_MS ??= '600000';

const log = (msg: string) => console.error(`[load] ${msg}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function rssMb(httpBase: string): Promise<number> {
  const status = (await (await fetch(`${httpBase}/api/status`)).json()) as { rssBytes?: number };
  return (status.rssBytes ?? NaN) / 2 ** 20;
}

interface Target {
  label: string;
  httpBase: string;
  /** The server's process, when known, for its CPU time. */
  pid?: number;
  /** Lines written by bench/load-probe.mjs inside the server, when it was started with it. */
  probeFile?: string;
}

interface ProbeLine {
  t: number;
  delayMax: number;
  elu: number;
  cpuMs: number;
  gcMinorMs: number;
  gcMajorMs: number;
  gcMaxMs: number;
}

/** One second of the run, by the second each request was sent in. */
interface Second {
  latencies: number[];
  /** The generator's own longest event-loop delay: past a few ms, the latencies it records include its own lag. */
  generatorDelayMax: number;
  generatorCpuMs: number;
}

/** CPU seconds a process has used so far, all its threads (user + system), or NaN off Linux. */
function cpuSeconds(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

interface Run {
  label: string;
  rows: { name: string; requests: number; p50: number; p99: number; errors: number }[];
  requests: number;
  failed: number;
  perSecond: number;
  /** Server CPU (all threads) per answered request, in ms: the figure the machine's other load disturbs least. */
  cpuMsPerRequest: number;
  connected: number;
  connectErrors: number;
  elapsed: number;
  load: number;
  rss: { before: number; peak: number; after: number };
  timeline?: string;
}

async function runLoad(target: Target): Promise<Run> {
  const { httpBase } = target;
  const wsBase = httpBase.replace(/^http/, 'ws');
  const mix = await requestMix(wsBase, log);
  const total = mix.reduce((s, m) => s + m[1], 0);
  const choose = () => {
    let r = Math.random() * total;
    for (const m of mix) if ((r -= m[1]) < 0) return m;
    return mix[0];
  };

  const rssBefore = await rssMb(httpBase);
  log(`${target.label}: connecting ${CLIENTS} clients…`);
  const clients: Client[] = [];
  let connectErrors = 0;
  for (let i = 0; i < CLIENTS; i += 20) {
    const batch = await Promise.all(Array.from({ length: Math.min(20, CLIENTS - i) }, () => Client.open(`${wsBase}/v1`).catch(() => null)));
    for (const c of batch) if (c) clients.push(c);
    else connectErrors++;
  }
  log(`${target.label}: ${clients.length} connected (${connectErrors} failed); running ${SECONDS} s…`);
  const latencies = new Map<string, number[]>(mix.map(([name]) => [name, []]));
  const errors = new Map<string, number>(mix.map(([name]) => [name, 0]));
  let rssPeak = rssBefore;
  const until = Date.now() + SECONDS * 1000;
  const sampler = setInterval(() => {
    rssMb(httpBase).then((mb) => (rssPeak = Math.max(rssPeak, mb)), () => undefined);
  }, 2000);
  const started = Date.now();
  const cpuBefore = cpuSeconds(target.pid);
  const seconds: Second[] = [];
  const second = (at: number) => (seconds[Math.floor((at - started) / 1000)] ??= { latencies: [], generatorDelayMax: 0, generatorCpuMs: 0 });
  const ownDelay = monitorEventLoopDelay({ resolution: 5 });
  let ownCpu = process.cpuUsage();
  const ownSampler = setInterval(() => {
    const s = second(Date.now() - 1000);
    s.generatorDelayMax = ownDelay.max / 1e6;
    const c = process.cpuUsage(ownCpu);
    s.generatorCpuMs = (c.user + c.system) / 1000;
    ownCpu = process.cpuUsage();
    ownDelay.reset();
  }, 1000);
  if (TIMELINE) ownDelay.enable();
  await Promise.all(
    clients.map(async (c, i) => {
      await sleep(((i + 0.5) / clients.length) * THINK_MS);
      while (Date.now() < until) {
        const [name, , args] = choose();
        const sentAt = Date.now();
        const t0 = performance.now();
        // Client.request ends an unanswered request itself after 30 s (as an error). A race against a sleep here left a
        // 30 s timer behind every request (30,000 pending at 1,000/s), which the generator paid for in GC and loop lag.
        const failed = await c.request(name, args());
        const ms = performance.now() - t0;
        latencies.get(name)!.push(ms);
        if (TIMELINE) second(sentAt).latencies.push(ms);
        if (failed) errors.set(name, errors.get(name)! + 1);
        await sleep(Math.random() * 2 * THINK_MS);
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  const cpu = cpuSeconds(target.pid) - cpuBefore;
  clearInterval(sampler);
  clearInterval(ownSampler);
  ownDelay.disable();
  const load = loadavg()[0];
  const rssAfter = await rssMb(httpBase);
  for (const c of clients) c.close();

  const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
  const rows: Run['rows'] = [];
  let requests = 0;
  let failed = 0;
  for (const [name] of mix) {
    const xs = latencies.get(name)!.sort((a, b) => a - b);
    requests += xs.length;
    failed += errors.get(name)!;
    rows.push({ name, requests: xs.length, p50: pct(xs, 50), p99: pct(xs, 99), errors: errors.get(name)! });
  }
  return {
    label: target.label,
    rows,
    requests,
    failed,
    perSecond: requests / elapsed,
    cpuMsPerRequest: (cpu * 1000) / requests,
    connected: clients.length,
    connectErrors,
    elapsed,
    load,
    rss: { before: rssBefore, peak: rssPeak, after: rssAfter },
    timeline: TIMELINE ? timeline(seconds, started, target.probeFile) : undefined,
  };
}

/** The per-second table of LOAD_TIMELINE: where in the run the tail sits, and what the two processes were doing then. */
function timeline(seconds: Second[], started: number, probeFile: string | undefined): string {
  const probe = new Map<number, ProbeLine>();
  if (probeFile && existsSync(probeFile)) {
    for (const line of readFileSync(probeFile, 'utf8').split('\n')) {
      if (!line) continue;
      const p = JSON.parse(line) as ProbeLine;
      // A probe line covers the second before its time stamp.
      probe.set(Math.floor((p.t - 1000 - started) / 1000), p);
    }
  }
  const rows = seconds.map((s, i) => {
    const xs = (s?.latencies ?? []).sort((a, b) => a - b);
    const at = (p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
    const p = probe.get(i);
    const srv = p
      ? `${fmt(p.delayMax)} | ${fmt(p.elu * 100)} | ${fmt(p.cpuMs)} | ${fmt(p.gcMinorMs)} / ${fmt(p.gcMajorMs)} (max ${fmt(p.gcMaxMs)})`
      : ' | | | ';
    return `| ${i} | ${fmt(xs.length)} | ${fmt(at(0.5), 1)} | ${fmt(at(0.99))} | ${fmt(xs[xs.length - 1] ?? NaN)} | ${fmt(s?.generatorDelayMax ?? NaN)} | ${fmt(s?.generatorCpuMs ?? NaN)} | ${srv} |`;
  });
  return `| s | sent | p50 ms | p99 ms | max ms | generator loop delay max ms | generator CPU ms | server loop delay max ms | server ELU % | server CPU ms | server GC minor / major ms (longest pause) |
|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
}

function section(run: Run, where: string): string {
  const table = run.rows.map((r) => `| ${r.name} | ${fmt(r.requests)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${fmt(r.errors)} |`).join('\n');
  return `### ${run.label}

${run.connected} concurrent websocket clients on /v1 (${run.connectErrors} could not connect), ${fmt(run.elapsed)} s, each pausing 0–${fmt((2 * THINK_MS) / 1000, 1)} s between requests; ${where}; ${availableParallelism()} cores, Node ${process.version}, load average (1 min) at the end ${fmt(run.load, 2)}.

| command | requests | p50 ms | p99 ms | errors (NOTICE or no answer in 30 s) |
|---|---|---|---|---|
${table}
| all | ${fmt(run.requests)} (${fmt(run.perSecond)}/s) | | | ${fmt(run.failed)} |

Server CPU (all threads): ${fmt(run.cpuMsPerRequest, 2)} ms per request.
Server RSS: ${fmt(run.rss.before)} MB before the clients connected, ${fmt(run.rss.peak)} MB peak (sampled every 2 s), ${fmt(run.rss.after)} MB at the end.
${run.timeline ? `\nPer second (by the second a request was sent):\n\n${run.timeline}` : ''}`;
}

/** p99 per command of the new code against the baseline, the target being < 100 ms with 0 errors. */
function comparison(runs: Run[]): string {
  const mean = (label: string, pick: (r: Run) => number[]) => {
    const mine = runs.filter((r) => r.label === label).map(pick);
    return mine[0].map((_, i) => mine.reduce((s, xs) => s + xs[i], 0) / mine.length);
  };
  const names = runs[0].rows.map((r) => r.name);
  const base = mean('baseline', (r) => r.rows.map((x) => x.p99));
  const now = mean('this tree', (r) => r.rows.map((x) => x.p99));
  const rate = (label: string) => mean(label, (r) => [r.perSecond, r.failed, r.rss.peak, r.cpuMsPerRequest]);
  const [bRate, bFailed, bRss, bCpu] = rate('baseline');
  const [nRate, nFailed, nRss, nCpu] = rate('this tree');
  const lines = names.map((n, i) => `| ${n} p99 ms | < 100 | ${fmt(base[i], 1)} | ${fmt(now[i], 1)} | ${fmt(base[i] / now[i], 2)}× |`);
  return `### Target against the baseline (mean of ${runs.length / 2} alternating round(s))

| figure | target | baseline | this tree | improvement |
|---|---|---|---|---|
${lines.join('\n')}
| requests/s | (~${fmt(CLIENTS / (THINK_MS / 1000))} offered) | ${fmt(bRate)} | ${fmt(nRate)} | ${fmt(nRate / bRate, 2)}× |
| server CPU ms per request | | ${fmt(bCpu, 2)} | ${fmt(nCpu, 2)} | ${fmt(bCpu / nCpu, 2)}× |
| errors | 0 | ${fmt(bFailed)} | ${fmt(nFailed)} | |
| peak RSS MB | recorded | ${fmt(bRss)} | ${fmt(nRss)} | |
`;
}

async function main() {
  const given = process.env.LOAD_URL?.replace(/\/+$/, '');
  const baselineDir = process.env.LOAD_BASELINE;
  const rounds = Number(process.env.LOAD_ROUNDS ?? 1);
  const stops: (() => Promise<void>)[] = [];
  const targets: Target[] = [];
  const where = new Map<string, string>();
  try {
    if (given) {
      // LOAD_PROBE_FILE: the file the given server's bench/load-probe.mjs writes, if it was started with it.
      targets.push({ label: 'this tree', httpBase: given, pid: Number(process.env.LOAD_PID) || undefined, probeFile: process.env.LOAD_PROBE_FILE });
      where.set('this tree', `server ${given}`);
      if (baselineDir?.startsWith('http')) {
        targets.unshift({ label: 'baseline', httpBase: baselineDir.replace(/\/+$/, ''), pid: Number(process.env.LOAD_BASELINE_PID) || undefined });
        where.set('baseline', `server ${baselineDir}`);
      }
    } else {
      const env = { DEMO: '1', DEMO_SCALE, MAX_CONNECTIONS_PER_IP: '0' };
      const probe = (label: string): Record<string, string> => {
        if (!TIMELINE) return {};
        const file = join(tmpdir(), `strucc-load-probe-${process.pid}-${label}.jsonl`);
        const preload = new URL('./load-probe.mjs', import.meta.url).pathname;
        return { LOAD_PROBE_FILE: file, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${preload}`.trim() };
      };
      log(`starting a server with the demo network (scale ${DEMO_SCALE})${baselineDir ? `, and the baseline's from ${baselineDir}` : ''}…`);
      // One after the other: two demo seeds at once on a busy machine outlast the start timeout.
      const mine = await startServerProcess({ ...env, ...probe('mine') });
      stops.push(() => mine.stop());
      const base = baselineDir ? await startServerProcess({ ...env, ...probe('base') }, undefined, baselineDir) : undefined;
      if (base) stops.push(() => base.stop());
      targets.push({ label: 'this tree', httpBase: mine.url, pid: mine.pid, probeFile: probe('mine').LOAD_PROBE_FILE });
      where.set('this tree', `own server process, demo network scale ${DEMO_SCALE}`);
      if (base) {
        targets.unshift({ label: 'baseline', httpBase: base.url, pid: base.pid, probeFile: probe('base').LOAD_PROBE_FILE });
        where.set('baseline', `own server process from ${baselineDir}, demo network scale ${DEMO_SCALE}`);
      }
    }
    const runs: Run[] = [];
    for (let round = 0; round < (targets.length > 1 ? rounds : 1); round++) {
      // Alternating (baseline first, then this tree, then again) so a change in the machine's load hits both.
      for (const t of round % 2 ? [...targets].reverse() : targets) runs.push(await runLoad(t));
    }
    const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const parts = [`## ${when} — load test (npm run load)\n`];
    for (const run of runs) parts.push(section(run, where.get(run.label)!));
    if (targets.length > 1) parts.push(comparison(runs));
    console.log(parts.join('\n'));
  } finally {
    for (const stop of stops) await stop();
    // The probe files of servers this run started (a given server's file is the caller's).
    if (!given) for (const t of targets) if (t.probeFile) rmSync(t.probeFile, { force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
