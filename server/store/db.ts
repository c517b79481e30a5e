/**
 * The storage seam. Every query in the server is written once, in portable SQL
 * (`?` placeholders, ON CONFLICT upserts, no dialect-only functions), and runs on
 * whichever backend implements this interface: SQLite now, PostgreSQL later.
 * Everything is async because the PostgreSQL driver is.
 */
export type SqlValue = string | number | bigint | null | Uint8Array;

export interface RunResult {
  changes: number;
}

export interface Queryable {
  /** Which engine runs the statements: the few dialect-only features (full-text search) branch on it. */
  readonly dialect: 'sqlite' | 'postgres';
  all<T = Record<string, unknown>>(sql: string, params?: SqlValue[]): Promise<T[]>;
  get<T = Record<string, unknown>>(sql: string, params?: SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: SqlValue[]): Promise<RunResult>;
  /**
   * A write whose result nobody reads. Inside a pipelined transaction (see Database.transaction) the
   * PostgreSQL store sends it without waiting for the answer: the statements behind it queue on the
   * same connection in order, so a later read still sees it, and a failure surfaces at the next read
   * or at flush/commit. Elsewhere (and on SQLite, where nothing waits on a network) it is `run`.
   * Absent on stores that have nothing to gain: use the `write` helper below.
   */
  write?(sql: string, params?: SqlValue[]): Promise<void>;
  /** Waits for every write sent without waiting; throws the first one's failure. */
  flush?(): Promise<void>;
}

export interface TransactionOptions {
  /**
   * Lets `write` go out without waiting for its answer (PostgreSQL). Every deferred write is flushed
   * before COMMIT; the importer's group path uses it, and its per-event retry does not, so a failure
   * there is still pinned to one event.
   */
  pipelined?: boolean;
}

/** Sends a write whose result is not read; waits only where the store cannot defer it. */
export async function write(q: Queryable, sql: string, params?: SqlValue[]): Promise<void> {
  if (q.write) return q.write(sql, params);
  await q.run(sql, params);
}

/** Most rows per multi-row statement (a power of two, see writeRows). */
const ROWS_MAX = 64;

/**
 * Writes `rows` (each `width` values) with as few statements as it can: `sql` gets the VALUES list
 * for n rows and returns the statement. n is a power of two up to ROWS_MAX, so one statement has at
 * most seven texts for the stores to prepare, whatever the row counts. On PostgreSQL an
 * ON CONFLICT DO UPDATE may not meet one key twice in a statement: callers pass distinct keys.
 */
export async function writeRows(q: Queryable, sql: (values: string) => string, width: number, rows: SqlValue[][]): Promise<void> {
  const one = `(${Array(width).fill('?').join(', ')})`;
  // SQLite has no round trips to save, and there a multi-row INSERT cost 3-4x the time of as many
  // single-row ones (event_tags, bench/RESULTS.md 2026-11-26 11:23): one row per statement.
  const most = q.dialect === 'sqlite' ? 1 : ROWS_MAX;
  for (let i = 0; i < rows.length; ) {
    let n = most;
    while (n > rows.length - i) n >>= 1;
    await write(q, sql(Array(n).fill(one).join(', ')), rows.slice(i, i + n).flat());
    i += n;
  }
}

/** Waits for the writes `q` sent without waiting (a no-op on stores that never defer). */
export async function flush(q: Queryable): Promise<void> {
  await q.flush?.();
}

export interface Database extends Queryable {
  /**
   * Runs `fn` atomically. Transactions are serialised: while one is open no other
   * write on this database starts, so interleaved awaits cannot see half a batch.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, opts?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}
