/**
 * Exactly one process of a PostgreSQL deployment runs the periodic jobs (score expiry, invoice
 * pruning, the demo wallet service, upstream ingestion, resumed rebroadcasts): two wallet
 * services answering one NIP-47 request would pay twice. The holder of a session-level
 * advisory lock leads; the others retry, so a dead leader's lock (released with its
 * connection) passes to another within one retry interval. SQLite has one process: it leads.
 */
import pg from 'pg';

/** Arbitrary, but fixed: every Strucc process must ask for the same lock. */
const LEADER_LOCK_KEY = 7_352_441_001;
const DEFAULT_RETRY_MS = 2000;

/** Runs the jobs; the returned function stops them (leadership lost or server closing). */
export type LeaderJobs = () => Promise<() => Promise<void>>;

export interface Leadership {
  isLeader(): boolean;
  close(): Promise<void>;
}

export function singleProcessLeadership(jobs: LeaderJobs): Promise<Leadership> {
  return jobs().then((stop) => ({
    isLeader: () => true,
    close: stop,
  }));
}

export async function startLeadership(opts: {
  connectionString: string;
  jobs: LeaderJobs;
  retryMs?: number;
  verbose?: boolean;
}): Promise<Leadership> {
  const retryMs = opts.retryMs ?? DEFAULT_RETRY_MS;
  let client: pg.Client | null = null;
  let stopJobs: (() => Promise<void>) | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let attempt: Promise<void> = Promise.resolve();

  const resign = async () => {
    const stop = stopJobs;
    stopJobs = null;
    await stop?.().catch(() => undefined);
  };

  /** On the first attempt a failure of the jobs (e.g. demo seeding) fails the server's start. */
  const tryLead = async (initial = false): Promise<void> => {
    if (closed || stopJobs) return;
    let locked = false;
    try {
      if (!client) {
        const c = new pg.Client({ connectionString: opts.connectionString });
        c.on('error', () => {
          // The lock lived on this connection: with it gone, another process may lead now.
          if (client === c) client = null;
          c.end().catch(() => undefined);
          void resign();
        });
        await c.connect();
        client = c;
      }
      const row = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [LEADER_LOCK_KEY]);
      locked = row.rows[0]?.ok === true;
      if (!locked || closed) return;
      if (opts.verbose) console.log('Ez a folyamat futtatja az időzített feladatokat.');
      stopJobs = await opts.jobs();
    } catch (err) {
      // Jobs that failed to start give the lock back, so another process can try.
      if (locked && client) await client.query('SELECT pg_advisory_unlock($1)', [LEADER_LOCK_KEY]).catch(() => undefined);
      if (initial) throw err;
      if (opts.verbose) console.error('Vezetőválasztási hiba:', err instanceof Error ? err.message : err);
    }
  };

  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => {
      attempt = tryLead().finally(schedule);
    }, retryMs);
    timer.unref();
  };

  try {
    await tryLead(true);
  } catch (err) {
    closed = true;
    // Assigned inside tryLead, which TypeScript's narrowing does not follow.
    await (client as pg.Client | null)?.end().catch(() => undefined);
    throw err;
  }
  schedule();

  return {
    isLeader: () => stopJobs !== null,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await attempt.catch(() => undefined);
      await resign();
      const c = client;
      client = null;
      // Ending the session releases the advisory lock for the next leader.
      await c?.end().catch(() => undefined);
    },
  };
}
