import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../server/store/sqlite.ts';

const sizeOf = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

async function until(cond: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

// The writer runs with wal_autocheckpoint = 0 (server/store/sqlite-checkpointer.ts): below 256 MB of WAL only
// the worker's connection copies pages into the database file, so a worker that never checkpoints fails here.
describe('SQLite WAL checkpoints on the worker thread', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('copies committed pages into the database file without the writer, and keeps every row across a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strucc-ckpt-'));
    dirs.push(dir);
    const file = join(dir, 'strucc.sqlite');
    const db = openSqlite(file);
    const before = sizeOf(file);
    const value = 'x'.repeat(256 * 1024);
    for (let i = 0; i < 40; i++) {
      await db.transaction(async (tx) => {
        await tx.run('INSERT INTO meta (key, value) VALUES (?, ?)', [`k${i}`, value]);
      });
    }
    // ~10 MB committed; the database file grows only when a checkpoint copies pages into it.
    await until(() => sizeOf(file) > before + 4 * 1024 * 1024);
    expect(sizeOf(`${file}-wal`)).toBeLessThan(64 * 1024 * 1024);

    // Once a checkpoint has copied all of it, the next commit restarts the WAL and cuts the file back to
    // 4 MB (journal_size_limit): the file's size is what the writer reads as the WAL's fill, and a file left
    // at its largest made the writer checkpoint on its own thread after every later commit.
    let wal = sizeOf(`${file}-wal`);
    for (let i = 0; i < 500 && wal > 4 * 1024 * 1024; i++) {
      await db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', ['tick', String(i)]);
      wal = sizeOf(`${file}-wal`);
      if (wal > 4 * 1024 * 1024) await new Promise((r) => setTimeout(r, 20));
    }
    expect(wal).toBeLessThanOrEqual(4 * 1024 * 1024);
    await db.close();

    const again = openSqlite(file);
    try {
      const row = await again.get<{ n: number; total: number }>('SELECT COUNT(*) AS n, SUM(LENGTH(value)) AS total FROM meta WHERE key LIKE ?', ['k%']);
      expect(row).toEqual({ n: 40, total: 40 * value.length });
    } finally {
      await again.close();
    }
  });

  it('tries again when a checkpoint could not copy everything, so a WAL left large once writes stop still reaches the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strucc-ckpt-'));
    dirs.push(dir);
    const file = join(dir, 'strucc.sqlite');
    const db = openSqlite(file);
    // A reader whose snapshot predates the writes: no checkpoint may copy past it while it lasts.
    const reader = new Database(file);
    reader.prepare('BEGIN').run();
    reader.prepare('SELECT COUNT(*) FROM meta').get();
    try {
      const before = sizeOf(file);
      const value = 'y'.repeat(256 * 1024);
      for (let i = 0; i < 40; i++) await db.run('INSERT INTO meta (key, value) VALUES (?, ?)', [`r${i}`, value]);
      // The worker's checkpoint has run against the reader's snapshot and copied nothing.
      await new Promise((r) => setTimeout(r, 300));
      expect(sizeOf(file)).toBeLessThan(before + 4 * 1024 * 1024);
      reader.prepare('COMMIT').run();
      // No further write comes: only a retry copies the pages.
      await until(() => sizeOf(file) > before + 4 * 1024 * 1024);
    } finally {
      if (reader.inTransaction) reader.prepare('COMMIT').run();
      reader.close();
      await db.close();
    }
  });
});
