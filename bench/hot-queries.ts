/**
 * `npx tsx bench/hot-queries.ts [--db=<strucc.sqlite>] [--runs=N] [--only=<label>] [--json]`: the service time
 * of bench/server.ts's hot commands without sockets, and where it goes. Starts the real server in this process
 * on a copy of the ≥ 1M-event bench database (`npm run bench:server` builds it under .cache/bench/), calls each
 * command N times one after another with the same random targets as the socket bench, and times every
 * statement the store runs: per command mean / p50 / p99, then its five costliest statements with their
 * plans. On a shared machine this is the figure to compare old and new code with (one client, no queueing):
 * `--baseline=<worktree>` runs the same script in another worktree too, alternating, and prints both.
 * `--pg-url=<url>` runs the server on that PostgreSQL database instead (a copy of the same database, kept by
 * bench/pg-copy-keep.ts); the plans are then EXPLAIN ANALYZE's, with buffers.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchEvents, finishedBenchDb } from './server-data.ts';
import { benchTargets, hotCommands } from './server-targets.ts';

const args = process.argv.slice(2);
const opt = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const RUNS = Number(opt('runs') ?? 150);
const log = (msg: string) => console.error(`[hot-queries] ${msg}`);

export interface CommandFigures {
  /** CPU time of this process per call (user + system): on a shared machine it moves far less than wall time. */
  cpuMean: number;
  cpuP99: number;
  mean: number;
  p50: number;
  p99: number;
  statements: { sql: string; calls: number; totalMs: number; maxMs: number; plan: string[] }[];
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

async function measure(): Promise<Record<string, CommandFigures>> {
  const source = finishedBenchDb(opt('db'));
  const dataDir = mkdtempSync(join(tmpdir(), 'strucc-hot-queries-'));
  log(`copying ${source}…`);
  copyFileSync(source, join(dataDir, 'strucc.sqlite'));
  const { startServer } = await import('../server/app.ts');
  const { readConfig } = await import('../server/config.ts');
  const { commandEnv } = await import('../server/cache/registry.ts');
  const events = await benchEvents();
  const t = await benchTargets(join(dataDir, 'strucc.sqlite'), events);
  const server = await startServer(readConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, DEMO: '0', DATABASE_URL: opt('pg-url') ?? '' }));
  const db = server.ctx.db;
  // Every statement's time, per command.
  let current: Map<string, { calls: number; totalMs: number; maxMs: number; params: unknown[] }> = new Map();
  for (const m of ['all', 'get'] as const) {
    const orig = db[m].bind(db);
    (db as unknown as Record<string, unknown>)[m] = async (sql: string, params: never[] = []) => {
      const t0 = performance.now();
      try {
        return await orig(sql, params);
      } finally {
        const ms = performance.now() - t0;
        const s = current.get(sql) ?? { calls: 0, totalMs: 0, maxMs: 0, params };
        s.calls++;
        s.totalMs += ms;
        s.maxMs = Math.max(s.maxMs, ms);
        current.set(sql, s);
      }
    };
  }
  const out: Record<string, CommandFigures> = {};
  try {
    const env = commandEnv(server.ctx, {});
    const only = opt('only');
    for (const [label, name, next] of hotCommands(t)) {
      if (only && !label.startsWith(only)) continue;
      // Warm-up: the first calls fill SQLite's page cache and the server's own caches.
      for (let i = 0; i < 20; i++) await env.run(name, next());
      current = new Map();
      const times: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        await env.run(name, next());
        times.push(performance.now() - t0);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
      }
      const top = [...current].sort((a, b) => b[1].totalMs - a[1].totalMs).slice(0, 5);
      const statements = [];
      for (const [sql, s] of top) {
        const plan = !/^\s*(SELECT|WITH)/i.test(sql)
          ? []
          : db.dialect === 'postgres'
            ? (await db.all<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, s.params as never[])).map((r) => r['QUERY PLAN'])
            : [...new Set((await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, s.params as never[])).map((r) => r.detail.replace(/\b(a|CO-ROUTINE a|SCAN a)\d+\b/, '$1N')))];
        statements.push({ sql: sql.replace(/\s+/g, ' ').slice(0, 400), calls: s.calls / RUNS, totalMs: s.totalMs / RUNS, maxMs: s.maxMs, plan });
      }
      out[label] = { cpuMean: cpu.reduce((a, b) => a + b, 0) / cpu.length, cpuP99: quantile(cpu, 0.99), mean: times.reduce((a, b) => a + b, 0) / times.length, p50: quantile(times, 0.5), p99: quantile(times, 0.99), statements };
      log(`${label}: mean ${out[label].mean.toFixed(2)} ms, p99 ${out[label].p99.toFixed(2)} ms, CPU ${out[label].cpuMean.toFixed(2)} ms`);
    }
  } finally {
    // Not awaited: with every handle closed, an unsettled close would let Node exit before the figures print.
    void server.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

function runIn(cwd: string): Record<string, CommandFigures> {
  const r = spawnSync('npx', ['tsx', 'bench/hot-queries.ts', '--json', ...args.filter((a) => !a.startsWith('--baseline') && a !== opt('baseline'))], {
    cwd,
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`hot-queries in ${cwd} failed`);
  return JSON.parse(r.stdout.toString().trim().split('\n').at(-1)!) as Record<string, CommandFigures>;
}

async function main() {
  if (args.includes('--json')) {
    console.log(JSON.stringify(await measure()));
    return;
  }
  const baseline = opt('baseline');
  const f = (n: number) => n.toFixed(2);
  console.log(`\n## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} — hot commands in process (bench/hot-queries.ts, ${RUNS} calls each)\n`);
  if (baseline) {
    // Two alternating rounds: baseline, new, new, baseline (the machine's load drifts).
    const rounds = [runIn(baseline), runIn(process.cwd()), runIn(process.cwd()), runIn(baseline)];
    console.log(`Load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(' / ')}. mean / p99 ms.\n`);
    console.log('Each cell: wall mean / wall p99 / CPU mean, ms.\n');
    console.log('| command | baseline, round 1 | new, round 1 | new, round 2 | baseline, round 2 | new ÷ baseline, wall mean | new ÷ baseline, CPU mean |\n|---|---|---|---|---|---|---|');
    for (const label of Object.keys(rounds[1])) {
      const c = rounds.map((r) => r[label]);
      if (c.some((x) => !x)) continue;
      const ratio = (c[1].mean + c[2].mean) / (c[0].mean + c[3].mean);
      const cpuRatio = (c[1].cpuMean + c[2].cpuMean) / (c[0].cpuMean + c[3].cpuMean);
      console.log(`| ${label} | ${c.map((x) => `${f(x.mean)} / ${f(x.p99)} / ${f(x.cpuMean)}`).join(' | ')} | ${f(ratio)} | ${f(cpuRatio)} |`);
    }
    return;
  }
  const figures = await measure();
  console.log(`Load average at the end: ${loadavg().map((x) => x.toFixed(2)).join(' / ')}.\n`);
  console.log('| command | mean ms | p50 ms | p99 ms | CPU mean ms | CPU p99 ms |\n|---|---|---|---|---|---|');
  for (const [label, c] of Object.entries(figures)) console.log(`| ${label} | ${f(c.mean)} | ${f(c.p50)} | ${f(c.p99)} | ${f(c.cpuMean)} | ${f(c.cpuP99)} |`);
  for (const [label, c] of Object.entries(figures)) {
    console.error(`\n${label}: costliest statements per call`);
    for (const s of c.statements) {
      console.error(`  ${f(s.totalMs)} ms in ${f(s.calls)} calls (max ${f(s.maxMs)} ms): ${s.sql}`);
      for (const p of s.plan) console.error(`      ${p}`);
    }
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
