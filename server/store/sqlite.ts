import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database, Queryable, RunResult, SqlValue } from './db.ts';
import { startCheckpointer, WAL_SIZE_LIMIT, type Checkpointer } from './sqlite-checkpointer.ts';
import { upgradeSearch } from '../ingest/index-search.ts';
import { checkSchemaVersion, SCHEMA, SCHEMA_VERSION, SCHEMA_VERSION_TABLE } from './schema.ts';
import { searchSchema, tablesDroppedFrom } from './search-schema.ts';

/** A 1 ms synchronous pause for syncWal's retries (Atomics.wait on a cell nobody writes). */
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Tables whose rows exist nowhere else (a user's settings, memberships and payments, wallet
 * connections): a write to one is synced to disk before it is acknowledged.
 */
const DURABLE = /^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|REPLACE\s+INTO)\s+(?:app_settings|app_subsettings|memberships|membership_\w+|wallet_\w+)\b/i;

/** The embedded default store: one SQLite file in WAL mode. */
export function openSqlite(file: string): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  // NORMAL: a commit survives a killed process but may not survive a power cut. Writes to DURABLE
  // tables are synced (see below); the rest is derived from events that relays still hold, and FULL
  // everywhere cost batched ingest 14–59 % (median 37 %) on this machine (bench/RESULTS.md, 2026-11-26).
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
  db.pragma('cache_size = -65536');
  // Savepoints (one per imported event) keep original page images in a statement journal; in memory
  // that halves the importer's system time compared with a temp file.
  db.pragma('temp_store = MEMORY');
  // A file store checkpoints on a worker thread (sqlite-checkpointer.ts), not inside the writer's commits.
  let checkpointer: Checkpointer | null = null;
  if (file !== ':memory:' && process.env.STRUCC_SQLITE_INLINE_CHECKPOINT !== '1') {
    db.pragma('wal_autocheckpoint = 0');
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
    checkpointer = startCheckpointer(
      file,
      () => {
        if (db.open) db.pragma('wal_autocheckpoint = 1000');
      },
      () => db.pragma('wal_checkpoint(PASSIVE)'),
    );
  }
  db.exec(SCHEMA_VERSION_TABLE);
  const version = db.prepare('SELECT version FROM schema_version WHERE id = ?').get(1) as { version: number } | undefined;
  const upgradeFrom = checkSchemaVersion(version?.version);
  const upgrade = upgradeFrom !== null;
  if (upgrade) for (const table of tablesDroppedFrom(upgradeFrom)) db.exec(`DROP TABLE IF EXISTS ${table}`);
  for (const stmt of [...SCHEMA, ...searchSchema('sqlite')]) db.exec(stmt);
  // An upgraded file gets its new version with the filled index, in the transaction that fills it (below).
  if (!upgrade) db.prepare('INSERT INTO schema_version (id, version) VALUES (?, ?) ON CONFLICT (id) DO NOTHING').run(1, SCHEMA_VERSION);

  // Prepared statements are cached by their text: the same few hundred queries run millions of times.
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepare = (sql: string) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };

  const durableCache = new Map<string, boolean>();
  const isDurable = (sql: string) => {
    let d = durableCache.get(sql);
    if (d === undefined) durableCache.set(sql, (d = DURABLE.test(sql)));
    return d;
  };
  let touchedDurable = false;

  const tx: Queryable = {
    dialect: 'sqlite',
    async all<T>(sql: string, params: SqlValue[] = []) {
      return prepare(sql).all(...params) as T[];
    },
    async get<T>(sql: string, params: SqlValue[] = []) {
      return prepare(sql).get(...params) as T | undefined;
    },
    async run(sql: string, params: SqlValue[] = []): Promise<RunResult> {
      if (open && isDurable(sql)) touchedDurable = true;
      return { changes: prepare(sql).run(...params).changes };
    },
  };

  /**
   * Syncs the WAL, and with it every commit so far. The checkpoint worker may hold the checkpoint lock,
   * and a PASSIVE checkpoint does not wait for it (it reports busy instead), so this waits its turn.
   */
  const syncWal = () => {
    for (let tries = 0; tries < 5000; tries++) {
      const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number }[];
      if (!row || !row.busy) return;
      Atomics.wait(sleeper, 0, 0, 1);
    }
  };

  // One connection, so transactions must not overlap: queue them.
  let tail: Promise<unknown> = Promise.resolve();
  let open = false;
  const store: Database = {
    dialect: 'sqlite',
    // Reads wait for a schema upgrade's fill, so nobody sees a half-built search index.
    async all<T>(sql: string, params: SqlValue[] = []) {
      if (upgrading) await upgrading;
      return tx.all<T>(sql, params);
    },
    async get<T>(sql: string, params: SqlValue[] = []) {
      if (upgrading) await upgrading;
      return tx.get<T>(sql, params);
    },
    // A write from outside while a transaction is open would run on the same connection, inside it:
    // acknowledged, yet lost if that transaction rolls back or the process dies before its COMMIT.
    // So it waits for the open transaction (and any queued before it) to end.
    async run(sql: string, params: SqlValue[] = []): Promise<RunResult> {
      while (open) await tail;
      if (!isDurable(sql)) {
        // A WAL past its bound: wait for the worker's checkpoint, then for whatever started meanwhile.
        for (let held = checkpointer?.gate(); held; held = checkpointer?.gate()) {
          await held;
          while (open) await tail;
        }
        const r = await tx.run(sql, params);
        checkpointer?.afterWrite();
        return r;
      }
      // This one commit with FULL: the WAL is synced before the statement returns.
      db.pragma('synchronous = FULL');
      try {
        return { changes: prepare(sql).run(...params).changes };
      } finally {
        db.pragma('synchronous = NORMAL');
      }
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const next = tail.then(async () => {
        const held = checkpointer?.gate();
        if (held) await held;
        db.exec('BEGIN');
        open = true;
        touchedDurable = false;
        try {
          const result = await fn(tx);
          db.exec('COMMIT');
          // synchronous cannot change inside a transaction, and which tables it writes is known only
          // now; a checkpoint syncs the WAL (and this commit with it) before the caller acknowledges.
          if (touchedDurable) syncWal();
          checkpointer?.afterWrite();
          return result;
        } catch (err) {
          db.exec('ROLLBACK');
          throw err;
        } finally {
          open = false;
        }
      });
      tail = next.catch(() => undefined);
      return next;
    },
    async close() {
      await tail;
      await checkpointer?.close();
      db.close();
    },
  };
  // The fill is the first queued transaction: every write and transaction waits behind it. It runs on
  // synchronous statements, so it is done before the caller gets to any I/O.
  let upgrading: Promise<unknown> | null = upgrade
    ? store
        .transaction(async (t) => {
          await upgradeSearch(t, upgradeFrom);
          await t.run('UPDATE schema_version SET version = ? WHERE id = ?', [SCHEMA_VERSION, 1]);
        })
        // Logged, not thrown: the file stays at the old version, so the next start drops and refills again.
        .catch((err: unknown) => console.error('search index upgrade failed', err))
        .finally(() => {
          upgrading = null;
        })
    : null;
  return store;
}
