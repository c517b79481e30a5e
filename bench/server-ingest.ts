/**
 * The ingest half of `npm run bench:server`: the bare WASM verification rate (the ceiling of any
 * verifying ingest in JavaScript), and events/s through the real importer into a fresh store
 * (SQLite, or PostgreSQL with `--pg`).
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyEvent } from 'nostr-tools/wasm';
import type { NostrEvent } from '../server/context.ts';
import { createImporter } from '../server/ingest/importer.ts';
import { startVerifyPool, VERIFY_NICE, type Verifier } from '../server/ingest/verify-pool.ts';
import { initVerifier, VERIFY_OK, type VerifyCode } from '../server/ingest/verify.ts';
import type { Database } from '../server/store/db.ts';
import { openSqlite } from '../server/store/sqlite.ts';
import { BENCH_NOW } from './server-data.ts';

export interface IngestFigures {
  events: number;
  verifyOneThread: number;
  verifyPool: number;
  poolThreads: number;
  /** Verify workers the importer had. */
  ingestThreads: number;
  ingest: number;
  writeOnly: number;
  stored: number;
}

const rate = (n: number, ms: number) => (n * 1000) / ms;

/** Events/s of nostr-tools' WASM verifyEvent in a tight loop on this thread. */
function oneThreadRate(events: NostrEvent[]): number {
  const t0 = performance.now();
  let ok = 0;
  // Copies, so nostr-tools' "verified" marker on a shared object cannot skip the work.
  for (const e of events) if (verifyEvent({ ...e })) ok++;
  const ms = performance.now() - t0;
  if (ok !== events.length) throw new Error(`only ${ok}/${events.length} demo events verified`);
  return rate(events.length, ms);
}

/** The verify pool on its own: every event, all cores. */
async function poolRate(pool: Verifier, events: NostrEvent[]): Promise<number> {
  await pool.verify(events.slice(0, 2000));
  const t0 = performance.now();
  const codes = await pool.verify(events);
  const ms = performance.now() - t0;
  if (codes.some((c) => c !== VERIFY_OK)) throw new Error('the pool rejected a valid demo event');
  return rate(events.length, ms);
}

/** An empty store for one measure, and how to throw it away. */
export type FreshStore = () => Promise<{ db: Database; dispose(): Promise<void> }>;

export const freshSqlite: FreshStore = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'strucc-bench-ingest-'));
  const db = openSqlite(join(dir, 'strucc.sqlite'));
  return {
    db,
    async dispose() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** Imports everything in batches of 1000 (the upstream follower's and the demo seed's size) into a fresh store. */
async function importAll(events: NostrEvent[], verifier: Verifier, fresh: FreshStore): Promise<{ rate: number; stored: number }> {
  const { db, dispose } = await fresh();
  try {
    const importer = createImporter({ db, live: new EventEmitter(), now: () => BENCH_NOW, verifier });
    let stored = 0;
    const t0 = performance.now();
    for (let i = 0; i < events.length; i += 1000) {
      for (const r of await importer.importEvents(events.slice(i, i + 1000), 'bench')) if (r.ok) stored++;
    }
    return { rate: rate(events.length, performance.now() - t0), stored };
  } finally {
    await dispose();
  }
}

/**
 * Says yes to everything: isolates the write path's own cost. Its codes are in shared memory at once, so
 * the importer writes each call as the verified ingest does (one group, committed on the codes).
 */
const acceptAll: Verifier = {
  threads: 0,
  async verify(events) {
    return events.map((): VerifyCode => VERIFY_OK);
  },
  verifyShared(events) {
    const codes = events.map((): VerifyCode => VERIFY_OK);
    return { done: Promise.resolve(codes), settled: (from, to) => codes.slice(from, to) };
  },
  async close() {},
};

/**
 * `ingestThreads`: verify workers for the importer (the server's default, a worker per core, when absent);
 * the pool ceiling is always measured with a worker per core.
 */
export async function measureIngest(
  events: NostrEvent[],
  fresh: FreshStore = freshSqlite,
  ingestThreads?: number,
  /** The verify workers' nice value (as the server sets it for the store when absent: see server/app.ts). */
  ingestNice?: number,
): Promise<IngestFigures> {
  await initVerifier();
  const verifyOneThread = oneThreadRate(events.slice(0, 10_000));
  const full = await startVerifyPool({ size: availableParallelism() });
  let verifyPool: number;
  let poolThreads: number;
  try {
    verifyPool = await poolRate(full, events);
    poolThreads = full.threads;
  } finally {
    await full.close();
  }
  const pool = await startVerifyPool({ size: ingestThreads, nice: ingestNice ?? (fresh === freshSqlite ? VERIFY_NICE : 0) });
  try {
    const writeOnly = (await importAll(events, acceptAll, fresh)).rate;
    const { rate: ingest, stored } = await importAll(events, pool, fresh);
    return { events: events.length, verifyOneThread, verifyPool, poolThreads, ingestThreads: pool.threads, ingest, writeOnly, stored };
  } finally {
    await pool.close();
  }
}
