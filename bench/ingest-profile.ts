/**
 * Where the SQLite ingest's main thread spends its time: imports the first N signed bench events
 * (`--events=N`, default 20,000) in calls of 1000 into a fresh store, with the verify pool
 * (`--verify`) or with every signature taken as good (the write path alone), and prints the wall
 * time, the main thread's CPU and how long it blocked waiting for the workers' codes.
 * Run under `node --cpu-prof` (see bench/RESULTS.md, s8-sqingest) to see the write path's split.
 */
import { EventEmitter } from 'node:events';
import BetterSqlite3 from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { createImporter } from '../server/ingest/importer.ts';
import { startVerifyPool, VERIFY_NICE, type Verifier } from '../server/ingest/verify-pool.ts';
import { VERIFY_OK, type VerifyCode } from '../server/ingest/verify.ts';
import { BENCH_NOW, benchEvents } from './server-data.ts';
import { freshSqlite } from './server-ingest.ts';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const n = Number(arg('events') ?? 20_000);
const events = (await benchEvents()).slice(0, n);
const acceptAll: Verifier = {
  threads: 0,
  async verify(evs) {
    return evs.map((): VerifyCode => VERIFY_OK);
  },
  verifyShared(evs) {
    const codes = evs.map((): VerifyCode => VERIFY_OK);
    return { done: Promise.resolve(codes), settled: (from, to) => codes.slice(from, to) };
  },
  async close() {},
};
const pool = process.argv.includes('--verify') ? await startVerifyPool({ size: arg('threads') ? Number(arg('threads')) : undefined, nice: arg('nice') ? Number(arg('nice')) : VERIFY_NICE, waiterChecks: !process.argv.includes('--no-help') }) : acceptAll;
const { db, dispose } = await freshSqlite();
const perStatement = process.argv.includes('--statements') ? timeStatements() : null;
const importer = createImporter({ db, live: new EventEmitter(), now: () => BENCH_NOW, verifier: pool });
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let stored = 0;
for (let i = 0; i < events.length; i += 1000) {
  for (const r of await importer.importEvents(events.slice(i, i + 1000), 'bench')) if (r.ok) stored++;
}
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const threads = threadCpu();
console.log(JSON.stringify({ threads, events: events.length, stored, ms: Math.round(ms), rate: Math.round((events.length * 1000) / ms), processCpuMs: Math.round((cpu.user + cpu.system) / 1000) }));
if (perStatement) {
  const rows = [...perStatement].sort((a, b) => b[1].ms - a[1].ms).slice(0, 40);
  for (const [sql, t] of rows) console.log(`${t.ms.toFixed(0).padStart(6)} ms ${String(t.n).padStart(7)}x ${((t.ms * 1000) / t.n).toFixed(1).padStart(6)} us  ${sql.replace(/\s+/g, ' ').slice(0, 150)}`);
}
await dispose();
await pool.close();

/** CPU ms of each thread of this process so far (Linux /proc), by thread name, for the main/worker split. */
function threadCpu(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const f = stat.slice(close + 2).split(' ');
    const ms = ((Number(f[11]) + Number(f[12])) * 1000) / 100;
    if (ms >= 50) out[`${name}#${tid}`] = ms;
  }
  return out;
}

/** Wall time per statement text (better-sqlite3's run/get/all and exec), patched into the driver's prototypes. */
function timeStatements(): Map<string, { ms: number; n: number }> {
  const out = new Map<string, { ms: number; n: number }>();
  const probe = new BetterSqlite3(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown>;
  const add = (sql: string, ms: number) => {
    const t = out.get(sql) ?? { ms: 0, n: 0 };
    t.ms += ms;
    t.n++;
    out.set(sql, t);
  };
  for (const m of ['run', 'get', 'all']) {
    const orig = proto[m];
    proto[m] = function (this: { source: string }, ...args: unknown[]) {
      const t0 = performance.now();
      try {
        return orig.apply(this, args);
      } finally {
        add(this.source, performance.now() - t0);
      }
    };
  }
  const dbProto = Object.getPrototypeOf(probe) as Record<string, (...a: unknown[]) => unknown>;
  const exec = dbProto.exec;
  dbProto.exec = function (this: unknown, sql: unknown) {
    const t0 = performance.now();
    try {
      return exec.call(this, sql);
    } finally {
      add(`exec ${String(sql)}`, performance.now() - t0);
    }
  };
  probe.close();
  return out;
}
