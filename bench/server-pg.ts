/**
 * PostgreSQL for `npm run bench:server -- --pg`: DATABASE_URL when set (its user must be allowed to
 * create databases), otherwise a throwaway cluster like the tests' one, with fsync on as a deployment
 * has it. Each measure gets a database of its own, dropped and created again, so runs start empty.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { openPostgres } from '../server/store/postgres.ts';
import type { Database as Store } from '../server/store/db.ts';
import { startTempPostgres } from '../tests/support/postgres.ts';
import type { NostrEvent } from '../server/context.ts';
import { searchFields, userNames } from '../server/ingest/index-search.ts';
import { PG_TS_CONFIG } from '../server/store/search-schema.ts';

const log = (msg: string) => console.error(`[bench] ${msg}`);

export interface BenchPostgres {
  /** A connection string to an empty database called `name` (created again if it existed). */
  fresh(name: string): Promise<string>;
  stop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function benchPostgres(): Promise<BenchPostgres> {
  const external = process.env.DATABASE_URL?.trim();
  const temp = external ? null : await startTempPostgres({ fsync: true });
  const base = external || temp!.url;
  log(`PostgreSQL: ${external ? 'DATABASE_URL' : 'a throwaway cluster (fsync on)'}`);
  const made: string[] = [];
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: withDatabase(base, 'postgres') });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    async fresh(name) {
      if (!/^strucc_bench_\w+$/.test(name)) throw new Error(`bench databases are called strucc_bench_*: ${name}`);
      await admin(`DROP DATABASE IF EXISTS ${name}`);
      await admin(`CREATE DATABASE ${name}`);
      made.push(name);
      return withDatabase(base, name);
    },
    async stop() {
      if (temp) temp.stop();
      else for (const name of made) await admin(`DROP DATABASE IF EXISTS ${name}`).catch(() => undefined);
    },
  };
}

type EventText = Pick<NostrEvent, 'kind' | 'tags' | 'content'>;

/** The PostgreSQL-only tsvector of a search table: its column, the SQL that makes it, from which event. */
const ENGINE_TEXT: Record<string, { column: string; sql: string; params: number; join: string; values: (e: EventText) => string[] }> = {
  search_docs: {
    column: 'fts',
    sql: `to_tsvector('${PG_TS_CONFIG}', ?) || array_to_tsvector(string_to_array(?, ' '))`,
    params: 2,
    join: 'e.id = t.event_id',
    values: (e) => {
      const { body, tags } = searchFields(e);
      return [body, tags.map((t) => `#${t}`).join(' ')];
    },
  },
  search_users: {
    column: 'names',
    sql: `array_to_tsvector(string_to_array(?, ' '))`,
    params: 1,
    join: `e.id = (SELECT r.event_id FROM replaceable r WHERE r.pubkey = t.pubkey AND r.kind = 0 AND r.d = '')`,
    values: (e) => [userNames(e.content)],
  },
};

/** Rows per INSERT when copying: 65,535 parameters at most per PostgreSQL statement. */
const COPY_PARAMS = 60_000;

/**
 * Copies the cached SQLite bench database into PostgreSQL, table by table, for every table and column
 * both stores have (a table only one of them has, such as an engine's own search index, is left out:
 * see the report line this returns). The PostgreSQL schema comes from openPostgres, as in the server.
 * The columns only PostgreSQL has, the tsvectors of search_docs and search_users, are filled here from
 * each row's event the way the search indexer fills them at import (server/ingest/index-search.ts), so
 * `search` and `user_search` on the copy find what they find on SQLite (stemmed, as PostgreSQL does).
 */
export async function copySqliteToPostgres(sqliteFile: string, url: string, only?: string[]): Promise<string> {
  const store: Store = await openPostgres(url);
  const src = new Database(sqliteFile, { readonly: true });
  const skipped: string[] = [];
  let rowsCopied = 0;
  try {
    const pgTables = new Map<string, Set<string>>();
    for (const r of await store.all<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()`,
    )) {
      const cols = pgTables.get(r.table_name) ?? new Set<string>();
      cols.add(r.column_name);
      pgTables.set(r.table_name, cols);
    }
    const tables = src.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[];
    for (const { name } of tables) {
      const pgCols = pgTables.get(name);
      if (only && !only.includes(name)) continue;
      if (!pgCols || name === 'schema_version') {
        if (!pgCols) skipped.push(name);
        continue;
      }
      const cols = (src.prepare(`SELECT name FROM pragma_table_info(?)`).all(name) as { name: string }[]).map((c) => c.name).filter((c) => pgCols.has(c));
      const text = ENGINE_TEXT[name];
      const perInsert = Math.max(1, Math.floor(COPY_PARAMS / (cols.length + (text?.params ?? 0))));
      const row = `(${cols.map(() => '?').join(', ')}${text ? `, ${text.sql}` : ''})`;
      let batch: unknown[][] = [];
      const flush = async () => {
        if (!batch.length) return;
        const rows = batch;
        batch = [];
        const into = text ? [...cols, text.column] : cols;
        await store.run(`INSERT INTO ${name} (${into.join(', ')}) VALUES ${rows.map(() => row).join(', ')} ON CONFLICT DO NOTHING`, rows.flat() as never);
        rowsCopied += rows.length;
      };
      const select = text ? `SELECT ${cols.map((c) => `t.${c}`).join(', ')}, e.kind, e.tags, e.content FROM ${name} t JOIN events e ON ${text.join}` : `SELECT ${cols.join(', ')} FROM ${name}`;
      for (const r of src.prepare(select).raw().iterate() as Iterable<unknown[]>) {
        if (text) {
          const [kind, tags, content] = r.splice(cols.length, 3) as [number, string, string];
          r.push(...text.values({ kind, tags: JSON.parse(tags) as string[][], content }));
        }
        batch.push(r);
        if (batch.length >= perInsert) await flush();
      }
      await flush();
      log(`copied ${name} to PostgreSQL (${rowsCopied} rows so far)`);
    }
    // VACUUM too: a bulk-loaded table has no visibility map and no hint bits yet, so the first reads
    // would set them (writing pages) and autovacuum would rewrite every table during the measurement,
    // where a deployment's tables have long been vacuumed.
    await store.run('VACUUM (ANALYZE)');
    const filled = await store.get<{ n: string }>(`SELECT COUNT(*) AS n FROM search_docs WHERE fts <> ''::tsvector`);
    log(`search_docs rows with text in their tsvector: ${filled?.n}`);
  } finally {
    src.close();
    await store.close();
  }
  return `${rowsCopied} rows copied from the SQLite bench database${skipped.length ? `; tables only SQLite has, not copied: ${skipped.join(', ')}` : ''}`;
}
