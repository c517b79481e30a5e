/**
 * WORKERS=N: N server processes on one port (node:cluster hands connections out in turn),
 * sharing one PostgreSQL. They are stateless towards each other: live events cross through
 * PostgreSQL (live-bridge.ts) and one of them runs the periodic jobs (leader.ts).
 */
import cluster, { type Worker } from 'node:cluster';
import type { ServerConfig } from '../context.ts';

/** A worker that dies this soon after starting is not restarted: it would only die again. */
const MIN_UPTIME_MS = 5000;

export function workerCount(raw: string | undefined): number {
  const n = Number(raw?.trim() || '1');
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

export function runPrimary(config: ServerConfig, n: number): void {
  if (!config.databaseUrl) {
    console.error('WORKERS > 1 csak PostgreSQL-lel működik: adj meg DATABASE_URL-t (egy SQLite-fájlt egy folyamat használ).');
    process.exit(1);
  }
  let announced = false;
  let stopping = false;
  const started = new Map<Worker, number>();
  const fork = () => {
    const worker = cluster.fork();
    started.set(worker, Date.now());
    worker.on('message', (msg: { type?: string; url?: string }) => {
      if (msg?.type !== 'listening' || announced) return;
      announced = true;
      console.log(`Strucc fut: ${msg.url} (${n} folyamat)`);
    });
  };
  cluster.on('exit', (worker, code, signal) => {
    const since = started.get(worker) ?? 0;
    started.delete(worker);
    if (stopping) {
      if (started.size === 0) process.exit(0);
      return;
    }
    console.error(`Egy szerverfolyamat leállt (${signal ?? code}).`);
    if (Date.now() - since < MIN_UPTIME_MS) {
      console.error('Túl hamar állt le, nem indítom újra.');
      if (started.size === 0) process.exit(1);
      return;
    }
    fork();
  });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), 12_000);
    force.unref();
    for (const worker of started.keys()) worker.process.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (let i = 0; i < n; i++) fork();
}
