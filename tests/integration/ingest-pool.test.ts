/**
 * Ingestion with the verify pool end to end: the importer on worker-thread verification keeps
 * the S §5.2 order of checks per event and answers in input order, and a real server (which
 * starts the pool itself) verifies relay publishes through it and stops it on close.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSecretKey, type EventTemplate } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { createImporter } from '../../server/ingest/importer.ts';
import { startVerifyPool, type Verifier } from '../../server/ingest/verify-pool.ts';
import type { Database } from '../../server/store/db.ts';
import { openSqlite } from '../../server/store/sqlite.ts';
import { until } from '../support/until.ts';
import { signEvent } from '../support/sign.ts';

const NOW = 1_800_000_000;
const key = generateSecretKey();
const sign = (t: Partial<EventTemplate> & { kind: number }) => signEvent(key, { created_at: NOW - 60, ...t });

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'strucc-ingest-pool-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('importer on the verify pool', () => {
  let db: Database;
  let pool: Verifier;

  beforeAll(async () => {
    db = openSqlite(join(dir, 'importer.sqlite'));
    pool = await startVerifyPool({ size: 2 });
  });
  afterAll(async () => {
    await pool.close();
    await db.close();
  });

  it('keeps the S §5.2 order of checks per event and the input order of results', async () => {
    const importer = createImporter({ db, live: new EventEmitter(), now: () => NOW, verifier: pool });
    const earlier = sign({ kind: 1, content: 'már tárolt' });
    expect((await importer.importEvents([earlier]))[0]).toMatchObject({ ok: true, reason: '' });

    const notes = Array.from({ length: 600 }, (_, i) => sign({ kind: 1, content: `jegyzet ${i}` }));
    const good = sign({ kind: 1, content: 'jó' });
    const badId = { ...sign({ kind: 1, content: 'eredeti' }), content: 'átírt' };
    const badSig = { ...sign({ kind: 1, content: 'aláírás' }), sig: good.sig };
    const future = sign({ kind: 1, created_at: NOW + 3600, content: 'jövő' });
    const blocked = sign({ kind: 30382, content: 'tiltott fajta', tags: [['d', 'x']] });
    // A bad signature is reported before a blocked kind or a future timestamp (step 3 before 4 and 5).
    const badSigFuture = { ...sign({ kind: 30382, created_at: NOW + 3600, content: 'mindkettő', tags: [['d', 'y']] }), sig: good.sig };
    const oversized = sign({ kind: 1, content: 'x'.repeat(500_001) });
    const input: unknown[] = [
      ...notes.slice(0, 300),
      good,
      earlier,
      good,
      badId,
      badSig,
      future,
      blocked,
      badSigFuture,
      oversized,
      'nem esemény',
      ...notes.slice(300),
    ];
    const results = await importer.importEvents(input);
    expect(results).toHaveLength(input.length);
    const at = (i: number) => results[300 + i];
    expect(results.slice(0, 300).every((r, i) => r.ok && r.id === notes[i].id && r.reason === '')).toBe(true);
    expect(at(0)).toEqual({ id: good.id, ok: true, reason: '' });
    expect(at(1)).toEqual({ id: earlier.id, ok: true, reason: 'duplicate: already have this event' });
    expect(at(2)).toEqual({ id: good.id, ok: true, reason: 'duplicate: already have this event' });
    expect(at(3)).toEqual({ id: badId.id, ok: false, reason: 'invalid: event id does not match its content' });
    expect(at(4)).toEqual({ id: badSig.id, ok: false, reason: 'invalid: bad signature' });
    expect(at(5)).toEqual({ id: future.id, ok: false, reason: 'invalid: created_at is too far in the future' });
    expect(at(6)).toEqual({ id: blocked.id, ok: false, reason: 'blocked: kind 30382 is not accepted' });
    expect(at(7)).toEqual({ id: badSigFuture.id, ok: false, reason: 'invalid: bad signature' });
    expect(at(8).reason).toMatch(/^invalid: event larger than/);
    expect(at(9).ok).toBe(false);
    expect(results.slice(310).every((r, i) => r.ok && r.id === notes[300 + i].id)).toBe(true);

    const row = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM events');
    expect(Number(row?.n)).toBe(602);
  });
});

describe('a real server', () => {
  it('verifies relay publishes on its pool and answers each OK', async () => {
    const config = readConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: join(dir, 'server'), DEMO: '0', DIST_DIR: join(dir, 'no-dist') });
    const server = await startServer(config);
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/relay`);
    try {
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      const at = Math.floor(Date.now() / 1000);
      const events = Array.from({ length: 40 }, (_, i) => sign({ kind: 1, created_at: at, content: `relé ${i}` }));
      const forged = { ...events[7], content: 'hamisított' };
      const oks = new Map<string, [boolean, string]>();
      ws.on('message', (data) => {
        const msg = JSON.parse(data.toString()) as unknown[];
        if (msg[0] === 'OK') oks.set(String(msg[1]), [msg[2] as boolean, String(msg[3])]);
      });
      for (const e of [...events, forged]) ws.send(JSON.stringify(['EVENT', e]));
      await until(() => oks.size >= events.length, 'an OK for every event', 20_000, 50);
      // The forged copy shares its id with events[7], so that id's single answer depends on arrival; the rest are stored.
      for (const e of events) if (e !== events[7]) expect(oks.get(e.id)).toEqual([true, '']);
      const row = await server.ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM events');
      expect(Number(row?.n)).toBe(40);
    } finally {
      ws.terminate();
      await server.close();
    }
  });
});
