/**
 * `npm run bench:server`: in one run, prints
 * 1. the bare WASM verification rate on this machine (one thread, and the verify pool) — the ceiling;
 * 2. events/s through the real verifying importer into a fresh SQLite store (≥ 50,000 real signed
 *    events, cached under .cache/bench/), and its ratio to the ceiling;
 * 3. p50/p99 latency of mega_feed_directive (latest), thread_view, user_profile, explore, get_notifications
 *    and search (each beside its target and the p99 of the run before issue 18) over a
 *    database of ≥ 1,000,000 events (built once, cached; its synthetic part is not re-verified, see
 *    server-data.ts), with 100 websocket clients against a real server process on 127.0.0.1.
 * Everything stays on 127.0.0.1 and every phase has a fixed duration.
 *
 * `npm run bench:server -- --pg` runs the same phases on PostgreSQL (DATABASE_URL, or a throwaway
 * cluster): ingest into a fresh database, latency over a copy of the same ≥ 1M-event database.
 * `--ingest-only` stops after the ingest phase (no million-event database needed); `--events=N` ingests
 * only the first N signed events; `--latency-only` skips the ingest phase; `--only=<label prefix>` measures
 * some latency rows only; `--warmup=<s>` warms each row up longer than 2 s; `--verify-threads=N` gives the importer N verify workers instead of the server's
 * default (a worker per core), `--verify-nice=N` runs them at nice N instead of what the server
 * sets for the store (10 on SQLite, 0 on PostgreSQL; 0 = as before s8-sqingest). bench/hot-queries.ts times the same commands in process, statement by statement.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../tests/support/server-process.ts';
import { benchDatabase, benchEvents } from './server-data.ts';
import { benchTargets, hotCommands } from './server-targets.ts';
import { freshSqlite, measureIngest, type FreshStore, type IngestFigures } from './server-ingest.ts';
import { benchPostgres, copySqliteToPostgres, type BenchPostgres } from './server-pg.ts';
import { openPostgres } from '../server/store/postgres.ts';
import { LoadGenerator, type LoadOptions, type LoadResult } from './server-load.ts';

/**
 * --pg-url=<url>: a database that already holds the copy (bench/pg-copy-keep.ts prints one), used as it is
 * instead of a fresh one filled again: for A/B runs of the latency rows without a copy each time.
 */
const PG_URL = process.argv.find((a) => a.startsWith('--pg-url='))?.slice('--pg-url='.length);
const PG = process.argv.includes('--pg') || PG_URL !== undefined;
const BACKEND = PG ? 'PostgreSQL' : 'SQLite';
/**
 * Verified ingest ÷ the one-core verification ceiling: the figure before issue 18's work and the target
 * (bench/RESULTS.md, 2026-11-26: SQLite 0.28; PostgreSQL 0.17, its first figure, 5,000 events at load 14,
 * before the pipelined writes). For PostgreSQL on a busy machine, bench/pg-write-cpu.ts (CPU per event)
 * says more than this wall-clock ratio.
 */
const INGEST_TARGET = PG ? { baseline: 0.17, target: 0.6 } : { baseline: 0.28, target: 0.8 };

/** `--warmup=<seconds>`: a longer warm-up, to tell what the first requests of a cache cost from its steady state. */
const WARMUP = Number(process.argv.find((a) => a.startsWith('--warmup='))?.slice('--warmup='.length) ?? 2);
const LOAD: LoadOptions = { clients: 100, seconds: 15, warmupSeconds: WARMUP, thinkMs: 1000, saturationSeconds: 5 };

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const log = (msg: string) => console.error(`[bench] ${msg}`);

/**
 * Issue 18's p99 targets, 100 clients: on SQLite 25 ms (search 100 ms); on PostgreSQL 50 ms for every
 * command ("same commands on PostgreSQL < 50 ms"). Earlier PostgreSQL runs printed SQLite's targets.
 */
const TARGET_P99: Record<string, number> = PG
  ? {}
  : { search: 100, 'search (orderby:likes|score|replies)': 100, 'user_search (1-3 letter prefix)': 100 };
const DEFAULT_TARGET_P99 = PG ? 50 : 25;
/**
 * p99 of the run before issue 18's work (bench/RESULTS.md, 2026-11-22 03:42, SQLite), shown beside each
 * new figure; PostgreSQL had no such run.
 */
const BASELINE_P99: Record<string, number> = PG ? {} : {
  'mega_feed_directive (latest)': 46.4,
  thread_view: 8.6,
  user_profile: 138.3,
  search: 1076.5,
};

function ingestRows(f: IngestFigures): string[][] {
  const ratio = f.ingest / f.verifyOneThread;
  const { baseline, target } = INGEST_TARGET;
  return [
    ['store', BACKEND],
    ['machine', `${availableParallelism()} cores, Node ${process.version}`],
    // Other processes on the machine skew every figure here; the load average says how much.
    ['load average (1 min) at the end of the run', fmt(loadavg()[0], 2)],
    ['real signed demo events', fmt(f.events)],
    ['bare WASM verifyEvent, one thread (ceiling per core)', `${fmt(f.verifyOneThread)} events/s`],
    [`verify pool, ${f.poolThreads} worker threads (ceiling of the machine)`, `${fmt(f.verifyPool)} events/s`],
    [`ingest: verified, through the importer (${f.ingestThreads} verify worker threads), fresh ${BACKEND}`, `${fmt(f.ingest)} events/s (${fmt(f.stored)} stored)`],
    [
      `ingest ÷ one-thread ceiling (target ≥ ${target}; baseline ${baseline === null ? 'not measured' : baseline})`,
      `${fmt(ratio, 2)}${baseline === null ? '' : ` (${fmt(ratio / baseline, 2)}× the baseline)`}, target ${ratio >= target ? 'met' : 'not met'}`,
    ],
    ['ingest ÷ pool ceiling', fmt(f.ingest / f.verifyPool, 2)],
    ['write path alone (verification skipped), for reference', `${fmt(f.writeOnly)} events/s`],
  ];
}

function printIngest(ingest: IngestFigures, what = 'ingest'): void {
  console.log(`\n## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} — server bench on ${BACKEND} (${what})\n`);
  console.log('| measure | value |\n|---|---|');
  for (const [k, v] of ingestRows(ingest)) console.log(`| ${k} | ${v} |`);
}

/** Fresh PostgreSQL databases for the ingest measure, one per run of the importer. */
function freshPostgres(server: BenchPostgres): FreshStore {
  let n = 0;
  return async () => {
    const db = await openPostgres(await server.fresh(`strucc_bench_ingest_${++n}`));
    return { db, dispose: () => db.close() };
  };
}

async function main() {
  const pg = PG && !PG_URL ? await benchPostgres() : null;
  try {
    await run(pg);
  } finally {
    await pg?.stop();
  }
}

async function run(pg: BenchPostgres | null) {
  const events = await benchEvents();
  // A smaller ingest for a quick look (the latency database is still built from all of them).
  const limit = Number(process.argv.find((a) => a.startsWith('--events='))?.slice('--events='.length) ?? events.length);
  const ingested = events.slice(0, limit);
  // --latency-only: the latency rows alone (the ingest phase takes minutes and has its own flags).
  const latencyOnly = process.argv.includes('--latency-only');
  if (PG_URL && !latencyOnly) throw new Error('--pg-url measures latency only: add --latency-only');
  if (!latencyOnly) log(`ingest: ${ingested.length} signed events into ${BACKEND}`);
  // --verify-threads=N: the importer's verify workers (default: the server's, a worker per core).
  const threadsArg = process.argv.find((a) => a.startsWith('--verify-threads='))?.slice('--verify-threads='.length);
  const niceArg = process.argv.find((a) => a.startsWith('--verify-nice='))?.slice('--verify-nice='.length);
  const ingest = latencyOnly
    ? null
    : await measureIngest(ingested, pg ? freshPostgres(pg) : freshSqlite, threadsArg ? Number(threadsArg) : undefined, niceArg ? Number(niceArg) : undefined);
  if (ingest && process.argv.includes('--ingest-only')) {
    printIngest(ingest);
    return;
  }

  log('latency: preparing the ≥ 1M-event database (cached after the first build)…');
  const big = await benchDatabase(events);
  const dataDir = mkdtempSync(join(tmpdir(), 'strucc-bench-server-'));
  const results: [string, LoadResult | null][] = [];
  let copied = '';
  try {
    // A copy, so the server's own writes (score expiry) never change the cached database.
    copyFileSync(join(big.dir, 'strucc.sqlite'), join(dataDir, 'strucc.sqlite'));
    const t = await benchTargets(join(dataDir, 'strucc.sqlite'), events);
    const { COMMANDS } = await import('../server/cache/registry.ts');
    // Every client comes from 127.0.0.1: the per-address connection cap would refuse most of them.
    const env: Record<string, string> = { DEMO: '0', MAX_CONNECTIONS_PER_IP: '0' };
    if (PG_URL) {
      env.DATABASE_URL = PG_URL;
      copied = `an existing copy reused (--pg-url), session options: ${new URL(PG_URL).searchParams.get('options') ?? 'none in the URL'}`;
    } else if (pg) {
      log('latency: copying the database into PostgreSQL…');
      env.DATABASE_URL = await pg.fresh('strucc_bench_latency');
      copied = await copySqliteToPostgres(join(dataDir, 'strucc.sqlite'), env.DATABASE_URL);
    }
    const server = await startServerProcess(env, dataDir);
    let load: LoadGenerator | null = null;
    try {
      load = await LoadGenerator.connect(`${server.url.replace(/^http/, 'ws')}/v1`, LOAD.clients);
      const commands = hotCommands(t);
      // --only=<label prefix>: some rows only (say, while working on one command).
      const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
      for (const [label, name, next] of commands) {
        if (only && !label.startsWith(only)) continue;
        if (!COMMANDS.has(name)) {
          results.push([label, null]);
          continue;
        }
        log(`latency: ${label}, ${LOAD.clients} clients, ${LOAD.seconds} s…`);
        results.push([label, await load.measure(name, next, LOAD)]);
      }
    } finally {
      load?.close();
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  if (ingest) printIngest(ingest, 'ingest and latency');
  else {
    console.log(`\n## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} — server bench on ${BACKEND} (latency only)\n`);
    console.log(`Load average (1 min) at the end of the run: ${fmt(loadavg()[0], 2)}; ${availableParallelism()} cores, Node ${process.version}.`);
  }
  console.log(
    `\nLatency over ${fmt(big.events)} events (${fmt(events.length)} real signed ones through the verifying importer, the rest synthetic and` +
      ` written through the same derived-table code without re-verification), ${LOAD.clients} websocket clients with the zlib protocol,` +
      ` each pausing 0–${(2 * LOAD.thinkMs) / 1000} s between requests, ${LOAD.seconds} s per command after ${LOAD.warmupSeconds} s warm-up;` +
      ` then ${LOAD.saturationSeconds} s with no pause for the most requests per second. Store: ${BACKEND}${copied ? ` (${copied})` : ''}.\n`,
  );
  console.log(
    '| command | requests | errors | p50 ms | p99 ms | target p99 ms | p99 ÷ target | baseline p99 ms (2026-11-22) | req/s | max req/s (no pause) |\n' +
      '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const [label, r] of results) {
    const target = TARGET_P99[label] ?? DEFAULT_TARGET_P99;
    const baseline = BASELINE_P99[label] === undefined ? 'not measured' : fmt(BASELINE_P99[label], 1);
    if (!r) console.log(`| ${label} | n/a | n/a | n/a | n/a | ${target} | n/a | ${baseline} | n/a | n/a |`);
    else
      console.log(
        `| ${label} | ${r.requests} | ${r.errors} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${target} | ${fmt(r.p99 / target, 2)} | ${baseline} | ${fmt(r.perSecond)} | ${fmt(r.maxPerSecond)} |`,
      );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
