/**
 * `npx tsx bench/pg-write-statements.ts [--events=N]`: where PostgreSQL's share of the write path goes,
 * statement by statement. Imports the first N bench events (verification skipped) into a throwaway
 * cluster (fsync on) with pg_stat_statements loaded, then prints statements per event and the
 * statements that took the most execution time (calls, ms, rows). Execution time only: parse, bind and
 * protocol work are not in it, so statements sent often weigh more than this shows (bench/pg-write-cpu.ts
 * has the CPU per event of both sides).
 */
import { EventEmitter } from 'node:events';
import pg from 'pg';
import { createImporter } from '../server/ingest/importer.ts';
import { VERIFY_OK, type VerifyCode } from '../server/ingest/verify.ts';
import { openPostgres } from '../server/store/postgres.ts';
import { startTempPostgres } from '../tests/support/postgres.ts';
import { benchEvents, BENCH_NOW } from './server-data.ts';

const acceptAll = { threads: 0, verify: async (events: readonly unknown[]) => events.map((): VerifyCode => VERIFY_OK), close: async () => {} };

const limit = Number(process.argv.find((a) => a.startsWith('--events='))?.slice('--events='.length) ?? 3000);
const events = (await benchEvents()).slice(0, limit);
const temp = await startTempPostgres({ fsync: true, settings: { shared_preload_libraries: 'pg_stat_statements' } });
try {
  const db = await openPostgres(temp.url);
  const stats = new pg.Client(temp.url);
  await stats.connect();
  await stats.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await stats.query('SELECT pg_stat_statements_reset()');
  const importer = createImporter({ db, live: new EventEmitter(), now: () => BENCH_NOW, verifier: acceptAll });
  for (let i = 0; i < events.length; i += 1000) await importer.importEvents(events.slice(i, i + 1000), 'bench');
  // The statements of the import only: this client's own are left out by user-independent text match.
  const mine = "query NOT LIKE '%pg_stat_statements%'";
  const total = (await stats.query(`SELECT sum(calls) AS calls, sum(total_exec_time) AS ms FROM pg_stat_statements WHERE ${mine}`)).rows[0];
  console.log(`| PostgreSQL statements, ${events.length} events | ${(Number(total.calls) / events.length).toFixed(2)} per event, ${(Number(total.ms) / events.length).toFixed(3)} ms execution per event |`);
  console.log('| calls | exec ms | share | rows | statement |');
  console.log('|---|---|---|---|---|');
  const top = await stats.query(
    `SELECT calls, total_exec_time AS ms, rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS q FROM pg_stat_statements
     WHERE ${mine} ORDER BY total_exec_time DESC LIMIT 15`,
  );
  for (const r of top.rows) {
    console.log(`| ${r.calls} | ${Number(r.ms).toFixed(0)} | ${((100 * Number(r.ms)) / Number(total.ms)).toFixed(0)} % | ${r.rows} | \`${r.q}\` |`);
  }
  await stats.end();
  await db.close();
} finally {
  temp.stop();
}
