import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database, Queryable, RunResult, SqlValue } from './db.ts';
import { checkSchemaVersion, SCHEMA, SCHEMA_VERSION, SCHEMA_VERSION_TABLE } from './schema.ts';

/** The embedded default store: one SQLite file in WAL mode. */
export function openSqlite(file: string): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  // FULL syncs the WAL at every commit, so an acknowledged write (settings, membership, wallet, a relay
  // EVENT answered OK) survives a power cut too, not only a killed process. Imports commit once per
  // batch, so this costs them little (measured in bench/RESULTS.md, 2026-11-26).
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = OFF');
  db.pragma('cache_size = -65536');
  // Savepoints (one per imported event) keep original page images in a statement journal; in memory
  // that halves the importer's system time compared with a temp file.
  db.pragma('temp_store = MEMORY');
  db.exec(SCHEMA_VERSION_TABLE);
  const version = db.prepare('SELECT version FROM schema_version WHERE id = ?').get(1) as { version: number } | undefined;
  checkSchemaVersion(version?.version);
  for (const stmt of SCHEMA) db.exec(stmt);
  db.prepare('INSERT INTO schema_version (id, version) VALUES (?, ?) ON CONFLICT (id) DO NOTHING').run(1, SCHEMA_VERSION);

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

  const tx: Queryable = {
    async all<T>(sql: string, params: SqlValue[] = []) {
      return prepare(sql).all(...params) as T[];
    },
    async get<T>(sql: string, params: SqlValue[] = []) {
      return prepare(sql).get(...params) as T | undefined;
    },
    async run(sql: string, params: SqlValue[] = []): Promise<RunResult> {
      return { changes: prepare(sql).run(...params).changes };
    },
  };

  // One connection, so transactions must not overlap: queue them.
  let tail: Promise<unknown> = Promise.resolve();
  let open = false;
  return {
    dialect: 'sqlite',
    all: tx.all,
    get: tx.get,
    // A write from outside while a transaction is open would run on the same connection, inside it:
    // acknowledged, yet lost if that transaction rolls back or the process dies before its COMMIT.
    // So it waits for the open transaction (and any queued before it) to end.
    async run(sql: string, params: SqlValue[] = []): Promise<RunResult> {
      while (open) await tail;
      return tx.run(sql, params);
    },
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const next = tail.then(async () => {
        db.exec('BEGIN');
        open = true;
        try {
          const result = await fn(tx);
          db.exec('COMMIT');
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
      db.close();
    },
  };
}
