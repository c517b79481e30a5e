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
  /**
   * Holds a row of `insert` to go out later in one multi-row statement with the other rows held for its
   * table (PostgreSQL's pipelined transactions; see insertRows).
   */
  insertLater?(insert: RowInsert, row: SqlValue[], key?: string, merge?: MergeRows): void;
}

/** One row standing for `held` followed by `next` (same conflict key), as the upsert would leave it. */
export type MergeRows = (held: SqlValue[], next: SqlValue[]) => SqlValue[];

/** An INSERT whose VALUES list takes any number of rows: see rowInsert and insertRows. */
export interface RowInsert {
  table: string;
  width: number;
  sql(values: string): string;
}

/**
 * `INSERT INTO table (columns) VALUES … tail`. `table` must be the name every statement that reads or
 * changes the table spells out: a held row goes out before any such statement (see insertRows).
 */
export function rowInsert(table: string, columns: string[], tail = ''): RowInsert {
  const head = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `;
  return { table, width: columns.length, sql: (values) => (tail ? `${head}${values} ${tail}` : `${head}${values}`) };
}

export interface TransactionOptions {
  /**
   * Lets `write` go out without waiting for its answer (PostgreSQL). Every deferred write is flushed
   * before COMMIT; the importer's group path uses it, and its per-event retry does not, so a failure
   * there is still pinned to one event.
   */
  pipelined?: boolean;
  /**
   * The transaction's rows can be got again if its last commits are lost in a crash (events signed by
   * their authors, which the relays still hold): PostgreSQL then commits without waiting for the WAL
   * flush. Atomicity and consistency are unchanged; only the last ~0.6 s of commits may vanish.
   */
  refetchable?: boolean;
}

/** Sends a write whose result is not read; waits only where the store cannot defer it. */
export async function write(q: Queryable, sql: string, params?: SqlValue[]): Promise<void> {
  if (q.write) return q.write(sql, params);
  await q.run(sql, params);
}

/** Most rows per multi-row statement (a power of two, see writeRows). */
export const ROWS_MAX = 64;

const valuesLists = new Map<string, string>();
/** `(?, ?), (?, ?)` for `rows` rows of `width` values. */
export function valuesList(width: number, rows: number): string {
  const key = `${width}x${rows}`;
  let list = valuesLists.get(key);
  if (list === undefined) {
    list = Array(rows).fill(`(${Array(width).fill('?').join(', ')})`).join(', ');
    valuesLists.set(key, list);
  }
  return list;
}

/**
 * Writes `rows` (each `width` values) with as few statements as it can: `sql` gets the VALUES list
 * for n rows and returns the statement. n is a power of two up to ROWS_MAX, so one statement has at
 * most seven texts for the stores to prepare, whatever the row counts. On PostgreSQL an
 * ON CONFLICT DO UPDATE may not meet one key twice in a statement: callers pass distinct keys.
 */
export async function writeRows(q: Queryable, sql: (values: string) => string, width: number, rows: SqlValue[][]): Promise<void> {
  // SQLite has no round trips to save, and there a multi-row INSERT cost 3-4x the time of as many
  // single-row ones (event_tags, bench/RESULTS.md 2026-11-26 11:23): one row per statement.
  const most = q.dialect === 'sqlite' ? 1 : ROWS_MAX;
  for (const batch of rowBatches(rows, most)) await write(q, sql(valuesList(width, batch.length)), batch.flat());
}

/**
 * `rows` in runs of `most` rows (a power of two), the tail in smaller powers of two: a handful of
 * statement shapes per table, so each is prepared and planned once.
 */
export function* rowBatches<R>(rows: R[], most: number): Generator<R[]> {
  for (let i = 0; i < rows.length; ) {
    let n = most;
    while (n > rows.length - i) n >>= 1;
    yield rows.slice(i, i + n);
    i += n;
  }
}

/**
 * Writes `rows` of `insert`. Inside a pipelined transaction on PostgreSQL they are held and go out
 * together with the rows other events of the group add to the same table, in one statement per up to
 * ROWS_MAX rows, at the first statement that names the table (so every read and every other write of
 * it sees them, in order) or at the flush before COMMIT: one statement per table per group instead of
 * one per event, for tables the group's other statements rarely touch. `keyOf` names the conflict
 * target of an ON CONFLICT DO UPDATE, which PostgreSQL refuses to meet twice in one statement: a
 * repeated key sends the rows held so far first, as it would have run one after the other, or with
 * `merge` replaces the held row by one that leaves what the two would. Elsewhere the rows go at once,
 * as writeRows sends them (keys must then be distinct within one call).
 */
export async function insertRows(
  q: Queryable,
  insert: RowInsert,
  rows: SqlValue[][],
  keyOf?: (row: SqlValue[]) => string,
  merge?: MergeRows,
): Promise<void> {
  if (q.insertLater) {
    for (const row of rows) q.insertLater(insert, row, keyOf?.(row), merge);
    return;
  }
  await writeRows(q, insert.sql, insert.width, rows);
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
