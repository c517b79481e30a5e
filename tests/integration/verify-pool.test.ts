import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { finalizeEvent, generateSecretKey } from 'nostr-tools/pure';
import { afterEach, describe, expect, it } from 'vitest';
import type { NostrEvent } from '../../server/context.ts';
import { inThreadVerifier, startVerifyPool, VERIFY_NICE, type Verifier } from '../../server/ingest/verify-pool.ts';
import { VERIFY_BAD_ID, VERIFY_BAD_SIG, VERIFY_OK } from '../../server/ingest/verify.ts';

const key = generateSecretKey();

function note(i: number): NostrEvent {
  return finalizeEvent({ kind: 1, created_at: 1_700_000_000 + i, tags: [['t', `x${i}`]], content: `jegyzet ${i} — ékezet` }, key) as NostrEvent;
}

/** Every third event is broken: alternately its content changed (bad id) or its signature swapped (bad sig). */
function mixed(n: number): { events: NostrEvent[]; expected: number[] } {
  const good = Array.from({ length: n }, (_, i) => note(i));
  const events: NostrEvent[] = [];
  const expected: number[] = [];
  good.forEach((e, i) => {
    if (i % 3 === 1) {
      events.push({ ...e, content: e.content + '!' });
      expected.push(VERIFY_BAD_ID);
    } else if (i % 3 === 2) {
      events.push({ ...e, sig: good[(i + 1) % n].sig });
      expected.push(VERIFY_BAD_SIG);
    } else {
      events.push(e);
      expected.push(VERIFY_OK);
    }
  });
  return { events, expected };
}

let open: Verifier[] = [];
afterEach(async () => {
  for (const v of open) await v.close();
  open = [];
});

describe('verify pool', () => {
  it('checks valid, bad-id and bad-sig events on worker threads, in input order', async () => {
    const pool = await startVerifyPool({ size: 2 });
    open.push(pool);
    expect(pool.threads).toBe(2);
    // More than one chunk, so the batches are spread over both workers and must be reassembled in order.
    const { events, expected } = mixed(700);
    expect(await pool.verify(events)).toEqual(expected);
  });

  it('answers concurrent calls independently', async () => {
    const pool = await startVerifyPool({ size: 2 });
    open.push(pool);
    const a = mixed(300);
    const b = mixed(90);
    const [ra, rb] = await Promise.all([pool.verify(a.events), pool.verify(b.events)]);
    expect(ra).toEqual(a.expected);
    expect(rb).toEqual(b.expected);
  });

  it('gives the same answers in-thread', async () => {
    const { events, expected } = mixed(60);
    expect(await inThreadVerifier().verify(events)).toEqual(expected);
  });

  it('closes its workers and still answers afterwards, in-thread', async () => {
    const pool = await startVerifyPool({ size: 2 });
    expect(pool.threads).toBe(2);
    await pool.close();
    expect(pool.threads).toBe(0);
    const { events, expected } = mixed(9);
    expect(await pool.verify(events)).toEqual(expected);
  });

  it('verifyShared: the codes can be read in shared memory without yielding, and match verify', async () => {
    const pool = await startVerifyPool({ size: 2 });
    open.push(pool);
    const { events, expected } = mixed(700);
    const check = pool.verifyShared!(events);
    // No await before this: the codes come from the workers' stores, not from their messages.
    const mid = check.settled(250, 600, 30_000);
    const all = check.settled(0, 700, 30_000);
    expect(mid).toEqual(expected.slice(250, 600));
    expect(all).toEqual(expected);
    expect(await check.done).toEqual(expected);
  });

  it('verifyShared: the waiting thread checks the events no worker has reached, with the same codes', async () => {
    const pool = await startVerifyPool({ size: 1 });
    open.push(pool);
    // The one worker is busy with this batch for far longer than the lines below take.
    const busy = pool.verify(Array.from({ length: 1500 }, (_, i) => note(10_000 + i)));
    const { events, expected } = mixed(30);
    const check = pool.verifyShared!(events);
    // No time to wait at all: the codes can only come from this thread.
    expect(check.settled(0, 30, 0)).toEqual(expected);
    expect(await check.done).toEqual(expected);
    expect((await busy).every((c) => c === VERIFY_OK)).toBe(true);
  });

  it.runIf(process.platform === 'linux')('runs its workers below the main thread when asked (nice), so the writer keeps its core', async () => {
    const niceOf = () =>
      readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });
    const before = niceOf().filter((n) => n === VERIFY_NICE).length;
    const plain = await startVerifyPool({ size: 1 });
    open.push(plain);
    expect(niceOf().filter((n) => n === VERIFY_NICE).length - before).toBe(0);
    const pool = await startVerifyPool({ size: 2, nice: VERIFY_NICE });
    open.push(pool);
    expect(pool.threads).toBe(2);
    expect(niceOf().filter((n) => n === VERIFY_NICE).length - before).toBe(2);
    // This thread is untouched.
    expect(Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[16])).toBe(0);
  });

  it('verifyShared on a closed pool says at once that the codes will not come in shared memory', async () => {
    const pool = await startVerifyPool({ size: 1 });
    await pool.close();
    const { events, expected } = mixed(9);
    const check = pool.verifyShared!(events);
    expect(check.settled(0, 9, 30_000)).toBeNull();
    expect(await check.done).toEqual(expected);
  });

  it('falls back to in-thread verification when workers cannot start', async () => {
    const pool = await startVerifyPool({ size: 1, startTimeoutMs: 1 });
    open.push(pool);
    expect(pool.threads).toBe(0);
    const { events, expected } = mixed(6);
    expect(await pool.verify(events)).toEqual(expected);
  });
});

describe('verify pool under plain node', () => {
  // The compiled server has .js files and no tsx loader: the pool must spawn the .js worker entry directly.
  // Built inside the repo so node resolves nostr-wasm and nostr-tools from node_modules.
  const dir = join(process.cwd(), '.cache', `verify-pool-js-${process.pid}`);
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts its workers from compiled JavaScript', async () => {
    mkdirSync(dir, { recursive: true });
    for (const name of ['verify', 'verify-pool', 'verify-worker']) {
      const source = readFileSync(join('server', 'ingest', `${name}.ts`), 'utf8');
      const { code } = await transform(source, { loader: 'ts', format: 'esm', target: 'node20' });
      writeFileSync(join(dir, `${name}.js`), code.replace(/(['"])(\.\.?\/[^'"]+)\.ts\1/g, '$1$2.js$1'));
    }
    const { events, expected } = mixed(12);
    writeFileSync(join(dir, 'events.json'), JSON.stringify(events));
    writeFileSync(
      join(dir, 'check.mjs'),
      `import { readFileSync } from 'node:fs';
       import { startVerifyPool } from './verify-pool.js';
       const pool = await startVerifyPool({ size: 1 });
       const codes = await pool.verify(JSON.parse(readFileSync(new URL('./events.json', import.meta.url), 'utf8')));
       const threads = pool.threads;
       await pool.close();
       console.log(JSON.stringify({ threads, codes }));`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'check.mjs')], { timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({ threads: 1, codes: expected });
  });
});
