/**
 * Storage growth is bounded, on both stores: superseded versions of replaceable and addressable
 * events are not kept (an older one arriving later is not stored either), and uploads over Blossom
 * and the upload socket stop at STORAGE_QUOTA_BYTES per pubkey.
 */
import { createHash } from 'node:crypto';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempPostgres, type TempPostgres } from '../support/postgres.ts';
import { CacheClient } from './cache-client.ts';
import { person, sign } from './people.ts';
import { http, signed, startTestServer, type TestServer } from './services-support.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const picture = (background: string) =>
  sharp({ create: { width: 120, height: 80, channels: 3, background } }).png({ compressionLevel: 0 }).toBuffer();

describe.each(['sqlite', 'postgres'] as const)('storage bounds (%s)', (store) => {
  let pg: TempPostgres | null = null;
  let t: TestServer;
  let v1: CacheClient;
  let n = 0;
  const sub = () => `b${++n}`;
  let red: Buffer;
  let blue: Buffer;

  beforeAll(async () => {
    pg = store === 'postgres' ? await startTempPostgres() : null;
    [red, blue] = await Promise.all([picture('#c33'), picture('#33c')]);
    // Room for one picture, not two.
    t = await startTestServer({ DATABASE_URL: pg?.url ?? '', STORAGE_QUOTA_BYTES: String(Math.floor(red.length * 1.5)) });
    v1 = await CacheClient.connect(`${t.base.replace('http', 'ws')}/v1`);
  }, 60_000);
  afterAll(async () => {
    await v1?.close();
    await t?.stop();
    pg?.stop();
  });

  it('keeps only the current version of replaceable and addressable events', async () => {
    const u = person();
    const now = t.clock.now;
    const versions = (kind: number, tags: string[][] = []) =>
      [now - 200, now - 100, now - 300].map((at, i) => sign(u, kind, at, kind === 0 ? JSON.stringify({ name: `v${i}` }) : `v${i}`, tags));
    const all = [versions(0), versions(3, [['p', person().pk]]), versions(10002, [['r', 'wss://relay.example']]), versions(30023, [['d', 'cikk']])];
    // The middle one arrives first, then the newest, then an older one: only the newest is kept.
    for (const [middle, newest, oldest] of all) {
      for (const ev of [middle, newest, oldest]) {
        const r = await v1.req(sub(), 'import_events', { events: [ev] });
        expect(r.notices).toEqual([]);
      }
    }
    const ids = all.flat().map((e) => e.id);
    const got = await v1.req(sub(), 'events', { event_ids: ids });
    const stored = got.events.filter((e) => typeof e.id === 'string' && ids.includes(e.id as string)).map((e) => e.id);
    expect(stored.sort()).toEqual(all.map((v) => v[1].id).sort());
  });

  it('refuses a Blossom upload past the quota with 413 and X-Reason, and an upload socket chunk with a notice', async () => {
    const alice = generateSecretKey();
    const auth = (b: Buffer) => {
      const ev = signed(alice, 24242, 'Feltöltés', [['t', 'upload'], ['expiration', String(t.clock.now + 600)], ['x', sha(b)]], t.clock.now - 1);
      return `Nostr ${Buffer.from(JSON.stringify(ev)).toString('base64')}`;
    };
    const put = (b: Buffer) => http('PUT', `${t.base}/upload`, { body: b, headers: { Authorization: auth(b), 'Content-Type': 'image/png' } });
    expect((await put(red)).status).toBe(200);
    const over = await put(blue);
    expect(over.status).toBe(413);
    expect(over.headers['x-reason']).toBe('storage quota exceeded');
    expect((await http('GET', `${t.base}/${sha(blue)}`)).status).toBe(404);
    // Bytes already owned cost nothing.
    expect((await put(red)).status).toBe(200);

    const up = await CacheClient.connect(`${t.base.replace('http', 'ws')}/upload`);
    const chunk = (content: Record<string, unknown>) => signed(alice, 10000135, JSON.stringify(content), [['p', getPublicKey(alice)]], t.clock.now - 1);
    const r = await up.req(sub(), 'upload_chunk', {
      event_from_user: chunk({ upload_id: 'kvota-1', file_length: blue.length, offset: 0, data: `data:image/png;base64,${blue.toString('base64')}` }),
    });
    expect(r.notices).toHaveLength(1);
    expect(r.notices[0]).toMatch(/^Betelt a tárhelyed/);
    await up.close();
  });
});
