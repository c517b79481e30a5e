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
  /**
   * Null, or a promise the next write must wait for: the WAL is past WAL_HOLD_BYTES and the worker is
   * copying all of it, after which that write restarts the WAL from its beginning.
   */
  gate(): Promise<void> | null;
  close(): Promise<void>;
}

/**
 * The same threshold as SQLite's default wal_autocheckpoint (1000 pages of 4 KiB). Also the writer's
 * journal_size_limit (WAL_SIZE_LIMIT): SQLite reuses a restarted WAL from its start without shrinking the
 * file, so the file's size says how much is in it only when the first commit after a restart truncates it.
 * Without that, the file stayed past WAL_HOLD_BYTES after the first time it got there, and the writer
 * checkpointed inline after nearly every commit (96 of 105 commits of a 52,145-event import, 150 ms each).
 */
const WAL_BYTES = 4 * 1024 * 1024;
export const WAL_SIZE_LIMIT = WAL_BYTES;
/**
 * The writer restarts the WAL only when a checkpoint has copied all of it before the next write begins;
 * under steady writes the worker's checkpoints may trail the last commit, so past this size the next write
 * waits until the worker has copied everything, which bounds the file. Waiting rather than checkpointing
 * on the writer's thread: the copy is the same work either way, and the main thread stays free for the
 * verify pool's answers and the sockets (an inline checkpoint held it 150-360 ms each in the ingest profile).
 */
// 256 MB: each hold idles the writer while the worker finishes (~150-300 ms here), and the holds come
// per WAL_HOLD_BYTES written; at 64 MB they were 9-10 % of the write path's time (30,000 demo events:
// 11 holds, 2.2-2.5 s), at 256 MB 3 holds, 0.9-1.0 s (bench/RESULTS.md, 2026-11-26 s7-sqwrite).
const WAL_HOLD_BYTES = 64 * WAL_BYTES;
/**
 * A checkpoint that could not copy everything (commits landed meanwhile, or SQLite said busy) is tried again
 * after this long, so a WAL left large when writes stop still reaches the database file.
 */
const RETRY_MS = 1000;
/** A worker that has not copied everything in this long is given up on: the writer checkpoints itself. */
const HOLD_TIMEOUT_MS = 30_000;

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
  let complete = false;
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    // Nothing left to copy: the writer's next transaction restarts the WAL.
    complete = !!r && !r.busy && r.log === r.checkpointed;
  } catch {
    // A failed checkpoint is tried again after a later write.
  }
  parentPort.postMessage({ complete });
});
`;

/**
 * `onFail`: the worker is gone, so the caller must turn SQLite's own checkpoints back on.
 * `inline`: a checkpoint on the writer's connection, when the worker does not finish in time.
 */
export function startCheckpointer(file: string, onFail: () => void, inline: () => void): Checkpointer {
  const wal = `${file}-wal`;
  let worker: Worker | null = null;
  let running = false;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  /** Set while writes wait for a complete checkpoint. */
  let hold: { promise: Promise<void>; release(): void; timer: NodeJS.Timeout; stale: boolean } | null = null;

  const releaseHold = () => {
    const h = hold;
    hold = null;
    if (!h) return;
    clearTimeout(h.timer);
    h.release();
  };

  const walBytes = () => {
    try {
      return statSync(wal).size;
    } catch {
      return 0;
    }
  };

  const retryLater = () => {
    if (retry || stopped) return;
    retry = setTimeout(() => {
      retry = null;
      if (!stopped && !running && !hold && walBytes() > WAL_BYTES) start();
    }, RETRY_MS);
    retry.unref();
  };

  const start = () => {
    worker ??= spawn();
    running = true;
    worker.postMessage('checkpoint');
  };

  // Spawned on the first large WAL only: small stores (tests, a fresh install) never pay for the thread.
  const spawn = () => {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver } });
    // A checkpoint in flight must not keep the process alive.
    w.unref();
    w.on('message', (msg: { complete?: boolean }) => {
      running = false;
      if (!hold) {
        if (!msg.complete) retryLater();
        return;
      }
      // Complete means up to the WAL's end when it started; one that started before the hold may have
      // missed the commits since. One started during the hold sees them all, as writes are held.
      if (msg.complete && !hold.stale) releaseHold();
      else if (!stopped) {
        hold.stale = false;
        start();
      }
    });
    w.on('error', (err) => {
      console.error('WAL checkpoint worker failed', err);
      worker = null;
      running = false;
      if (stopped) return;
      stopped = true;
      onFail();
      releaseHold();
    });
    return w;
  };

  return {
    afterWrite() {
      if (stopped || hold) return;
      const size = walBytes();
      // Equal is a truncated, restarted WAL, not a full one.
      if (size <= WAL_BYTES) return;
      if (size >= WAL_HOLD_BYTES) {
        let release = () => {};
        const promise = new Promise<void>((resolve) => (release = resolve));
        const timer = setTimeout(() => {
          inline();
          releaseHold();
        }, HOLD_TIMEOUT_MS);
        hold = { promise, release, timer, stale: running };
      }
      if (!running) start();
    },
    gate: () => hold?.promise ?? null,
    async close() {
      stopped = true;
      if (retry) clearTimeout(retry);
      releaseHold();
      const w = worker;
      if (!w) return;
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      w.postMessage('close');
      await exited;
    },
  };
}
