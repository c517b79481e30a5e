import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
});
