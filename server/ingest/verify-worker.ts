/**
 * Worker-thread entry of the verify pool: checks batches of events with the WASM Schnorr
 * verifier so the main thread stays free for the database and the sockets.
 * Protocol: receives { seq, items } where items is a flat list [id, pubkey, sig, serialised, …]
 * (serialised = the NIP-01 array [0, pubkey, created_at, kind, tags, content] as JSON) and answers
 * { seq, codes } with one code per event: 0 valid, 1 id is not the hash, 2 bad signature.
 * A job may carry `shared` (an Int32Array on a SharedArrayBuffer: [events done, code + 1 per event]) and
 * `at`: each code is also stored there (from `at` on) as soon as it is known, and the main thread woken at
 * the end, so an importer can wait for them without yielding (verify-pool.ts verifyShared); an event whose
 * code is already there was checked by the importer meanwhile and is skipped.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { checkSerialised, initVerifier } from './verify.ts';

interface Job {
  seq: number;
  items: string[];
  shared?: Int32Array;
  at?: number;
}

const port = parentPort;
if (!port) throw new Error('verify-worker must run in a worker thread');

// Below the main thread, which writes while this checks (verify-pool.ts PoolOptions.nice). On Linux
// pid 0 names the calling thread only; elsewhere it may be the process or refused, and then the
// worker simply runs at the default priority.
const nice = (workerData as { nice?: unknown } | null)?.nice;
if (typeof nice === 'number' && nice > 0 && process.platform === 'linux') {
  try {
    setPriority(0, nice);
  } catch {
    // Not allowed here: same priority as the writer, as before.
  }
}

initVerifier().then(
  () => {
    port.on('message', (job: Job) => {
      const n = job.items.length / 4;
      const codes = new Uint8Array(n);
      const shared = job.shared;
      const at = job.at ?? 0;
      for (let i = 0; i < n; i++) {
        // The importer may have checked it already while waiting (verify-pool.ts helpWith).
        const done = shared ? Atomics.load(shared, 1 + at + i) : 0;
        if (done !== 0) {
          codes[i] = done - 1;
          continue;
        }
        const o = i * 4;
        codes[i] = checkSerialised(job.items[o], job.items[o + 1], job.items[o + 2], job.items[o + 3]);
        if (shared) {
          Atomics.compareExchange(shared, 1 + at + i, 0, codes[i] + 1);
          Atomics.add(shared, 0, 1);
        }
      }
      if (shared) Atomics.notify(shared, 0);
      port.postMessage({ seq: job.seq, codes }, [codes.buffer]);
    });
    port.postMessage({ ready: true });
  },
  (err: unknown) => {
    port.postMessage({ failed: (err as Error).message ?? String(err) });
  },
);
