import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints on a second connection in a worker thread. SQLite's automatic checkpoint runs inside
 * the COMMIT that crosses its threshold, on the writer's thread: it copies the WAL back into the file and
 * waits for fsyncs, and the importer's profile showed BEGIN/COMMIT at a third of the write path's time
 * (bench/RESULTS.md, 2026-11-26 09:35). A PASSIVE checkpoint from another connection does not block the
 * writer, so the writer only appends to the WAL and the waiting moves off the event loop. The writer still
 * restarts the WAL from its beginning once a checkpoint has copied all of it, so the file stays small.
 */
export interface Checkpointer {
  /** Called after a write: starts a checkpoint when the WAL has grown past the threshold and none is running. */
  afterWrite(): void;
  close(): Promise<void>;
}

/**
 * The same threshold as SQLite's default wal_autocheckpoint (1000 pages of 4 KiB). Also the writer's
 * journal_size_limit (WAL_SIZE_LIMIT): SQLite reuses a restarted WAL from its start without shrinking the
 * file, so the file's size says how much is in it only when the first commit after a restart truncates it.
 * Without that, the file stayed past WAL_INLINE_BYTES after the first time it got there, and the writer
 * checkpointed inline after nearly every commit (96 of 105 commits of a 52,145-event import, 150 ms each).
 */
const WAL_BYTES = 4 * 1024 * 1024;
export const WAL_SIZE_LIMIT = WAL_BYTES;
/**
 * The writer restarts the WAL only when a checkpoint has copied all of it before the next write begins;
 * under steady writes the worker's checkpoints always trail the last commit, so past this size the writer
 * checkpoints the (already mostly copied) rest itself, which bounds the file.
 */
const WAL_INLINE_BYTES = 16 * WAL_BYTES;

// Plain CommonJS so the worker needs no TypeScript loader; the driver's path comes from the parent.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
parentPort.on('message', (msg) => {
  if (msg === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A failed checkpoint is tried again after a later write.
  }
  parentPort.postMessage('done');
});
`;

/** `onFail`: the worker is gone, so the caller must turn SQLite's own checkpoints back on. */
export function startCheckpointer(file: string, onFail: () => void, inline: () => void): Checkpointer {
  const wal = `${file}-wal`;
  let worker: Worker | null = null;
  let running = false;
  let stopped = false;

  // Spawned on the first large WAL only: small stores (tests, a fresh install) never pay for the thread.
  const spawn = () => {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver } });
    // A checkpoint in flight must not keep the process alive.
    w.unref();
    w.on('message', () => {
      running = false;
    });
    w.on('error', (err) => {
      console.error('WAL checkpoint worker failed', err);
      worker = null;
      if (stopped) return;
      stopped = true;
      onFail();
    });
    return w;
  };

  return {
    afterWrite() {
      if (running || stopped) return;
      let size: number;
      try {
        size = statSync(wal).size;
      } catch {
        return;
      }
      // Equal is a truncated, restarted WAL, not a full one.
      if (size <= WAL_BYTES) return;
      if (size >= WAL_INLINE_BYTES) {
        inline();
        return;
      }
      worker ??= spawn();
      running = true;
      worker.postMessage('checkpoint');
    },
    async close() {
      stopped = true;
      const w = worker;
      if (!w) return;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      w.postMessage('close');
      await exited;
    },
  };
}
