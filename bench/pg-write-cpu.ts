/**
 * `npx tsx bench/pg-write-cpu.ts [--events=N]`: the PostgreSQL write path (importer, verification
 * skipped) by CPU time rather than wall time: this process plus every process of a throwaway cluster
 * (fsync on), per imported event. On a machine shared with other work, wall-clock events/s mostly
 * measures the queue for a core; CPU per event is what the write path itself costs, so an A/B of two
 * checkouts run alternately means something even under load. Linux only (reads /proc).
 */
import { EventEmitter } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createImporter } from '../server/ingest/importer.ts';
import { VERIFY_OK, type VerifyCode } from '../server/ingest/verify.ts';
import { openPostgres } from '../server/store/postgres.ts';
import { startTempPostgres } from '../tests/support/postgres.ts';
import { benchEvents, BENCH_NOW } from './server-data.ts';

const CLOCK_TICKS = 100;

function procStat(pid: string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The postmaster listening on `port`, found by its command line. */
function postmasterOf(port: string): string {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (/\bpostgres\b/.test(args) && args.includes(`-p ${port}`)) return pid;
    } catch {
      // Gone meanwhile.
    }
  }
  throw new Error(`no postmaster on port ${port}`);
}

/** CPU milliseconds of the postmaster and its children (backends, writers) so far. */
function clusterCpuMs(postmaster: string): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const f = procStat(pid);
    if (f && (pid === postmaster || f[1] === postmaster)) ticks += Number(f[11]) + Number(f[12]);
  }
  return (ticks * 1000) / CLOCK_TICKS;
}

const acceptAll = { threads: 0, verify: async (events: readonly unknown[]) => events.map((): VerifyCode => VERIFY_OK), close: async () => {} };

const limit = Number(process.argv.find((a) => a.startsWith('--events='))?.slice('--events='.length) ?? 5000);
const events = (await benchEvents()).slice(0, limit);
const temp = await startTempPostgres({ fsync: true });
try {
  const postmaster = postmasterOf(new URL(temp.url).port);
  const db = await openPostgres(temp.url);
  const importer = createImporter({ db, live: new EventEmitter(), now: () => BENCH_NOW, verifier: acceptAll });
  const pg0 = clusterCpuMs(postmaster);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < events.length; i += 1000) await importer.importEvents(events.slice(i, i + 1000), 'bench');
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const pgMs = clusterCpuMs(postmaster) - pg0;
  await db.close();
  const nodeMs = (cpu.user + cpu.system) / 1000;
  const per = (ms: number) => (ms / events.length).toFixed(3);
  console.log(`| PostgreSQL write path, ${events.length} events | load ${loadavg()[0].toFixed(2)} |`);
  console.log(`| Node CPU per event | ${per(nodeMs)} ms |`);
  console.log(`| PostgreSQL CPU per event | ${per(pgMs)} ms |`);
  console.log(`| events per CPU-second (both) | ${Math.round((events.length * 1000) / (nodeMs + pgMs))} |`);
  console.log(`| wall events/s (load-dependent) | ${Math.round((events.length * 1000) / wall)} |`);
} finally {
  temp.stop();
}
