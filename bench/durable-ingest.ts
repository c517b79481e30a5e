/**
 * What synchronous=FULL costs (`npx tsx bench/durable-ingest.ts`): the same real signed demo events
 * through the verifying importer into a fresh SQLite store with synchronous=NORMAL and =FULL, in
 * batches of 1000 (the relay's, the seed's and upstream's batches) and one event per call (a
 * client publishing on /relay or import_events: one commit each).
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createImporter } from '../server/ingest/importer.ts';
import { startVerifyPool, type Verifier } from '../server/ingest/verify-pool.ts';
import type { NostrEvent } from '../server/context.ts';
import { openSqlite } from '../server/store/sqlite.ts';
import { BENCH_NOW, benchEvents } from './server-data.ts';

const BATCHED = 20_000;
const SINGLE = 500;

async function run(mode: 'NORMAL' | 'FULL', events: NostrEvent[], batch: number, verifier: Verifier): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'strucc-bench-durable-'));
  const db = openSqlite(join(dir, 'strucc.sqlite'));
  try {
    await db.run(`PRAGMA synchronous = ${mode}`);
    const importer = createImporter({ db, live: new EventEmitter(), now: () => BENCH_NOW, verifier });
    const t0 = performance.now();
    for (let i = 0; i < events.length; i += batch) await importer.importEvents(events.slice(i, i + batch), 'bench');
    return (events.length * 1000) / (performance.now() - t0);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const all = await benchEvents();
const pool = await startVerifyPool();
try {
  const rows: string[] = [];
  for (const mode of ['NORMAL', 'FULL', 'NORMAL', 'FULL'] as const) {
    const batched = await run(mode, all.slice(0, BATCHED), 1000, pool);
    const single = await run(mode, all.slice(0, SINGLE), 1, pool);
    rows.push(`| ${mode} | ${Math.round(batched)} | ${Math.round(single)} |`);
  }
  console.log(`| synchronous | events/s, ${BATCHED} events in batches of 1000 | events/s, ${SINGLE} events one per call |\n|---|---|---|`);
  console.log(rows.join('\n'));
} finally {
  await pool.close();
}
