/**
 * Storage growth is bounded, on both stores: superseded versions of replaceable and addressable
 * events are not kept (an older one arriving later is not stored either), and uploads over Blossom
 * and the upload socket stop at STORAGE_QUOTA_BYTES per pubkey; link previews and media-cache
 * originals are evicted least recently used first past LINK_PREVIEW_CACHE_BYTES / MEDIA_CACHE_BYTES.
 */
import { createHash } from 'node:crypto';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTempPostgres, type TempPostgres } from '../support/postgres.ts';
import { CacheClient } from './cache-client.ts';
import { person, sign } from './people.ts';
import { http, jsonOf, signed, startOrigin, startTestServer, type Origin, type Route, type TestServer } from './services-support.ts';

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

  it('keeps past contact lists for recovery outside events: the fullest per day, newest 30 days', async () => {
    const u = person();
    const day = 86400;
    const today = Math.floor(t.clock.now / day) * day;
    const follows = (k: number) => Array.from({ length: k }, () => ['p', person().pk]);
    // 35 days with one list each, plus a fuller one arriving late for the newest day.
    const lists = Array.from({ length: 35 }, (_, i) => sign(u, 3, today - i * day + 60, '', follows(2)));
    const lateFuller = sign(u, 3, today + 30, '', follows(4));
    for (const ev of [...lists, lateFuller]) expect((await v1.req(sub(), 'import_events', { events: [ev] })).notices).toEqual([]);
    const kept = await t.server.ctx.db.all<{ event_id: string }>('SELECT event_id FROM contact_list_history WHERE pubkey = ? ORDER BY day DESC', [u.pk]);
    expect(kept.map((r) => r.event_id)).toEqual([lateFuller.id, ...lists.slice(1, 30).map((e) => e.id)]);
    const stored = await v1.req(sub(), 'events', { event_ids: [...lists, lateFuller].map((e) => e.id) });
    expect(stored.events.filter((e) => e.kind === 3).map((e) => e.id)).toEqual([lists[0].id]);
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

describe('bounded caches: link previews and media, least recently used out first', () => {
  let t: TestServer;
  let origin: Origin;
  const pics: Record<string, Buffer> = {};
  const title = (name: string) => `${name} `.repeat(100);

  beforeAll(async () => {
    for (const [name, colour] of [['a', '#c33'], ['b', '#3c3'], ['c', '#33c']]) pics[name] = await picture(colour);
    const routes: Record<string, Route> = {};
    for (const name of ['p1', 'p2', 'p3']) {
      routes[`/${name}`] = (_q, r) => {
        r.writeHead(200, { 'Content-Type': 'text/html' });
        r.end(`<html><head><title>${title(name)}</title></head></html>`);
      };
    }
    for (const name of Object.keys(pics)) {
      routes[`/${name}.png`] = (_q, r) => {
        r.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': pics[name].length });
        r.end(pics[name]);
      };
    }
    origin = await startOrigin(routes);
    // Room for two previews (~400 bytes each) and two pictures, not three.
    t = await startTestServer({ LINK_PREVIEW_CACHE_BYTES: '1000', MEDIA_CACHE_BYTES: String(Math.floor(pics.a.length * 2.5)) });
    const note = signed(generateSecretKey(), 1, `Képek: ${origin.base}/a.png ${origin.base}/b.png ${origin.base}/c.png`, [], t.clock.now - 5);
    expect((await t.server.ctx.importer.importEvents([note])).every((r) => r.ok)).toBe(true);
  });
  afterAll(async () => {
    await t?.stop();
    await origin?.close();
  });

  /** Each step a little later, so last use orders the entries. */
  const later = () => (t.clock.now += 100);

  it('drops the least recently used link preview once over LINK_PREVIEW_CACHE_BYTES', async () => {
    const preview = async (name: string) => {
      later();
      const res = await http('GET', `${t.base}/link-preview?u=${encodeURIComponent(`${origin.base}/${name}`)}`);
      expect(res.status).toBe(200);
      expect(jsonOf<{ title: string }>(res).title).toBe(title(name).trim());
    };
    await preview('p1');
    await preview('p2');
    await preview('p1'); // p1 used again: p2 is now the least recently used
    await preview('p3');
    await preview('p1');
    expect(origin.hits.get('/p1')).toBe(1);
    await preview('p2');
    expect(origin.hits.get('/p2')).toBe(2);
  });

  it('drops the least recently used media original once over MEDIA_CACHE_BYTES, and fetches it again when asked', async () => {
    const get = async (name: string) => {
      later();
      const res = await http('GET', `${t.base}/media-cache?s=o&a=1&u=${encodeURIComponent(`${origin.base}/${name}.png`)}`);
      expect(res.status).toBe(200);
      expect(res.body.equals(pics[name])).toBe(true);
    };
    await get('a');
    await get('b');
    await get('a');
    await get('c');
    await get('a');
    expect(origin.hits.get('/a.png')).toBe(1);
    await get('b');
    expect(origin.hits.get('/b.png')).toBe(2);
  });
});
