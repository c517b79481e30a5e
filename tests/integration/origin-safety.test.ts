/**
 * Our origin holds the key (in its shared worker), so nothing it serves may run a stranger's code:
 * the media cache serves only types recognised from the bytes, never redirects, and every
 * response with third-party or user bytes is sandboxed; the app's pages get a strict CSP whose
 * script hashes match the inline scripts of the built index.html.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSecretKey } from 'nostr-tools/pure';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, jsonOf, signed, startOrigin, startTestServer, type Origin, type Reply, type TestServer } from './services-support.ts';

let origin: Origin;
let t: TestServer;
let png: Buffer;

const HTML_BODY = '<!doctype html><html><body><script>window.__pwned = 1</script><h1>nem kép</h1></body></html>';
const SVG_BODY = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>';
/** The head of an MP4 (an ftyp box); the media cache only looks at the first bytes of a video. */
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\0\0\x02\0isomiso2', 'latin1'), Buffer.alloc(200, 7)]);

const mc = (u: string, s = 'o') => `${t.base}/media-cache?s=${s}&a=1&u=${encodeURIComponent(u)}`;

function expectUntrusted(res: Reply): void {
  const csp = String(res.headers['content-security-policy'] ?? '');
  expect(csp).toMatch(/(^|;)\s*sandbox\s*(;|$)/);
  expect(csp).toContain("default-src 'none'");
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
}

beforeAll(async () => {
  png = await sharp({ create: { width: 640, height: 320, channels: 3, background: '#2a6' } }).png().toBuffer();
  origin = await startOrigin({
    '/kep.png': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'image/png' });
      r.end(png);
    },
    '/html.png': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'image/png, text/html' });
      r.end(HTML_BODY);
    },
    '/rajz.png': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'image/png, image/svg+xml' });
      r.end(SVG_BODY);
    },
    '/film.mp4': (_q, r) => {
      // The declared type is wrong on purpose: only the bytes decide.
      r.writeHead(200, { 'Content-Type': 'text/html' });
      r.end(MP4);
    },
    '/oldal': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      r.end(`<html><head><meta property="og:title" content="Cím"><meta property="og:image" content="${origin.base}/elonezet.png"></head></html>`);
    },
    '/hosszu': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'text/html' });
      r.end(`<html><head><meta property="og:title" content="Hosszú"><meta property="og:image" content="${origin.base}/${'k'.repeat(2100)}.png"></head></html>`);
    },
    '/elonezet.png': (_q, r) => {
      r.writeHead(200, { 'Content-Type': 'image/png' });
      r.end(png);
    },
  });
  t = await startTestServer();
  const urls = ['/kep.png', '/html.png', '/rajz.png', '/film.mp4'].map((p) => origin.base + p);
  const note = signed(generateSecretKey(), 1, `Média: ${urls.join(' ')}`, [], t.clock.now - 5);
  expect((await t.server.ctx.importer.importEvents([note])).every((r) => r.ok)).toBe(true);
});

afterAll(async () => {
  await t?.stop();
  await origin?.close();
});

describe('media cache serves only what the bytes are', () => {
  it('refuses an HTML body declared as "image/png, text/html"', async () => {
    for (const s of ['o', 's']) {
      const res = await http('GET', mc(`${origin.base}/html.png`, s));
      expect(res.status).toBe(404);
      expect(String(res.headers['content-type'])).not.toMatch(/html/);
      expect(res.body.toString()).not.toContain('__pwned');
    }
  });

  it('refuses an SVG declared as "image/png, image/svg+xml"', async () => {
    for (const s of ['o', 'm']) {
      const res = await http('GET', mc(`${origin.base}/rajz.png`, s));
      expect(res.status).toBe(404);
      expect(String(res.headers['content-type'])).not.toMatch(/svg|html/);
      expect(res.body.toString()).not.toContain('<script');
    }
  });

  it('serves a video as the type its bytes show, whatever the upstream declared', async () => {
    const res = await http('GET', mc(`${origin.base}/film.mp4`));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.body.equals(MP4)).toBe(true);
    expectUntrusted(res);
  });

  it('serves a file cached before this check, whose recorded type is not media, only as a download', async () => {
    const body = Buffer.from(HTML_BODY);
    const sha = createHash('sha256').update(body).digest('hex');
    const dir = join(t.dataDir, 'media', 'orig');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, sha), body);
    const url = 'https://regi.example/oldal.png';
    await t.server.ctx.db.run(
      'INSERT INTO media (url, status, mimetype, width, height, animated, size, sha256, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [url, 'ok', 'text/html', 0, 0, 0, body.length, sha, t.clock.now],
    );
    const res = await http('GET', mc(url));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe('attachment');
    expectUntrusted(res);
  });
});

describe('media cache never redirects', () => {
  it('answers 404 without a Location for unknown URLs and for what it cannot serve', async () => {
    for (const u of ['https://tamado.example/adathalasz', `${origin.base}/html.png`, `${origin.base}/senki.png`, '//tamado.example/x']) {
      const res = await http('GET', `${t.base}/media-cache?s=o&u=${encodeURIComponent(u)}`);
      expect([400, 404]).toContain(res.status);
      expect(res.headers.location).toBeUndefined();
    }
    // Unknown URLs are still never fetched: the server is no open proxy.
    expect(origin.hits.get('/senki.png')).toBeUndefined();
  });

  it('proxies a link preview image instead of sending the browser to its host', async () => {
    const preview = jsonOf<{ image: string }>(await http('GET', `${t.base}/link-preview?u=${encodeURIComponent(`${origin.base}/oldal`)}`));
    expect(preview.image).toBe(`${origin.base}/elonezet.png`);
    const res = await http('GET', mc(preview.image, 'm'));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers.location).toBeUndefined();
    expectUntrusted(res);
    // An image URL longer than the media cache takes is no image (nor a key too long for the index).
    const long = jsonOf<{ title: string; image: string }>(await http('GET', `${t.base}/link-preview?u=${encodeURIComponent(`${origin.base}/hosszu`)}`));
    expect(long).toMatchObject({ title: 'Hosszú', image: '' });
  });
});

describe('third-party and user bytes are sandboxed', () => {
  it('media cache originals, variants and demo media', async () => {
    for (const s of ['o', 's']) expectUntrusted(await http('GET', mc(`${origin.base}/kep.png`, s)));
    for (const s of ['o', 'm']) {
      const res = await http('GET', mc('https://media.strucc.test/img/2.svg', s));
      expect(res.status).toBe(200);
      expectUntrusted(res);
    }
  });

  it('Blossom blobs, link-preview answers and POST /api answers (other people\'s events)', async () => {
    const sk = generateSecretKey();
    const sha = createHash('sha256').update(png).digest('hex');
    const ev = signed(sk, 24242, 'Feltöltés', [['t', 'upload'], ['expiration', String(t.clock.now + 600)]], t.clock.now - 1);
    const put = await http('PUT', `${t.base}/upload`, { body: png, headers: { Authorization: `Nostr ${Buffer.from(JSON.stringify(ev)).toString('base64')}` } });
    expect(put.status).toBe(200);
    for (const path of [`/${sha}`, `/${sha}.png`]) {
      const res = await http('GET', `${t.base}${path}`);
      expect(res.headers['content-type']).toBe('image/png');
      expectUntrusted(res);
    }
    expectUntrusted(await http('GET', `${t.base}/link-preview?u=${encodeURIComponent(`${origin.base}/oldal`)}`));
    const api = await http('POST', `${t.base}/api`, { body: JSON.stringify(['events', { event_ids: ['00'.repeat(32)] }]) });
    expect(api.status).toBe(200);
    expectUntrusted(api);
  });
});

describe("the app's pages", () => {
  const head = "var t = localStorage.getItem('theme');\r\ndocument.documentElement.dataset.theme = t;";
  const body = '(function () { window.x = "árvíztűrő"; })();';
  const sha = (s: string) => `'sha256-${createHash('sha256').update(s.replace(/\r\n?/g, '\n')).digest('base64')}'`;

  beforeAll(async () => {
    const dist = t.server.ctx.config.distDir;
    await mkdir(join(dist, 'assets'), { recursive: true });
    await writeFile(
      join(dist, 'index.html'),
      `<!doctype html><html><head><script>${head}</script><script type="application/ld+json">{"a":1}</script></head>` +
        `<body><div id="root"></div><script>${body}</script><script type="module" crossorigin src="/assets/index-abc.js"></script></body></html>`,
    );
  });

  it('get a CSP that allows exactly the inline scripts of the built index.html, never unsafe-inline', async () => {
    for (const path of ['/', '/home', '/e/valami']) {
      const res = await http('GET', `${t.base}${path}`);
      expect(res.status).toBe(200);
      const csp = String(res.headers['content-security-policy'] ?? '');
      const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
      const scripts = directives.get('script-src') ?? [];
      expect(scripts.sort()).toEqual(["'self'", sha(head), sha(body)].sort());
      expect(csp).not.toMatch(/unsafe-inline/);
      expect(directives.get('default-src')).toEqual(["'self'"]);
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(directives.get('object-src')).toEqual(["'none'"]);
      expect(directives.get('base-uri')).toEqual(["'none'"]);
      expect(directives.get('frame-src')).toContain('https://www.youtube-nocookie.com');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
