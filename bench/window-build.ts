/**
 * `npx tsx bench/window-build.ts --db=<copy of the 1M bench strucc.sqlite> [--pg-url=<url>] [--rounds=N]`: what a
 * cold orderby window (server/search/window-cache.ts) costs to build on each store, one build at a time: wall
 * time per build, this process's CPU, and (PostgreSQL) the backend's CPU, for the 60 frequent words of
 * bench/server.ts's `search (orderby:…)` row. --pg-url: a copy of the same database (bench/pg-copy-keep.ts);
 * without it, the SQLite copy. Prints medians and the slowest build; then, per round, a burst of every word's
 * cold window at once, with the wait of another statement meanwhile.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseQuery } from '../server/search/grammar.ts';
import { WindowCache } from '../server/search/window-cache.ts';
import { openPostgres } from '../server/store/postgres.ts';
import { openSqlite } from '../server/store/sqlite.ts';
import type { Database } from '../server/store/db.ts';
import { benchEvents } from './server-data.ts';
import { benchTargets } from './server-targets.ts';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const file = arg('db');
if (!file) throw new Error('--db=<copy of the bench database> is required (the words come from it)');
const pgUrl = arg('pg-url');
const rounds = Number(arg('rounds') ?? 3);
const { words } = await benchTargets(file, await benchEvents());
const db: Database = pgUrl ? await openPostgres(pgUrl) : openSqlite(file);
const now = Math.floor(Date.now() / 1000);
const opts = { defaultKinds: [1], dialect: db.dialect };
const page = { limit: 20, offset: 0 };

/** The backend's CPU (utime + stime, ms) of every connection of this process, PostgreSQL only. */
async function backendCpu(): Promise<number> {
  if (!pgUrl) return 0;
  const rows = await db.all<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = '' AND backend_type = 'client backend'`);
  let ms = 0;
  for (const { pid } of rows) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ms += ((Number(f[11]) + Number(f[12])) * 1000) / 100;
    } catch {
      // Another cluster's backend, or gone.
    }
  }
  return ms;
}

function qq(xs: number[], p: number): number {
  return [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
}

const wall: number[] = [];
const cpu: number[] = [];
const pgCpu: number[] = [];
let slowest = { ms: 0, word: '' };
for (let r = 0; r < rounds; r++) {
  for (const w of [...words].sort(() => Math.random() - 0.5)) {
    const cache = new WindowCache();
    const q = parseQuery(`${w} orderby:likes`, now);
    const p0 = await backendCpu();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await cache.page(db, q, { ...opts, page });
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    pgCpu.push((await backendCpu()) - p0);
    wall.push(ms);
    cpu.push((c.user + c.system) / 1000);
    if (ms > slowest.ms) slowest = { ms, word: w };
  }
}
/**
 * A burst: every word's window asked for at once (as after a restart, or the bench's warm-up), while a
 * trivial statement every 10 ms shows how long another command's statement waits meanwhile.
 */
const bursts: { all: number; meanReady: number; probeP50: number; probeMax: number; pgCpu: number }[] = [];
for (let r = 0; r < rounds; r++) {
  const cache = new WindowCache();
  const probes: number[] = [];
  let done = false;
  const probe = (async () => {
    while (!done) {
      const t0 = performance.now();
      await db.get('SELECT 1 AS one');
      probes.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const p0 = await backendCpu();
  const t0 = performance.now();
  const ready: number[] = [];
  await Promise.all(words.map(async (w) => {
    await cache.page(db, parseQuery(`${w} orderby:likes`, now), { ...opts, page });
    ready.push(performance.now() - t0);
  }));
  const all = performance.now() - t0;
  done = true;
  await probe;
  bursts.push({ all, meanReady: ready.reduce((a, b) => a + b, 0) / ready.length, probeP50: qq(probes, 0.5), probeMax: Math.max(...probes), pgCpu: (await backendCpu()) - p0 });
}
const q = qq;
console.log(`${db.dialect}, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}, ${wall.length} builds (${rounds} rounds of ${words.length} words)`);
console.log('| per build | median | p90 | max |\n|---|---|---|---|');
console.log(`| wall ms | ${q(wall, 0.5).toFixed(1)} | ${q(wall, 0.9).toFixed(1)} | ${Math.max(...wall).toFixed(1)} (${slowest.word}) |`);
console.log(`| node CPU ms | ${q(cpu, 0.5).toFixed(1)} | ${q(cpu, 0.9).toFixed(1)} | ${Math.max(...cpu).toFixed(1)} |`);
if (pgUrl) console.log(`| PostgreSQL backend CPU ms (10 ms ticks) | ${q(pgCpu, 0.5).toFixed(0)} | ${q(pgCpu, 0.9).toFixed(0)} | ${Math.max(...pgCpu).toFixed(0)} |`);
console.log(`\n| burst of ${words.length} cold windows at once | all built, ms | a window ready, mean ms | a 'SELECT 1' meanwhile: median ms | its max ms |${pgUrl ? ' PostgreSQL CPU ms |' : ''}\n|---|---|---|---|---|${pgUrl ? '---|' : ''}`);
for (const [i, b] of bursts.entries())
  console.log(`| round ${i + 1} | ${b.all.toFixed(0)} | ${b.meanReady.toFixed(0)} | ${b.probeP50.toFixed(1)} | ${b.probeMax.toFixed(1)} |${pgUrl ? ` ${b.pgCpu.toFixed(0)} |` : ''}`);
await db.close();
