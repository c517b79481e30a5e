/**
 * Signature verification off the main thread: a few worker_threads, each with the WASM
 * verifier, checking batches of events. Schnorr checks are ~90% of a verifying import's CPU, so
 * moving them away lets the main thread write to the database and answer sockets meanwhile.
 * When workers cannot start (or one dies) the work falls back to the calling thread.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { NostrEvent } from '../context.ts';
import { checkSerialised, initVerifier, serialiseEvent, VERIFY_BAD_SIG, type VerifyCode } from './verify.ts';

export interface Verifier {
  /** One code per event, in input order: 0 valid, 1 bad id, 2 bad signature. */
  verify(events: readonly NostrEvent[]): Promise<VerifyCode[]>;
  /** Worker threads in use; 0 means verification runs on the calling thread. */
  readonly threads: number;
  close(): Promise<void>;
  /**
   * Like verify, and the codes can also be awaited without yielding (SharedVerify.settled): only a
   * verifier whose checks run on other threads has it, since a blocked caller stops in-thread checks.
   */
  verifyShared?(events: readonly NostrEvent[]): SharedVerify;
}

/** A running check whose codes land in shared memory as the workers finish them. */
export interface SharedVerify {
  done: Promise<VerifyCode[]>;
  /**
   * The codes of events [from, to), blocking this thread up to timeoutMs for the workers to finish
   * them; null when they are not all in by then (or some are being checked on this thread instead).
   */
  settled(from: number, to: number, timeoutMs: number): VerifyCode[] | null;
}

export interface PoolOptions {
  /** Worker count; defaults to the available cores. */
  size?: number;
  /** How long a worker may take to load the verifier before the pool gives up on it. */
  startTimeoutMs?: number;
  /**
   * Nice value of the worker threads (Linux: per thread; default 0, the caller's). VERIFY_NICE for a
   * SQLite server: its importer writes on the main thread while the workers check the same group, and
   * COMMIT waits for both; with a worker per core the three threads shared two cores evenly, so the
   * writer (the longer half) ran at ~2/3 speed while the workers finished early. Below it, they take the
   * CPU it leaves (and all of it while it waits, when it checks events itself too: SharedVerify.settled).
   * Not for PostgreSQL: its server process does half the writing, and with the workers at nice 10 its
   * verified ingest was no faster (1,540 against 1,536 events/s, bench/RESULTS.md s12-pging).
   */
  nice?: number;
  /** Whether a thread waiting in SharedVerify.settled checks events itself (default true; false for A/B runs). */
  waiterChecks?: boolean;
}

/** See PoolOptions.nice: the kernel gives a nice-0 thread ~9x the share of a nice-10 one on a shared core. */
export const VERIFY_NICE = 10;

/** Events per message to a worker: big enough that messaging costs little, small enough to spread over workers. */
const CHUNK = 256;
/** Events checked between yields when verifying in-thread, so other sockets are still served. */
const SLICE = 256;

function flatten(events: readonly NostrEvent[]): string[] {
  const items: string[] = new Array(events.length * 4);
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    items[i * 4] = e.id;
    items[i * 4 + 1] = e.pubkey;
    items[i * 4 + 2] = e.sig;
    items[i * 4 + 3] = serialiseEvent(e);
  }
  return items;
}

function checkAll(items: string[]): VerifyCode[] {
  const codes: VerifyCode[] = [];
  for (let o = 0; o < items.length; o += 4) codes.push(checkSerialised(items[o], items[o + 1], items[o + 2], items[o + 3]));
  return codes;
}

/** Checks flattened items here; a verifier that cannot load rejects everything rather than accepting unchecked events. */
async function checkInThread(items: string[]): Promise<VerifyCode[]> {
  try {
    await initVerifier();
    return checkAll(items);
  } catch {
    return Array.from({ length: items.length / 4 }, () => VERIFY_BAD_SIG);
  }
}

/**
 * Verification on the calling thread, in slices with a yield before each, so other sockets are
 * served meanwhile. Calls are queued: concurrent batches must not all run in one turn of the loop.
 */
export function inThreadVerifier(): Verifier {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    threads: 0,
    verify(events) {
      const run = tail.then(async () => {
        await initVerifier();
        const out: VerifyCode[] = [];
        for (let i = 0; i < events.length; i += SLICE) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          out.push(...checkAll(flatten(events.slice(i, i + SLICE))));
        }
        return out;
      });
      tail = run.catch(() => undefined);
      return run;
    },
    async close() {},
  };
}

interface Pending {
  items: string[];
  resolve(codes: VerifyCode[]): void;
  /** Set when the batch is checked on this thread after all, so waiting on shared memory is futile. */
  onInThread?(): void;
}

interface SharedTarget {
  shared: Int32Array;
  at: number;
  onInThread(): void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Events sent and not yet answered, for picking the least busy worker. */
  load: number;
}

/**
 * The worker entry must run under tsx (TypeScript sources, dev and tests) and under plain node
 * (compiled .js). Node 20 ignores `--import tsx` in a worker's execArgv, so a .ts entry is loaded
 * through a tiny bootstrap that registers tsx's loader inside the worker first.
 */
function spawnWorker(nice: number): Worker {
  const entry = new URL(import.meta.url.endsWith('.ts') ? './verify-worker.ts' : './verify-worker.js', import.meta.url);
  const workerData = { nice };
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData });
  const boot = `import('tsx/esm/api').then((m) => m.register()).then(() => import(${JSON.stringify(entry.href)}))`;
  return new Worker(boot, { eval: true, workerData });
}

function startSlot(timeoutMs: number, nice: number): Promise<Slot> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = spawnWorker(nice);
    } catch (err) {
      reject(err as Error);
      return;
    }
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error('verify worker did not start in time'));
    }, timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      void worker.terminate();
      reject(err);
    };
    worker.once('error', fail);
    worker.once('message', (msg: { ready?: boolean; failed?: string }) => {
      clearTimeout(timer);
      worker.off('error', fail);
      if (!msg.ready) {
        void worker.terminate();
        reject(new Error(`verify worker failed: ${msg.failed ?? 'unknown'}`));
        return;
      }
      resolve({ worker, pending: new Map(), load: 0 });
    });
  });
}

/**
 * Starts `size` verify workers (default: the available cores, at least 1). Resolves to an
 * in-thread verifier when none of them comes up, so callers never have to care.
 */
export async function startVerifyPool(opts: PoolOptions = {}): Promise<Verifier> {
  const size = Math.max(1, opts.size ?? availableParallelism());
  const started = await Promise.allSettled(Array.from({ length: size }, () => startSlot(opts.startTimeoutMs ?? 20_000, opts.nice ?? 0)));
  const slots: Slot[] = [];
  for (const s of started) if (s.status === 'fulfilled') slots.push(s.value);
  if (slots.length === 0) return inThreadVerifier();

  let seq = 0;
  let closed = false;
  // The caller's own thread checks events of a verifyShared batch while it waits for them (helpWith).
  const canHelp = (opts.waiterChecks ?? true) && await initVerifier().then(
    () => true,
    () => false,
  );

  const retire = (slot: Slot) => {
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    slot.worker.removeAllListeners();
    // A dead worker's batches are checked here instead, so no import waits forever.
    for (const p of slot.pending.values()) {
      p.onInThread?.();
      void checkInThread(p.items).then(p.resolve);
    }
    slot.pending.clear();
  };

  for (const slot of slots) {
    slot.worker.on('message', (msg: { seq: number; codes: Uint8Array }) => {
      const p = slot.pending.get(msg.seq);
      if (!p) return;
      slot.pending.delete(msg.seq);
      slot.load -= p.items.length / 4;
      p.resolve(Array.from(msg.codes) as VerifyCode[]);
    });
    slot.worker.on('error', () => retire(slot));
    slot.worker.on('exit', () => retire(slot));
  }

  const send = (items: string[], target?: SharedTarget): Promise<VerifyCode[]> => {
    let best: Slot | undefined;
    for (const s of slots) if (!best || s.load < best.load) best = s;
    if (!best || closed) {
      target?.onInThread();
      return checkInThread(items);
    }
    const slot = best;
    const id = ++seq;
    slot.load += items.length / 4;
    return new Promise<VerifyCode[]>((resolve) => {
      slot.pending.set(id, { items, resolve, onInThread: target?.onInThread });
      slot.worker.postMessage(target ? { seq: id, items, shared: target.shared, at: target.at } : { seq: id, items });
    });
  };

  return {
    get threads() {
      return slots.length;
    },
    async verify(events) {
      const parts: Promise<VerifyCode[]>[] = [];
      for (let i = 0; i < events.length; i += CHUNK) parts.push(send(flatten(events.slice(i, i + CHUNK))));
      return (await Promise.all(parts)).flat();
    },
    verifyShared(events) {
      // [events done, then code + 1 per event]: 0 is "not checked yet". Workers store each code as they
      // go and skip an event whose code is already there, so the waiting importer can check events too.
      const shared = new Int32Array(new SharedArrayBuffer(4 * (1 + events.length)));
      let inThread = false;
      const onInThread = () => {
        inThread = true;
      };
      const chunks: string[][] = [];
      const parts: Promise<VerifyCode[]>[] = [];
      for (let i = 0; i < events.length; i += CHUNK) {
        const items = flatten(events.slice(i, i + CHUNK));
        chunks.push(items);
        parts.push(send(items, { shared, at: i, onInThread }));
      }
      const missing = (from: number, to: number) => {
        for (let i = from; i < to; i++) if (Atomics.load(shared, 1 + i) === 0) return true;
        return false;
      };
      /**
       * Checks here, from the end of [from, to) down, every event no worker has done yet: the workers
       * go up through their chunks, so the two meet with at most an event checked twice, and the
       * importer, which would otherwise sleep until the workers are done, shortens the wait by its own
       * core (which matters most when the workers are slower than the writes, or starved by other load).
       */
      const helpWith = (from: number, to: number) => {
        for (let i = to - 1; i >= from; i--) {
          if (Atomics.load(shared, 1 + i) !== 0) continue;
          const items = chunks[Math.floor(i / CHUNK)];
          const o = (i % CHUNK) * 4;
          Atomics.compareExchange(shared, 1 + i, 0, checkSerialised(items[o], items[o + 1], items[o + 2], items[o + 3]) + 1);
        }
      };
      return {
        done: Promise.all(parts).then((p) => p.flat()),
        settled(from, to, timeoutMs) {
          const until = performance.now() + timeoutMs;
          for (;;) {
            if (inThread) return null;
            if (canHelp && !closed) helpWith(from, to);
            // Read the counter before scanning, so a store after the scan changes it and wakes the wait.
            const count = Atomics.load(shared, 0);
            if (!missing(from, to)) break;
            const left = until - performance.now();
            if (left <= 0) return null;
            Atomics.wait(shared, 0, count, left);
          }
          const codes: VerifyCode[] = [];
          for (let i = from; i < to; i++) codes.push((Atomics.load(shared, 1 + i) - 1) as VerifyCode);
          return codes;
        },
      };
    },
    async close() {
      closed = true;
      const all = [...slots];
      await Promise.all(
        all.map(async (slot) => {
          // Answer what is still queued before the thread goes, then stop it.
          slot.worker.removeAllListeners('exit');
          retire(slot);
          await slot.worker.terminate();
        }),
      );
    },
  };
}
