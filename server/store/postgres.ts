import pg from 'pg';
import { ROWS_MAX, rowBatches, valuesList, type Database, type MergeRows, type Queryable, type RowInsert, type RunResult, type SqlValue, type TransactionOptions } from './db.ts';
import { upgradeSearch } from '../ingest/index-search.ts';
import { collateExistingColumns, withByteOrder } from './pg-collation.ts';
import { checkSchemaVersion, SCHEMA, SCHEMA_VERSION, SCHEMA_VERSION_TABLE } from './schema.ts';
import { searchSchema, tablesDroppedFrom } from './search-schema.ts';

// BIGINT columns hold unix times and sat amounts, far below 2^53: read them as numbers
// so both backends hand the same row shapes to the code above the seam.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** Any fixed number; every Strucc process asks for the same one (see server/cluster/leader.ts for the other). */
const SCHEMA_LOCK_KEY = 7_352_441_000;

/** Rewrites the portable `?` placeholders to PostgreSQL's `$1, $2, …`. */
export function toPgPlaceholders(sql: string): string {
  let n = 0;
  let out = '';
  let quoted = false;
  for (const ch of sql) {
    if (ch === "'") quoted = !quoted;
    out += ch === '?' && !quoted ? `$${++n}` : ch;
  }
  return out;
}

/**
 * Statement texts seen so far, rewritten once, each with a name: a named statement is parsed and planned
 * once per connection and then only executed, which saves a server-side parse per query (the importer
 * runs ~20 per event). Texts built with a varying number of placeholders would grow this without end,
 * so past the cap new texts run unnamed. Texts without parameters stay on the simple protocol (unnamed),
 * as before, where a text may hold several statements.
 */
const NAMED_MAX = 2000;
const statements = new Map<string, { text: string; name?: string }>();
const hasParams = (sql: string) => sql.includes('?');
function statement(sql: string): { text: string; name?: string } {
  let s = statements.get(sql);
  if (!s) {
    s = { text: toPgPlaceholders(sql), name: statements.size < NAMED_MAX && hasParams(sql) ? `strucc_${statements.size}` : undefined };
    if (s.name) statements.set(sql, s);
  }
  return s;
}

function bind(client: pg.Pool | pg.PoolClient): Queryable {
  const query = (sql: string, params: SqlValue[] = []) => {
    const { text, name } = statement(sql);
    return client.query({ text, name, values: params.map((p) => (typeof p === 'bigint' ? p.toString() : p)) });
  };
  return {
    dialect: 'postgres',
    async all<T>(sql: string, params?: SqlValue[]) {
      return (await query(sql, params)).rows as T[];
    },
    async get<T>(sql: string, params?: SqlValue[]) {
      return (await query(sql, params)).rows[0] as T | undefined;
    },
    async run(sql: string, params?: SqlValue[]): Promise<RunResult> {
      return { changes: (await query(sql, params)).rowCount ?? 0 };
    },
  };
}

/** Whether a statement names a table (as a whole word: event_media does not name media). */
const namings = new Map<string, RegExp>();
function names(sql: string, table: string): boolean {
  let re = namings.get(table);
  if (!re) {
    re = new RegExp(`\\b${table}\\b`);
    namings.set(table, re);
  }
  return re.test(sql);
}

/**
 * A transaction's statements on a pipelined connection: `write` puts the statement on the wire and
 * returns at once, so the ~30 writes of an imported event cost no round trip each; a read waits only
 * for its own answer, which PostgreSQL sends after those of every statement queued before it (one
 * connection runs them in order, so the read sees the writes). Each statement carries its own Sync, so
 * a failed write leaves the transaction aborted: every later statement fails, and the first failure
 * is what reads and flush report (COMMIT of an aborted transaction would only say ROLLBACK).
 */
function bindPipelined(client: pg.PoolClient): Queryable {
  const q = bind(client);
  const pending: Promise<unknown>[] = [];
  let failure: unknown = null;
  const first = (err: unknown) => {
    throw failure ?? err;
  };
  // The driver writes each protocol message of each statement to the socket on its own (a syscall
  // apiece, a third of the importer's CPU once the waits were gone). Deferred writes are held in the
  // socket's buffer and go out together with the next statement that waits for its answer. The socket
  // is the driver's (not in its types); without it statements simply go out one by one.
  const socket = (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
  let held = false;
  const hold = () => {
    if (held || !socket?.cork || !socket.uncork) return;
    socket.cork();
    held = true;
  };
  const send = () => {
    if (!held) return;
    held = false;
    socket!.uncork!();
  };
  // A read goes out at the end of the current task rather than at once, so reads started together
  // (Promise.all) share one write to the socket and one wake-up of the server: each write costs ~0.1 ms
  // of this process's CPU on loopback TCP, more than the statements in it (bench/RESULTS.md s11-pging).
  let sending = false;
  const sendSoon = () => {
    if (sending || !held) return;
    sending = true;
    queueMicrotask(() => {
      sending = false;
      send();
    });
  };
  const defer = (sql: string, params?: SqlValue[]) => {
    hold();
    pending.push(
      q.run(sql, params).catch((err: unknown) => {
        failure ??= err;
      }),
    );
  };
  // Rows held for multi-row INSERTs, by table (see insertRows in db.ts): they go out, in the order they
  // came, before the first statement that names their table, and at the flush.
  const later = new Map<string, { insert: RowInsert; rows: SqlValue[][]; keys: Map<string, number> }>();
  const release = (table: string) => {
    const h = later.get(table)!;
    later.delete(table);
    const { insert, rows } = h;
    for (const batch of rowBatches(rows, ROWS_MAX)) defer(insert.sql(valuesList(insert.width, batch.length)), batch.flat());
  };
  const before = (sql: string) => {
    if (later.size === 0) return;
    for (const table of later.keys()) if (names(sql, table)) release(table);
  };
  const waited = <T>(sql: string, run: () => Promise<T>): Promise<T> => {
    before(sql);
    const p = run();
    sendSoon();
    return p.catch(first);
  };
  return {
    ...q,
    all: <T>(sql: string, params?: SqlValue[]) => waited(sql, () => q.all<T>(sql, params)),
    get: <T>(sql: string, params?: SqlValue[]) => waited(sql, () => q.get<T>(sql, params)),
    run: (sql, params) => waited(sql, () => q.run(sql, params)),
    async write(sql, params) {
      if (failure) throw failure;
      before(sql);
      defer(sql, params);
    },
    insertLater(insert: RowInsert, row: SqlValue[], key?: string, merge?: MergeRows) {
      let h = later.get(insert.table);
      const at = key === undefined ? undefined : h?.keys.get(key);
      if (h && h.insert === insert && at !== undefined && merge) {
        h.rows[at] = merge(h.rows[at], row);
        return;
      }
      if (h && (h.insert !== insert || at !== undefined)) {
        release(insert.table);
        h = undefined;
      }
      if (!h) {
        h = { insert, rows: [], keys: new Map() };
        later.set(insert.table, h);
      }
      if (key !== undefined) h.keys.set(key, h.rows.length);
      h.rows.push(row);
    },
    async flush() {
      for (const table of [...later.keys()]) release(table);
      send();
      while (pending.length > 0) await Promise.all(pending.splice(0));
      if (failure) throw failure;
    },
  };
}

/** The store for deployments that outgrow one machine's SQLite file. */
/**
 * Session settings of every connection (a connection string's own `options` take precedence). No
 * parallel query: the cache's statements read a page, and on a small machine shared by many clients the
 * worker processes a Gather starts cost more than they save (explore's ranking at 1M events: 30-70 ms
 * with two workers under load, 0.6 ms without, bench/RESULTS.md s8-pg1m).
 */
const SESSION_OPTIONS = '-c max_parallel_workers_per_gather=0';

export async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 8, options: SESSION_OPTIONS });
  // Transactions are serialised (below), so one connection serves them; pipelined, so deferred writes
  // go out back to back (bindPipelined). Separate from `pool`, whose one-off reads stay as they were.
  const txPool = new pg.Pool({ connectionString, max: 1, pipeline: true, options: SESSION_OPTIONS });
  // Several processes may start on one database at once; CREATE … IF NOT EXISTS is not safe
  // against a concurrent twin, so they take turns.
  const setup = await pool.connect();
  try {
    await setup.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK_KEY]);
    await setup.query(SCHEMA_VERSION_TABLE);
    const version = await setup.query('SELECT version FROM schema_version WHERE id = $1', [1]);
    const upgradeFrom = checkSchemaVersion(version.rows[0]?.version);
    const upgrade = upgradeFrom !== null;
    // An upgrade drops the term tables, builds the new index from the stored events and bumps the
    // version in one transaction: a crash half-way leaves the old version, which upgrades again.
    if (upgrade) await setup.query('BEGIN');
    if (upgrade) for (const table of tablesDroppedFrom(upgradeFrom)) await setup.query(`DROP TABLE IF EXISTS ${table}`);
    const schema = [...SCHEMA, ...searchSchema('postgres')].map(withByteOrder);
    for (const stmt of schema) await setup.query(stmt);
    await collateExistingColumns(setup, schema);
    if (upgrade) {
      await upgradeSearch(bind(setup), upgradeFrom);
      await setup.query('UPDATE schema_version SET version = $1 WHERE id = $2', [SCHEMA_VERSION, 1]);
      await setup.query('COMMIT');
    }
    await setup.query('INSERT INTO schema_version (id, version) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [1, SCHEMA_VERSION]);
  } catch (err) {
    await setup.query('ROLLBACK').catch(() => undefined);
    setup.release();
    await pool.end();
    await txPool.end();
    throw err;
  }
  await setup.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK_KEY]).catch(() => undefined);
  setup.release();
  const q = bind(pool);

  // Same contract as the SQLite store: transactions do not overlap each other.
  let tail: Promise<unknown> = Promise.resolve();
  return {
    ...q,
    transaction<T>(fn: (tx: Queryable) => Promise<T>, opts: TransactionOptions = {}): Promise<T> {
      const next = tail.then(async () => {
        const client = await txPool.connect();
        const tx = opts.pipelined ? bindPipelined(client) : bind(client);
        try {
          // One round trip for both; SET LOCAL ends with the transaction.
          await client.query(opts.refetchable ? 'BEGIN; SET LOCAL synchronous_commit = off' : 'BEGIN');
          const result = await fn(tx);
          await tx.flush?.();
          await client.query('COMMIT');
          return result;
        } catch (err) {
          // Writes still held or on the wire go out and settle first, so ROLLBACK is not held behind them.
          await tx.flush?.().catch(() => undefined);
          await client.query('ROLLBACK').catch(() => undefined);
          throw err;
        } finally {
          client.release();
        }
      });
      tail = next.catch(() => undefined);
      return next;
    },
    async close() {
      await tail;
      await pool.end();
      await txPool.end();
    },
  };
}
