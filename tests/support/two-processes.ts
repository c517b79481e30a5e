/**
 * Two server processes on one throwaway PostgreSQL, for the tests that publish through one process and
 * read through the other. Registers its own beforeAll/afterAll in the calling describe; the returned
 * object's fields are set once beforeAll has run.
 */
import { afterAll, beforeAll } from 'vitest';
import { startTempPostgres, type TempPostgres } from './postgres.ts';
import { startServerProcess, type RunningServer } from './server-process.ts';

export interface TwoProcesses {
  pg: TempPostgres;
  a: RunningServer;
  b: RunningServer;
}

export function twoProcessesOnPostgres(env: Record<string, string> = {}): TwoProcesses {
  const procs = {} as TwoProcesses;
  beforeAll(async () => {
    procs.pg = await startTempPostgres();
    const all = { DATABASE_URL: procs.pg.url, DEMO: '0', ...env };
    // Started together, as a process manager would: schema creation must not race.
    [procs.a, procs.b] = await Promise.all([startServerProcess(all), startServerProcess(all)]);
  }, 120_000);
  afterAll(async () => {
    await procs.a?.stop();
    await procs.b?.stop();
    procs.pg?.stop();
  });
  return procs;
}
