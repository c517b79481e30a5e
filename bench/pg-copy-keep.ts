/**
 * A throwaway PostgreSQL with the 1M bench database copied in, kept running for EXPLAIN work
 * (`npx tsx bench/pg-copy-keep.ts`; prints the URL, stops the cluster on SIGINT/SIGTERM).
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { startTempPostgres } from '../tests/support/postgres.ts';
import { copySqliteToPostgres } from './server-pg.ts';
import { dbKey } from './server-data.ts';

const temp = await startTempPostgres({ fsync: true, settings: { shared_preload_libraries: 'pg_stat_statements' } });
const stop = () => {
  temp.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
const file = join(process.cwd(), '.cache/bench', `db-${dbKey()}`, 'strucc.sqlite');
console.error(`[pg-copy-keep] copying ${file} to ${temp.url}`);
console.error(`[pg-copy-keep] ${await copySqliteToPostgres(file, temp.url)}`);
if (process.argv[2]) writeFileSync(process.argv[2], temp.url);
console.error(`[pg-copy-keep] ready: ${temp.url}`);
setInterval(() => undefined, 1 << 30);
