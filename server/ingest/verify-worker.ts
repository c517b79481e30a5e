/**
 * Worker-thread entry of the verify pool: checks batches of events with the WASM Schnorr
 * verifier so the main thread stays free for the database and the sockets.
 * Protocol: receives { seq, items } where items is a flat list [id, pubkey, sig, serialised, …]
 * (serialised = the NIP-01 array [0, pubkey, created_at, kind, tags, content] as JSON) and answers
 * { seq, codes } with one code per event: 0 valid, 1 id is not the hash, 2 bad signature.
 * A job may carry `shared` (an Int32Array on a SharedArrayBuffer: [events done, code + 1 per event]) and
 * `at`: the codes are also stored there from `at` on and the main thread woken, so an importer can wait
 * for them without yielding (verify-pool.ts verifyShared).
 */
import { parentPort } from 'node:worker_threads';
import { checkSerialised, initVerifier } from './verify.ts';

interface Job {
  seq: number;
  items: string[];
  shared?: Int32Array;
  at?: number;
}

const port = parentPort;
if (!port) throw new Error('verify-worker must run in a worker thread');

initVerifier().then(
  () => {
    port.on('message', (job: Job) => {
      const n = job.items.length / 4;
      const codes = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const o = i * 4;
        codes[i] = checkSerialised(job.items[o], job.items[o + 1], job.items[o + 2], job.items[o + 3]);
      }
      const shared = job.shared;
      if (shared && job.at !== undefined) {
        for (let i = 0; i < n; i++) Atomics.store(shared, 1 + job.at + i, codes[i] + 1);
        Atomics.add(shared, 0, n);
        Atomics.notify(shared, 0);
      }
      port.postMessage({ seq: job.seq, codes }, [codes.buffer]);
    });
    port.postMessage({ ready: true });
  },
  (err: unknown) => {
    port.postMessage({ failed: (err as Error).message ?? String(err) });
  },
);
