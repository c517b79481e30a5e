import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/store/db.ts';
import { byteOrderColumns, withByteOrder } from '../../server/store/pg-collation.ts';
import { openPostgres, toPgPlaceholders } from '../../server/store/postgres.ts';
import { SCHEMA, SCHEMA_VERSION, SCHEMA_VERSION_TABLE } from '../../server/store/schema.ts';
import { searchSchema } from '../../server/store/search-schema.ts';
import { openSqlite } from '../../server/store/sqlite.ts';
import { createDatabase, startTempPostgres, type TempPostgres } from '../support/postgres.ts';

// The same behaviour from both backends behind the storage seam.
function conformance(name: string, open: () => Promise<Database>) {
  describe(name, () => {
    let db: Database;
    beforeAll(async () => {
      db = await open();
    });
    afterAll(async () => {
      await db.close();
    });

    it('upserts with ON CONFLICT and reads BIGINT columns back as numbers', async () => {
      await db.run('INSERT INTO relay_cursors (url, since) VALUES (?, ?) ON CONFLICT (url) DO UPDATE SET since = excluded.since', ['wss://a', 1_700_000_000_000]);
      await db.run('INSERT INTO relay_cursors (url, since) VALUES (?, ?) ON CONFLICT (url) DO UPDATE SET since = excluded.since', ['wss://a', 1_700_000_000_123]);
      const row = await db.get<{ since: number }>('SELECT since FROM relay_cursors WHERE url = ?', ['wss://a']);
      expect(row).toEqual({ since: 1_700_000_000_123 });
    });

    it('rolls a failed transaction back and keeps serving', async () => {
      await expect(
        db.transaction(async (tx) => {
          await tx.run('INSERT INTO meta (key, value) VALUES (?, ?)', ['k', 'v']);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await db.get('SELECT value FROM meta WHERE key = ?', ['k'])).toBeUndefined();
      await db.transaction(async (tx) => tx.run('INSERT INTO meta (key, value) VALUES (?, ?)', ['k', 'v2']));
      expect(await db.all('SELECT key, value FROM meta')).toEqual([{ key: 'k', value: 'v2' }]);
    });

    it('runs overlapping transactions one after the other', async () => {
      const order: string[] = [];
      await Promise.all(
        ['a', 'b', 'c'].map((label) =>
          db.transaction(async (tx) => {
            order.push(`${label}:start`);
            await tx.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', ['last', label]);
            await new Promise((r) => setTimeout(r, 5));
            order.push(`${label}:end`);
          }),
        ),
      );
      expect(order).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
    });

    it('keeps a write made outside while a transaction is open when that transaction rolls back', async () => {
      let release!: () => void;
      const paused = new Promise<void>((r) => (release = r));
      let began!: () => void;
      const begun = new Promise<void>((r) => (began = r));
      const failing = db.transaction(async (tx) => {
        await tx.run('INSERT INTO meta (key, value) VALUES (?, ?)', ['doomed', 'x']);
        began();
        await paused;
        throw new Error('rolled back');
      });
      await begun;
      // Acknowledged to its caller (a settings save, say) only once it is committed on its own.
      const outside = db.run('INSERT INTO app_settings (pubkey, event, updated_at) VALUES (?, ?, ?)', ['p'.repeat(64), '{}', 1]);
      setTimeout(release, 20);
      await expect(failing).rejects.toThrow('rolled back');
      await outside;
      expect(await db.get('SELECT updated_at FROM app_settings WHERE pubkey = ?', ['p'.repeat(64)])).toEqual({ updated_at: 1 });
      expect(await db.get('SELECT value FROM meta WHERE key = ?', ['doomed'])).toBeUndefined();
    });
  });
}

let dir: string;
let pgServer: TempPostgres;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strucc-store-'));
  pgServer = await startTempPostgres();
});
afterAll(() => {
  pgServer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

conformance('SQLite store', async () => openSqlite(join(dir, 'strucc.sqlite')));
conformance('PostgreSQL store', async () => openPostgres(pgServer.url));

describe('PostgreSQL text collation', () => {
  const schema = [...SCHEMA, ...searchSchema('postgres')];
  /** A new empty database on the test cluster, by a connection string. */
  const database = (name: string) => createDatabase(pgServer.url, name);
  async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  }
  /** "table.column" → collation name of every text column. */
  const collations = (url: string) =>
    withClient(url, async (c) => {
      const { rows } = await c.query<{ col: string; coll: string }>(
        `SELECT c.relname || '.' || a.attname AS col, co.collname AS coll FROM pg_attribute a
         JOIN pg_class c ON c.oid = a.attrelid JOIN pg_collation co ON co.oid = a.attcollation
         WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
           AND a.atttypid = 'text'::regtype`,
      );
      return new Map(rows.map((r) => [r.col, r.coll]));
    });
  function expectByteOrder(found: Map<string, string>) {
    const wanted = [...byteOrderColumns(schema.map(withByteOrder))].flatMap(([t, cols]) => cols.map((c) => `${t}.${c}`));
    expect(wanted).toEqual(expect.arrayContaining(['events.id', 'events.pubkey', 'event_tags.value', 'posts.parent_id', 'search_docs.event_id']));
    expect(wanted).not.toContain('events.content');
    for (const col of wanted) expect(`${col} ${found.get(col)}`).toBe(`${col} C`);
    // lower() and LIKE read it as text of the database's language.
    expect(found.get('events.content')).toBe('default');
  }

  it('keeps ids, keys and tags in byte order in a new database', async () => {
    const url = await database('strucc_collation_fresh');
    const db = await openPostgres(url);
    await db.close();
    expectByteOrder(await collations(url));
  });

  it('moves the columns of a database made before it to byte order when it opens, keeping the rows', async () => {
    const url = await database('strucc_collation_old');
    const id = 'ab'.repeat(32);
    await withClient(url, async (c) => {
      await c.query(SCHEMA_VERSION_TABLE);
      await c.query('INSERT INTO schema_version (id, version) VALUES (1, $1)', [SCHEMA_VERSION]);
      for (const stmt of schema) await c.query(stmt);
      await c.query(`INSERT INTO events (id, pubkey, created_at, kind, tags, content, sig, imported_at) VALUES ($1, $2, 1, 1, '[]', 'Árvíztűrő', 's', 1)`, [id, 'cd'.repeat(32)]);
      await c.query('ANALYZE events');
    });
    const statistics = () =>
      withClient(url, async (c) => (await c.query(`SELECT attname FROM pg_stats WHERE tablename = 'events' ORDER BY attname`)).rows.map((r) => r.attname));
    const before = await statistics();
    expect(before).toContain('id');
    expect((await collations(url)).get('events.id')).toBe('default');
    const db = await openPostgres(url);
    try {
      expect(await db.get('SELECT content FROM events WHERE id = ?', [id])).toEqual({ content: 'Árvíztűrő' });
    } finally {
      await db.close();
    }
    expectByteOrder(await collations(url));
    // ALTER COLUMN TYPE drops a column's statistics: the planner must not be left without them.
    expect(await statistics()).toEqual(before);
  });
});

describe('placeholder rewriting', () => {
  it('numbers ? outside string literals only', () => {
    expect(toPgPlaceholders("SELECT * FROM t WHERE a = ? AND b = '?' AND c IN (?, ?)")).toBe(
      "SELECT * FROM t WHERE a = $1 AND b = '?' AND c IN ($2, $3)",
    );
  });
});
