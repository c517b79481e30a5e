import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSecretKey } from 'nostr-tools/pure';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, jsonOf, signed, startOrigin, startTestServer, type Origin, type TestServer } from './services-support.ts';

interface Variant {
  s: string;
  a: number;
  w: number;
  h: number;
  mt: string;
  media_url: string;
}
interface MediaInfo {
  event_id: string;
  resources: { url: string; mt: string; variants: Variant[] }[];
  thumbnails: Record<string, string>;
}

let origin: Origin;
let t: TestServer;
let png: Buffer;
let gif: Buffer;

const mc = (u: string, s: string, a = '1') => `${t.base}/media-cache?s=${s}&a=${a}&u=${encodeURIComponent(u)}`;

async function mediaInfos(ids: string[]): Promise<MediaInfo[]> {
  const res = await http('POST', `${t.base}/api`, { body: JSON.stringify(['events', { event_ids: ids, extended_response: true }]) });
  expect(res.status).toBe(200);
  return jsonOf<{ kind: number; content: string }[]>(res)
    .filter((o) => o.kind === 10000119)
    .map((o) => JSON.parse(o.content) as MediaInfo);
}

beforeAll(async () => {
  png = await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#3a7' } }).png().toBuffer();
  const frames = await Promise.all(['#f00', '#0f0', '#00f'].map((c) => sharp({ create: { width: 600, height: 300, channels: 3, background: c } }).png().toBuffer()));
  gif = await sharp(frames, { join: { animated: true } }).gif().toBuffer();
  origin = await startOrigin({
    '/kep.png': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
      r.end(png);
    },
    '/mozgo.gif': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'image/gif' });
      r.end(gif);
    },
    '/oldal.jpg': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'text/html' });
      r.end('<html>nem kép</html>');
    },
    '/nagy.png': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': 21 * 1024 * 1024 });
      r.end();
    },
  });
  t = await startTestServer();
});

afterAll(async () => {
  await t?.stop();
  await origin?.close();
});

describe('media cache: demo media', () => {
  it('rasterises demo SVGs to WebP at the small, medium and large widths and keeps the SVG as original', async () => {
    const u = 'https://media.strucc.test/img/3.svg';
    for (const [s, w, h] of [
      ['s', 200, 300],
      ['m', 400, 600],
      ['l', 800, 1200],
    ] as const) {
      const res = await http('GET', mc(u, s));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toContain('immutable');
      const meta = await sharp(res.body).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', w, h]);
    }
    const o = await http('GET', mc(u, 'o'));
    expect(o.headers['content-type']).toBe('image/svg+xml');
    expect(o.body.toString()).toContain('<svg');
    expect((await http('GET', mc('https://media.strucc.test/img/0.svg', 's'))).status).toBe(404);
  });

  it('describes demo media of notes and profiles in 10000119 with known sizes', async () => {
    const sk = generateSecretKey();
    const profile = signed(sk, 0, JSON.stringify({ name: 'kepes', picture: 'https://media.strucc.test/avatar/abcdef12.svg' }), [], t.clock.now - 20);
    const note = signed(sk, 1, 'Kirándulás: https://media.strucc.test/img/1.svg', [], t.clock.now - 10);
    expect((await t.server.ctx.importer.importEvents([profile, note])).every((r) => r.ok)).toBe(true);
    const infos = await mediaInfos([note.id]);
    const byEvent = new Map(infos.map((i) => [i.event_id, i]));
    const noteInfo = byEvent.get(note.id)!;
    expect(noteInfo.thumbnails).toEqual({});
    expect(noteInfo.resources).toHaveLength(1);
    const res = noteInfo.resources[0];
    expect(res.url).toBe('https://media.strucc.test/img/1.svg');
    expect(res.mt).toBe('image/svg+xml');
    const dims = Object.fromEntries(res.variants.map((v) => [v.s, [v.w, v.h, v.mt]]));
    expect(dims).toEqual({ o: [1200, 800, 'image/svg+xml'], s: [200, 133, 'image/webp'], m: [400, 267, 'image/webp'], l: [800, 533, 'image/webp'] });
    const small = res.variants.find((v) => v.s === 's')!;
    const served = await http('GET', `${t.base}${small.media_url}`);
    expect((await sharp(served.body).metadata()).width).toBe(200);
    const avatar = byEvent.get(profile.id)!;
    expect(avatar.resources[0].variants.find((v) => v.s === 'o')).toMatchObject({ w: 400, h: 400 });
  });
});

describe('media cache: media of stored events', () => {
  let note: ReturnType<typeof signed>;

  beforeAll(async () => {
    note = signed(generateSecretKey(), 1, `Képek: ${origin.base}/kep.png ${origin.base}/mozgo.gif ${origin.base}/oldal.jpg ${origin.base}/nagy.png`, [], t.clock.now - 5);
    expect((await t.server.ctx.importer.importEvents([note])).every((r) => r.ok)).toBe(true);
  });

  it('downloads once, serves resized WebP variants and the original, with long cache headers', async () => {
    const u = `${origin.base}/kep.png`;
    const [s, m, o, again] = [await http('GET', mc(u, 's')), await http('GET', mc(u, 'm')), await http('GET', mc(u, 'o')), await http('GET', mc(u, 's'))];
    expect(origin.hits.get('/kep.png')).toBe(1);
    expect(s.headers['content-type']).toBe('image/webp');
    expect(s.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(await sharp(s.body).metadata()).toMatchObject({ format: 'webp', width: 200, height: 100 });
    expect(await sharp(m.body).metadata()).toMatchObject({ width: 400, height: 200 });
    expect(again.body.equals(s.body)).toBe(true);
    expect(o.headers['content-type']).toBe('image/png');
    expect(o.body.equals(png)).toBe(true);
    const stored = await readdir(join(t.dataDir, 'media', 'var'));
    expect(stored.length).toBe(2);
    const head = await http('HEAD', mc(u, 'l'));
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('keeps animation unless a=0 asks for the first frame', async () => {
    const u = `${origin.base}/mozgo.gif`;
    const animated = await http('GET', mc(u, 'm', '1'));
    const still = await http('GET', mc(u, 'm', '0'));
    expect(animated.headers['content-type']).toBe('image/webp');
    expect((await sharp(animated.body).metadata()).pages).toBe(3);
    expect((await sharp(still.body).metadata()).pages ?? 1).toBe(1);
    expect(await sharp(still.body).metadata()).toMatchObject({ width: 400, height: 200 });
    const stillOriginal = await http('GET', mc(u, 'o', '0'));
    expect((await sharp(stillOriginal.body).metadata()).pages ?? 1).toBe(1);
    expect((await http('GET', mc(u, 'o', '1'))).headers['content-type']).toBe('image/gif');
  });

  it('lists fetched media in 10000119 with measured sizes and the animated flag', async () => {
    const [info] = await mediaInfos([note.id]);
    const byUrl = new Map(info.resources.map((r) => [r.url, r]));
    expect([...byUrl.keys()].sort()).toEqual([`${origin.base}/kep.png`, `${origin.base}/mozgo.gif`]);
    expect(byUrl.get(`${origin.base}/kep.png`)!.variants.find((v) => v.s === 'l')).toMatchObject({ w: 800, h: 400, a: 1, mt: 'image/webp' });
    const gifVariants = byUrl.get(`${origin.base}/mozgo.gif`)!.variants;
    expect(gifVariants.find((v) => v.s === 'o' && v.a === 1)).toMatchObject({ w: 600, h: 300, mt: 'image/gif' });
    expect(gifVariants.some((v) => v.s === 's' && v.a === 0)).toBe(true);
  });

  it('answers 404, never a redirect, for what cannot be cached: non-images, oversized files, unknown URLs', async () => {
    for (const path of ['/oldal.jpg', '/nagy.png', '/senki-nem-hasznalja.png']) {
      const res = await http('GET', mc(`${origin.base}${path}`, 's'));
      // A redirect to the URL in the query would make our origin an open redirect (issue 12).
      expect(res.status).toBe(404);
      expect(res.headers.location).toBeUndefined();
    }
    // The unknown URL was never fetched: only URLs that stored events use are.
    expect(origin.hits.get('/senki-nem-hasznalja.png')).toBeUndefined();
  });

  it('refuses bad u parameters', async () => {
    for (const bad of ['', 'nem-url', 'javascript:alert(1)', 'file:///etc/passwd', `https://x.example/${'a'.repeat(3000)}`]) {
      expect((await http('GET', `${t.base}/media-cache?s=s&u=${encodeURIComponent(bad)}`)).status).toBe(400);
    }
    expect((await http('GET', `${t.base}/media-cache?s=s`)).status).toBe(400);
  });
});

describe('get_media_metadata', () => {
  it('describes known media by URL and checks its arguments', async () => {
    const ask = (kwargs: unknown) => http('POST', `${t.base}/api`, { body: JSON.stringify(['get_media_metadata', kwargs]) });
    const res = await ask({ urls: [`${origin.base}/kep.png`, 'https://media.strucc.test/img/1.svg', 'https://ismeretlen.example/x.png', 'nem url'] });
    const [obj] = jsonOf<{ kind: number; content: string }[]>(res);
    expect(obj.kind).toBe(10000119);
    const info = JSON.parse(obj.content) as { resources: { url: string }[] };
    expect(info.resources.map((r) => r.url).sort()).toEqual([`${origin.base}/kep.png`, 'https://media.strucc.test/img/1.svg']);
    expect((await ask({ urls: 'x' })).status).toBe(400);
    expect((await ask({})).status).toBe(400);
  });
});
