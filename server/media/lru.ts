/**
 * Size-bounded caches on disk and in the database (link previews, media-cache originals): each
 * entry's bytes and last access live in cache_usage, and once an area holds more than its cap the
 * least recently used entries go until it fits again. Totals are kept in memory per database,
 * read once from the table, so an insert does not sum the whole area.
 */
import type { Queryable } from '../store/db.ts';

export type CacheArea = 'preview' | 'media';

/** A read refreshes last_access at most this often, so a popular entry does not cost a write per request. */
const TOUCH_EVERY_SECONDS = 60;
const EVICT_BATCH = 100;

const totals = new WeakMap<Queryable, Map<CacheArea, number>>();

async function totalOf(db: Queryable, area: CacheArea): Promise<Map<CacheArea, number>> {
  let byArea = totals.get(db);
  if (!byArea) totals.set(db, (byArea = new Map()));
  if (!byArea.has(area)) {
    const row = await db.get<{ n: number | string | null }>('SELECT SUM(bytes) AS n FROM cache_usage WHERE area = ?', [area]);
    if (!byArea.has(area)) byArea.set(area, Number(row?.n ?? 0));
  }
  return byArea;
}

/** Marks `key` used now. */
export async function touch(db: Queryable, area: CacheArea, key: string, now: number): Promise<void> {
  await db.run('UPDATE cache_usage SET last_access = ? WHERE area = ? AND key = ? AND last_access < ?', [now, area, key, now - TOUCH_EVERY_SECONDS]);
}

/**
 * Records that `key` now takes `bytes` more (a new entry, or a variant added to one), then evicts
 * least recently used entries other than `key` while the area is over `cap`; `drop` removes an
 * evicted entry's data (its rows or files).
 */
export async function grow(
  db: Queryable,
  area: CacheArea,
  key: string,
  bytes: number,
  now: number,
  cap: number,
  drop: (key: string) => Promise<void>,
): Promise<void> {
  const byArea = await totalOf(db, area);
  await db.run(
    `INSERT INTO cache_usage (area, key, bytes, last_access) VALUES (?, ?, ?, ?)
     ON CONFLICT (area, key) DO UPDATE SET bytes = cache_usage.bytes + excluded.bytes, last_access = excluded.last_access`,
    [area, key, bytes, now],
  );
  byArea.set(area, (byArea.get(area) ?? 0) + bytes);
  while ((byArea.get(area) ?? 0) > cap) {
    const victims = await db.all<{ key: string; bytes: number | string }>(
      `SELECT key, bytes FROM cache_usage WHERE area = ? AND key <> ? ORDER BY last_access, key LIMIT ${EVICT_BATCH}`,
      [area, key],
    );
    if (victims.length === 0) break;
    for (const v of victims) {
      await drop(v.key);
      const gone = await db.run('DELETE FROM cache_usage WHERE area = ? AND key = ?', [area, v.key]);
      if (gone.changes) byArea.set(area, (byArea.get(area) ?? 0) - Number(v.bytes));
      if ((byArea.get(area) ?? 0) <= cap) break;
    }
  }
}

/** Removes an entry's record (its data is being replaced or removed by the caller). */
export async function forget(db: Queryable, area: CacheArea, key: string): Promise<void> {
  const old = await db.get<{ bytes: number | string }>('SELECT bytes FROM cache_usage WHERE area = ? AND key = ?', [area, key]);
  if (!old) return;
  const byArea = await totalOf(db, area);
  const gone = await db.run('DELETE FROM cache_usage WHERE area = ? AND key = ?', [area, key]);
  if (gone.changes) byArea.set(area, (byArea.get(area) ?? 0) - Number(old.bytes));
}
