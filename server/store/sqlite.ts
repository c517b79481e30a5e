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
  db.pragma('synchronous = NORMAL');
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

  const q: Queryable = {
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
  return {
    dialect: 'sqlite',
    ...q,
    transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const next = tail.then(async () => {
        db.exec('BEGIN');
        try {
          const result = await fn(q);
          db.exec('COMMIT');
          return result;
        } catch (err) {
          db.exec('ROLLBACK');
          throw err;
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
