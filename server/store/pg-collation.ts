/**
 * Byte-order collation for PostgreSQL's text columns. Almost every text column holds hex ids and
 * pubkeys, tag names and values, URLs or other keys: compared only for equality and order, never read as
 * language. A database created under a locale (en_US.UTF-8, or C.UTF-8, which PostgreSQL also treats as
 * a locale) compares them through strcoll, and every index build, insert and lookup on them pays for
 * it; COLLATE "C" compares bytes, as SQLite's BINARY does, so both stores also order them alike.
 * Columns named in LOCALE_COLUMNS keep the database's collation: free text that lower() and LIKE read
 * (server/membership/names.ts, server/http/lnurlp.ts), whose case folding follows the collation.
 */
import type pg from 'pg';

const LOCALE_COLUMNS = new Set(['content']);
const BYTE_ORDER = 'COLLATE "C"';

const CREATE_TABLE = /^\s*CREATE TABLE IF NOT EXISTS (\w+) \(/i;
/** A column definition `name TEXT` at the start of the list or after a comma. */
const TEXT_COLUMN = /([(,]\s*)(\w+) TEXT\b/g;

/** A CREATE TABLE statement with its key-like TEXT columns in byte order; other statements as they are. */
export function withByteOrder(stmt: string): string {
  if (!CREATE_TABLE.test(stmt)) return stmt;
  return stmt.replace(TEXT_COLUMN, (all, before: string, name: string) => (LOCALE_COLUMNS.has(name) ? all : `${before}${name} TEXT ${BYTE_ORDER}`));
}

/** table → its TEXT columns that withByteOrder puts in byte order, from the schema's statements. */
export function byteOrderColumns(schema: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const stmt of schema) {
    const table = CREATE_TABLE.exec(stmt)?.[1];
    if (!table) continue;
    const cols = [...stmt.matchAll(TEXT_COLUMN)].map((m) => m[2]).filter((c) => !LOCALE_COLUMNS.has(c));
    if (cols.length) out.set(table, cols);
  }
  return out;
}

/**
 * Moves the columns of a database created before this collation to byte order, one ALTER TABLE per
 * table so its indexes are rebuilt once (no table rewrite: text stays text), and gathers the table's
 * statistics again. 24 s for the 1M-event bench database, once; afterwards a catalogue read that finds
 * nothing to do. Returns the tables altered.
 */
export async function collateExistingColumns(client: pg.PoolClient, schema: string[]): Promise<string[]> {
  const wanted = byteOrderColumns(schema);
  const { rows } = await client.query<{ tbl: string; col: string }>(
    `SELECT c.relname AS tbl, a.attname AS col FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
       AND a.atttypid = 'text'::regtype AND a.attcollation <> 'pg_catalog."C"'::regcollation`,
  );
  const stale = new Map<string, string[]>();
  for (const { tbl: table, col: column } of rows) {
    if (!wanted.get(table)?.includes(column)) continue;
    stale.set(table, [...(stale.get(table) ?? []), column]);
  }
  for (const [table, columns] of stale) {
    await client.query(`ALTER TABLE ${table} ${columns.map((c) => `ALTER COLUMN ${c} TYPE TEXT ${BYTE_ORDER}`).join(', ')}`);
    // ALTER COLUMN TYPE drops the columns' statistics, and nothing brings them back until autovacuum sees
    // enough new rows: planned without them, get_notifications and user_search went from 10 ms to seconds.
    await client.query(`ANALYZE ${table}`);
  }
  return [...stale.keys()];
}
