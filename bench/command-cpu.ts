/**
 * Server CPU per request of each command of `npm run load`'s mix, one command at a time: a few
 * clients in a closed loop (no pause) against a running server, its CPU read from /proc before and
 * after, for the main thread (/proc/PID/task/PID/stat) and for all threads (/proc/PID/stat: also the
 * zlib thread pool and V8's GC helpers). Under `npm run load` all commands share the main thread, so
 * a p99 cannot say which command costs what; this can (Linux only).
 *
 *   LOAD_URL=http://127.0.0.1:PORT LOAD_PID=PID npx tsx bench/command-cpu.ts [seconds per command, default 8]
 *
 * The server needs MAX_CONNECTIONS_PER_IP=0 (or above COMMAND_CPU_CLIENTS); COMMANDS=a,b limits the commands.
 */
import { readFileSync } from 'node:fs';
import { requestMix } from './load-mix.ts';
import { Client } from './server-load.ts';

const httpBase = process.env.LOAD_URL?.replace(/\/+$/, '');
const pid = Number(process.env.LOAD_PID);
const SECONDS = Number(process.argv[2] ?? 8);
const CLIENTS = Number(process.env.COMMAND_CPU_CLIENTS ?? 8);
const WARMUP_MS = 2000;

/** CPU ms of a /proc stat file's utime + stime (clock ticks of 10 ms). */
function cpuMs(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main() {
  if (!httpBase || !pid) throw new Error('LOAD_URL and LOAD_PID name the server to measure');
  const wsBase = httpBase.replace(/^http/, 'ws');
  const only = process.env.COMMANDS?.split(',');
  const mix = (await requestMix(wsBase)).filter(([name]) => !only || only.includes(name));
  const clients = await Promise.all(Array.from({ length: CLIENTS }, () => Client.open(`${wsBase}/v1`)));
  const rows: string[] = [];
  for (const [name, , args] of mix) {
    const drive = async (ms: number) => {
      let answered = 0;
      const until = Date.now() + ms;
      await Promise.all(
        clients.map(async (c) => {
          while (Date.now() < until) {
            await c.request(name, args());
            answered++;
          }
        }),
      );
      return answered;
    };
    await drive(WARMUP_MS);
    const all0 = cpuMs(`/proc/${pid}/stat`);
    const main0 = cpuMs(`/proc/${pid}/task/${pid}/stat`);
    const n = await drive(SECONDS * 1000);
    const all = cpuMs(`/proc/${pid}/stat`) - all0;
    const mainThread = cpuMs(`/proc/${pid}/task/${pid}/stat`) - main0;
    rows.push(`| ${name} | ${n} | ${Math.round((mainThread / n) * 1000)} | ${Math.round((all / n) * 1000)} |`);
  }
  for (const c of clients) c.close();
  console.log(`| command | requests | main thread µs/request | all threads µs/request |\n|---|---|---|---|\n${rows.join('\n')}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
