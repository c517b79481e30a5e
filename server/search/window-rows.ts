/**
 * The rows of an orderby window (window-cache.ts) as columns, and reading them from the store with the
 * statements of window-sql.ts: one on SQLite, the window and then its counts on PostgreSQL.
 */
import type { Queryable } from '../store/db.ts';
import type { ParsedQuery } from './grammar.ts';
import { buildCounts, buildWindowRows, PACKED_FIELDS, WINDOW_METRICS, type WindowMetric, type WindowQueryOptions } from './window-sql.ts';

export interface Rows {
  ids: string[];
  createdAt: Float64Array;
  /** The window's own order (search key or created_at), newest first. */
  order: Float64Array;
  counts: Record<WindowMetric, Float64Array>;
}

export function emptyRows(n: number): Rows {
  const counts = {} as Record<WindowMetric, Float64Array>;
  for (const m of WINDOW_METRICS) counts[m] = new Float64Array(n);
  return { ids: new Array<string>(n), createdAt: new Float64Array(n), order: new Float64Array(n), counts };
}

/** Rows from window-sql.ts's packed text, in any order; without `withCounts`, their counts are zeros. */
function unpack(packed: string | null, withCounts: boolean): Rows {
  const items = packed ? packed.split(';') : [];
  const rows = emptyRows(items.length);
  const fields = withCounts ? PACKED_FIELDS : 3;
  items.forEach((item, i) => {
    const f = item.split(',');
    if (f.length !== fields) throw new Error(`window row with ${f.length} fields`);
    rows.ids[i] = f[0];
    rows.createdAt[i] = Number(f[1]);
    rows.order[i] = Number(f[2]);
    if (withCounts) WINDOW_METRICS.forEach((m, j) => (rows.counts[m][i] = Number(f[3 + j])));
  });
  return rows;
}

/** Reads the counts of `ids` into `rows`, whose row of an id `index` gives; ids it has no row for are skipped. */
export async function readCounts(db: Queryable, rows: Rows, index: ReadonlyMap<string, number>, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const b = buildCounts(db.dialect, ids);
  const row = await db.get<{ packed: string | null }>(b.sql, b.params);
  for (const item of row?.packed ? row.packed.split(';') : []) {
    const f = item.split(',');
    const i = index.get(f[0]);
    if (i === undefined) continue;
    WINDOW_METRICS.forEach((m, j) => (rows.counts[m][i] = Number(f[1 + j])));
  }
}

export const indexOf = (rows: Rows): Map<string, number> => new Map(rows.ids.map((id, i) => [id, i]));

/**
 * The window's rows (n: how many the statement found, which a slice compares with the window's size) with
 * their counts, and their index by id.
 */
export async function readWindow(
  db: Queryable,
  q: ParsedQuery,
  opts: WindowQueryOptions,
  slice?: { since: number; until: number },
): Promise<{ n: number; rows: Rows; index: Map<string, number> }> {
  const b = buildWindowRows(q, opts, slice);
  const row = await db.get<{ n: number | string; packed: string | null }>(b.sql, b.params);
  const rows = unpack(row?.packed ?? null, b.counts);
  const index = indexOf(rows);
  if (!b.counts) await readCounts(db, rows, index, rows.ids);
  return { n: Number(row?.n ?? 0), rows, index };
}

/** The rows at `picks`, in that order. */
export function pick(from: Rows, picks: number[]): Rows {
  const out = emptyRows(picks.length);
  picks.forEach((src, i) => {
    out.ids[i] = from.ids[src];
    out.createdAt[i] = from.createdAt[src];
    out.order[i] = from.order[src];
    for (const m of WINDOW_METRICS) out.counts[m][i] = from.counts[m][src];
  });
  return out;
}

export function concat(a: Rows, b: Rows): Rows {
  const rows = emptyRows(a.ids.length + b.ids.length);
  rows.ids = [...a.ids, ...b.ids];
  for (const [to, x, y] of [[rows.createdAt, a.createdAt, b.createdAt], [rows.order, a.order, b.order]] as const) {
    to.set(x);
    to.set(y, x.length);
  }
  for (const m of WINDOW_METRICS) {
    rows.counts[m].set(a.counts[m]);
    rows.counts[m].set(b.counts[m], a.ids.length);
  }
  return rows;
}
