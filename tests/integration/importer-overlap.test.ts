/**
 * With verify workers the importer writes a group while the workers check its signatures and waits for
 * their codes (in shared memory, without yielding) just before COMMIT. A group with any bad signature,
 * or whose codes are late, must be rolled back and written the careful way: the results and the stored
 * rows are exactly those of an import that verified everything first. On both stores.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSecretKey } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult, NostrEvent } from '../../server/context.ts';
import { createImporter } from '../../server/ingest/importer.ts';
import { inThreadVerifier, startVerifyPool, type SharedVerify, type Verifier } from '../../server/ingest/verify-pool.ts';
import { checkSerialised, initVerifier, serialiseEvent, VERIFY_OK, type VerifyCode } from '../../server/ingest/verify.ts';
import type { Database } from '../../server/store/db.ts';
import { openPostgres } from '../../server/store/postgres.ts';
import { openSqlite } from '../../server/store/sqlite.ts';
import { createDatabase, startTempPostgres, type TempPostgres } from '../support/postgres.ts';
import { signEvent } from '../support/sign.ts';

const NOW = 1_800_000_000;
let dir: string;
let n = 0;
const stores: Database[] = [];
let pgServer: TempPostgres | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'strucc-importer-overlap-'));
});
afterAll(async () => {
  for (const db of stores) await db.close();
  pgServer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

type StoreKind = 'SQLite' | 'PostgreSQL';

async function open(store: StoreKind): Promise<Database> {
  if (store === 'SQLite') return openSqlite(join(dir, `s${++n}.sqlite`));
  pgServer ??= await startTempPostgres();
  return openPostgres(await createDatabase(pgServer.url, `strucc_overlap_${++n}`));
}

const alice = generateSecretKey();
const bob = generateSecretKey();

/** Notes, replies and likes with a few bad signatures, a bad id and repeats among them. */
function mixedBatch(): NostrEvent[] {
  const out: NostrEvent[] = [];
  for (let i = 0; i < 40; i++) {
    const note = signEvent(i % 2 ? alice : bob, { kind: 1, created_at: NOW - 1000 + i, content: `jegyzet ${i}` });
    out.push(note);
    out.push(signEvent(i % 2 ? bob : alice, { kind: 7, created_at: NOW - 900 + i, content: '+', tags: [['e', note.id]] }));
  }
  const forged = signEvent(alice, { kind: 1, created_at: NOW - 30, content: 'hamis' });
  const badSig = { ...forged, sig: (forged.sig[0] === 'a' ? 'b' : 'a') + forged.sig.slice(1) };
  const tampered = signEvent(bob, { kind: 1, created_at: NOW - 20, content: 'eredeti' });
  const badId = { ...tampered, content: 'átírva' };
  // The bad copy of a note comes first and its good twin later in the batch: the twin must be stored.
  const twin = signEvent(alice, { kind: 1, created_at: NOW - 10, content: 'iker' });
  const badTwin = { ...twin, sig: (twin.sig[0] === 'a' ? 'b' : 'a') + twin.sig.slice(1) };
  out.splice(30, 0, badSig, badId, badTwin);
  out.push(out[0], twin);
  return out;
}

async function importInto(db: Database, verifier: Verifier, events: NostrEvent[]): Promise<ImportResult[]> {
  return createImporter({ db, live: new EventEmitter(), now: () => NOW, verifier }).importEvents(events);
}

async function rows(db: Database): Promise<unknown> {
  return {
    events: await db.all('SELECT id FROM events ORDER BY id'),
    stats: await db.all('SELECT event_id, likes, score FROM event_stats ORDER BY event_id'),
    notifications: await db.all('SELECT pubkey, id, type FROM notifications ORDER BY pubkey, id'),
  };
}

/** A verifier whose codes are known in advance; `late` makes them miss the pre-COMMIT wait. */
function scripted(codes: (e: NostrEvent) => VerifyCode, opts: { late?: boolean; done?: Promise<void> } = {}): Verifier & { settledCalls: number } {
  const v = {
    threads: 1,
    settledCalls: 0,
    async verify(events: readonly NostrEvent[]) {
      return events.map(codes);
    },
    verifyShared(events: readonly NostrEvent[]): SharedVerify {
      const all = events.map(codes);
      return {
        done: (opts.done ?? Promise.resolve()).then(() => all),
        settled(from: number, to: number) {
          v.settledCalls++;
          return opts.late ? null : all.slice(from, to);
        },
      };
    },
    async close() {},
  };
  return v;
}

describe.each(['SQLite', 'PostgreSQL'] as const)('importer: writes overlapped with verification (%s)', (store) => {
  const fresh = async (): Promise<Database> => {
    const db = await open(store);
    stores.push(db);
    return db;
  };

  it('with real verify workers, results and rows match an import that verified first', async () => {
    const batch = mixedBatch();
    const pool = await startVerifyPool({ size: 1 });
    try {
      expect(pool.threads).toBe(1);
      const a = await fresh();
      const b = await fresh();
      const overlapped = await importInto(a, pool, batch);
      const careful = await importInto(b, inThreadVerifier(), batch);
      expect(overlapped).toEqual(careful);
      expect(overlapped.filter((r) => !r.ok).map((r) => r.reason)).toEqual([
        'invalid: bad signature',
        'invalid: event id does not match its content',
        'invalid: bad signature',
      ]);
      expect(overlapped.filter((r) => r.ok && r.reason === '').length).toBe(81);
      expect(overlapped.at(-1)).toMatchObject({ ok: true, reason: '' });
      expect(await rows(a)).toEqual(await rows(b));
    } finally {
      await pool.close();
    }
  });

  it('writes before the codes are delivered: the group commits on the codes read in shared memory', async () => {
    const batch = mixedBatch();
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    // The promise of the codes settles only after the import: an importer that waited for it before
    // writing would never finish.
    const v = scripted(() => VERIFY_OK, { done });
    const db = await fresh();
    const results = await importInto(db, v, batch.filter((_, i) => i !== 30 && i !== 32));
    release();
    expect(v.settledCalls).toBe(1);
    expect(results.every((r) => r.ok)).toBe(true);
    expect((await db.all('SELECT id FROM events')).length).toBe(82);
  });

  it('rolls a group back when a signature turns out bad, and stores only the good events', async () => {
    const batch = mixedBatch();
    await initVerifier();
    const v = scripted((e) => checkSerialised(e.id, e.pubkey, e.sig, serialiseEvent(e)));
    const db = await fresh();
    const results = await importInto(db, v, batch);
    const expected = await importInto(await fresh(), inThreadVerifier(), batch);
    expect(results).toEqual(expected);
    const stored = new Set((await db.all<{ id: string }>('SELECT id FROM events')).map((r) => r.id));
    expect(results.filter((r) => !r.ok).length).toBe(3);
    expect(stored.has(batch[31].id)).toBe(false);
    // The bad copy's good twin (later in the batch) is stored.
    expect(stored.has(batch[32].id)).toBe(true);
    expect(stored.size).toBe(81);
  });

  it('codes that are late for the pre-COMMIT wait: the group is written again after them', async () => {
    const batch = mixedBatch().filter((_, i) => i < 30);
    const v = scripted(() => VERIFY_OK, { late: true });
    const db = await fresh();
    const results = await importInto(db, v, batch);
    expect(v.settledCalls).toBe(1);
    expect(results.every((r) => r.ok && r.reason === '')).toBe(true);
    expect((await db.all('SELECT id FROM events')).length).toBe(30);
  });
});
