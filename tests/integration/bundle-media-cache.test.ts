/**
 * The media and link-preview objects of bundles come from memory on a running server (hot-cache.ts
 * bundleMedia, issue 18's load test): a repeated reply must not read them again, and a picture
 * fetched, a link preview fetched or evicted, or the note itself stored later must show in the very
 * next reply, on SQLite and PostgreSQL, and across two processes on one PostgreSQL.
 */
import { get } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheKind } from '../../core/kinds.ts';
import { linkPreview } from '../../server/media/preview.ts';
import type { RunningServer } from '../support/server-process.ts';
import { twoProcessesOnPostgres } from '../support/two-processes.ts';
import { until } from '../support/until.ts';
import { CacheClient as Client } from './cache-client.ts';
import { startCacheServer, watchReads, type CacheTestServer, type StoreKind } from './cache-server.ts';
import type { CacheClient } from './cache-client.ts';
import { person, sign } from './people.ts';
import { startOrigin, type Origin } from './services-support.ts';

type Signed = ReturnType<typeof sign>;
type Reply = Record<string, unknown>[];

let png: Buffer;
let origin: Origin;

beforeAll(async () => {
  png = await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#3a7' } }).png().toBuffer();
  const page = (title: string) => (_q: unknown, r: { writeHead: (s: number, h: Record<string, string>) => void; end: (b: string) => void }) => {
    r.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    r.end(`<html><head><meta property="og:title" content="${title}"></head><body></body></html>`);
  };
  origin = await startOrigin({
    '/kep.png': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
      r.end(png);
    },
    '/masik.png': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
      r.end(png);
    },
    '/oldal': page('Első oldal'),
    '/masik-oldal': page('Második oldal'),
  });
});
afterAll(async () => {
  await origin?.close();
});

/** GET on a server's HTTP port; the body is dropped, the status returned. */
const httpGet = (url: string) =>
  new Promise<number>((resolve, reject) => {
    get(url, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });

/** The URLs the reply's media and link objects describe for `id`. */
function described(events: Reply, id: string) {
  const of = (kind: number) =>
    events
      .filter((e) => e.kind === kind)
      .map((e) => JSON.parse(String(e.content)) as { event_id: string; resources: { url: string; md_title?: string; variants?: { w: number }[] }[] })
      .filter((m) => m.event_id === id);
  return {
    media: of(CacheKind.MEDIA_METADATA).flatMap((m) => m.resources.map((r) => `${r.url} ${r.variants![0].w}`)),
    links: of(CacheKind.LINK_METADATA).flatMap((m) => m.resources.map((r) => `${r.url} ${r.md_title}`)),
  };
}

describe.each(['sqlite', 'postgres'] as const)('bundle media from memory (%s)', (store: StoreKind) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  let mediaReads = 0;
  let seq = 0;
  let at = 0;
  const writer = person();

  const publish = async (...events: Signed[]) => {
    const results = await srv.ctx.importer.importEvents(events);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  };
  const events = async (ids: string[]) => {
    const r = await c.req(`m${seq++}`, 'events', { event_ids: ids, extended_response: true });
    expect(r.notices).toEqual([]);
    return r.events;
  };
  const base = () => `http://127.0.0.1:${srv.port}`;

  beforeAll(async () => {
    srv = await startCacheServer(store, { FETCH_PRIVATE_ADDRESSES: '1' });
    watchReads(srv, (sql) => {
      if (/FROM event_media em JOIN media m/.test(sql)) mediaReads++;
    });
    c = await srv.connect();
    at = srv.ctx.now() - 1_000;
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it('a repeated reply reads no media rows; a picture fetched later shows in the next reply', async () => {
    const url = `${origin.base}/kep.png`;
    const note = sign(writer, 1, at, `Egy kép: ${url}`);
    await publish(note);
    const first = await events([note.id]);
    expect(described(first, note.id).media).toEqual([]);
    const reads = mediaReads;
    expect(reads).toBeGreaterThan(0);
    expect(await events([note.id])).toEqual(first);
    expect(mediaReads).toBe(reads);

    // The first client that shows the picture has the server fetch and measure it.
    expect(await httpGet(`${base()}/media-cache?s=o&a=1&u=${encodeURIComponent(url)}`)).toBe(200);
    expect(described(await events([note.id]), note.id).media).toEqual([`${url} 1000`]);
  });

  it('a link preview fetched later, and its eviction, show in the next reply', async () => {
    const url = `${origin.base}/oldal`;
    const note = sign(writer, 1, at + 1, `Olvasd el: ${url}`);
    await publish(note);
    expect(described(await events([note.id]), note.id).links).toEqual([]);
    expect(await httpGet(`${base()}/link-preview?u=${encodeURIComponent(url)}`)).toBe(200);
    expect(described(await events([note.id]), note.id).links).toEqual([`${url} Első oldal`]);
    // A preview table of one byte keeps only the newest preview: the first one is evicted.
    await linkPreview(srv.ctx.db, `${origin.base}/masik-oldal`, srv.ctx.now(), 1);
    expect(described(await events([note.id]), note.id).links).toEqual([]);
  });

  it("a reposted note's picture shows once the note itself is stored", async () => {
    const url = `${origin.base}/kep.png`;
    const note = sign(writer, 1, at + 2, `Ugyanaz a kép: ${url}`);
    // The repost carries the note we do not have yet; its bundle shows the note without media rows.
    const repost = sign(person(), 6, at + 3, JSON.stringify(note), [['e', note.id], ['p', writer.pk]]);
    await publish(repost);
    const before = await events([repost.id]);
    expect(before.some((e) => e.kind === CacheKind.REFERENCED_EVENT && String(e.content).includes(note.id))).toBe(true);
    expect(described(before, note.id).media).toEqual([]);
    await publish(note);
    expect(described(await events([repost.id]), note.id).media).toEqual([`${url} 1000`]);
  });
});

describe('bundle media across two processes on one PostgreSQL', () => {
  const procs = twoProcessesOnPostgres({ FETCH_PRIVATE_ADDRESSES: '1' });
  let a: RunningServer;
  let b: RunningServer;
  beforeAll(() => {
    ({ a, b } = procs);
  });

  it("a picture fetched through A shows in B's next reply", async () => {
    const url = `${origin.base}/masik.png`;
    const note = sign(person(), 1, Math.floor(Date.now() / 1000) - 60, `Kép: ${url}`);
    const relayA = await Client.connect(`${a.url.replace(/^http/, 'ws')}/relay`);
    relayA.send(JSON.stringify(['EVENT', note]));
    await relayA.until(() => relayA.frames.some((f) => f.msg[0] === 'OK' && f.msg[1] === note.id), `OK for ${note.id}`);
    const cacheB = await Client.connect(`${b.url.replace(/^http/, 'ws')}/v1`);
    let n = 0;
    const mediaOnB = async () => {
      const r = await cacheB.req(`m${n++}`, 'events', { event_ids: [note.id], extended_response: true });
      expect(r.notices).toEqual([]);
      expect(r.events.some((e) => e.id === note.id)).toBe(true);
      return described(r.events, note.id).media;
    };
    // B has the note and, from now on, its (empty) media objects in memory.
    await until(async () => (await mediaOnB()).length === 0 || undefined, 'the note on B', 20_000, 100);
    expect(await mediaOnB()).toEqual([]);
    expect(await httpGet(`${a.url}/media-cache?s=o&a=1&u=${encodeURIComponent(url)}`)).toBe(200);
    await until(async () => (await mediaOnB()).length > 0, "the picture's size on B", 20_000, 100);
    expect(await mediaOnB()).toEqual([`${url} 1000`]);
    await relayA.close();
    await cacheB.close();
  });
});
