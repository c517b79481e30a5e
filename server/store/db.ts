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
}

export interface Database extends Queryable {
  /**
   * Runs `fn` atomically. Transactions are serialised: while one is open no other
   * write on this database starts, so interleaved awaits cannot see half a batch.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
