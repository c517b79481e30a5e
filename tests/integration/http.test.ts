import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { SimplePool, useWebSocketImplementation } from 'nostr-tools/pool';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../server/app.ts';
import { startStrucc } from '../support/strucc-server.ts';

useWebSocketImplementation(WebSocket);

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Raw HTTP, so compression and caching headers are seen exactly as sent. */
function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const dirs: string[] = [];
const servers: RunningServer[] = [];
const APP_JS = `console.log(${JSON.stringify('Strucc '.repeat(400))});\n`;
let server: RunningServer;

async function start(env: Record<string, string>): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'strucc-http-'));
  dirs.push(dir);
  const s = await startStrucc(join(dir, 'data'), { DIST_DIR: join(dir, 'dist'), ...env });
  servers.push(s);
  return s;
}

beforeAll(async () => {
  server = await start({});
  const dist = server.ctx.config.distDir;
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html lang="hu"><title>Strucc</title></html>');
  writeFileSync(join(dist, 'assets', 'app-abc123.js'), APP_JS);
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
});

afterAll(async () => {
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('static client', () => {
  it('serves files with their content type, gzip and a long cache for hashed assets', async () => {
    const js = await get(server.url, '/assets/app-abc123.js', { 'Accept-Encoding': 'gzip, br' });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.headers['content-encoding']).toBe('gzip');
    expect(js.headers['cache-control']).toContain('immutable');
    expect(gunzipSync(js.body).toString()).toBe(APP_JS);

    const plain = await get(server.url, '/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(APP_JS);

    const svg = await get(server.url, '/favicon.svg');
    expect(svg.headers['content-type']).toBe('image/svg+xml');
  });

  it('falls back to index.html for client routes, but not for missing assets or paths outside dist', async () => {
    for (const path of ['/', '/home', '/thread/abc', '/profile/npub1xyz?tab=zaps', '/%2e%2e/%2e%2e/etc/passwd']) {
      const res = await get(server.url, path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body.toString()).toContain('<title>Strucc</title>');
    }
    expect((await get(server.url, '/assets/old-build.js')).status).toBe(404);
  });

  it('serves the service worker and the web app manifest with their types, revalidated on every start', async () => {
    const dist = server.ctx.config.distDir;
    // Without them (a build from before the PWA), a 404: HTML under /sw.js would fail registration
    // with a MIME error instead of letting the browser drop an old worker.
    for (const path of ['/sw.js', '/manifest.webmanifest']) {
      const missing = await get(server.url, path);
      expect(missing.status).toBe(404);
      expect(missing.headers['content-type']).not.toMatch(/html/);
    }
    const sw = 'self.addEventListener("fetch", () => {});\n';
    writeFileSync(join(dist, 'sw.js'), sw);
    writeFileSync(join(dist, 'manifest.webmanifest'), JSON.stringify({ name: 'Strucc', lang: 'hu', display: 'standalone' }));

    const worker = await get(server.url, '/sw.js');
    expect(worker.status).toBe(200);
    expect(worker.headers['content-type']).toMatch(/^text\/javascript/);
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.body.toString()).toBe(sw);

    const manifest = await get(server.url, '/manifest.webmanifest');
    expect(manifest.status).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(JSON.parse(manifest.body.toString())).toMatchObject({ lang: 'hu', display: 'standalone' });

    // Everything else outside /assets/ keeps its hour-long cache.
    expect((await get(server.url, '/favicon.svg')).headers['cache-control']).toBe('public, max-age=3600');
  });
});

describe('NIP-05 and media endpoints', () => {
  it('answers nostr.json from current profiles on the NIP-05 domain, with CORS', async () => {
    const key = generateSecretKey();
    const old = finalizeEvent({ kind: 0, created_at: 1_700_000_000, tags: [], content: JSON.stringify({ name: 'Régi', nip05: 'regi@strucc.test' }) }, key);
    const cur = finalizeEvent({ kind: 0, created_at: 1_700_000_100, tags: [], content: JSON.stringify({ name: 'Anna', nip05: 'Anna@strucc.test' }) }, key);
    const other = finalizeEvent(
      { kind: 0, created_at: 1_700_000_000, tags: [], content: JSON.stringify({ nip05: 'bela@example.com' }) },
      generateSecretKey(),
    );
    await server.ctx.importer.importEvents([old, cur, other]);
    const res = await get(server.url, '/.well-known/nostr.json?name=anna');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(res.body.toString())).toEqual({ names: { anna: getPublicKey(key) } });
    for (const name of ['regi', 'bela', 'senki', '']) {
      expect(JSON.parse((await get(server.url, `/.well-known/nostr.json?name=${name}`)).body.toString())).toEqual({ names: {} });
    }
  });

  it('answers media-cache requests for unknown media with 404, never a redirect, and refuses bad URLs', async () => {
    const u = encodeURIComponent('https://example.com/kep.jpg?x=1');
    const res = await get(server.url, `/media-cache?s=m&a=1&u=${u}`);
    // A Location taken from the query would make our origin an open redirect (issue 12).
    expect(res.status).toBe(404);
    expect(res.headers.location).toBeUndefined();
    expect((await get(server.url, '/media-cache?s=m&u=nem-url')).status).toBe(400);
    expect((await get(server.url, '/media-cache?s=m')).status).toBe(400);
    expect((await get(server.url, `/media-cache?u=${encodeURIComponent('javascript:alert(1)')}`)).status).toBe(400);
  });

  it('draws demo media for URLs on the media domain', async () => {
    const u = encodeURIComponent('https://media.strucc.test/img/1.svg');
    // The original is the SVG itself; resized sizes are WebP (tests/integration/media.test.ts).
    const res = await get(server.url, `/media-cache?s=o&a=0&u=${u}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toContain('max-age=31536000');
    expect(res.body.toString()).toContain('<svg');
    expect((await get(server.url, `/media-cache?s=s&u=${encodeURIComponent('https://media.strucc.test/nincs.png')}`)).status).toBe(404);
  });

  it('survives malformed requests', async () => {
    expect((await get(server.url, '/%E0%A4%A')).status).toBe(400);
    expect((await get(server.url, '/api/status')).status).toBe(200);
  });
});

describe('upstream relays', () => {
  it('imports the history and then the live stream of an upstream relay', async () => {
    const upstream = await start({});
    const relay = upstream.url.replace(/^http/, 'ws') + '/relay';
    const key = generateSecretKey();
    const now = Math.floor(Date.now() / 1000);
    const before = finalizeEvent({ kind: 1, created_at: now - 60, tags: [], content: 'korábban' }, key);
    await upstream.ctx.importer.importEvents([before]);

    const follower = await start({ UPSTREAM_RELAYS: relay });
    const pool = new SimplePool();
    const followerRelay = follower.url.replace(/^http/, 'ws') + '/relay';
    try {
      await vi.waitFor(async () => expect((await pool.querySync([followerRelay], { ids: [before.id] })).length).toBe(1), {
        timeout: 20_000,
        interval: 100,
      });
      const after = finalizeEvent({ kind: 1, created_at: now, tags: [], content: 'élőben' }, key);
      await Promise.all(pool.publish([relay], after));
      await vi.waitFor(async () => expect((await pool.querySync([followerRelay], { ids: [after.id] })).length).toBe(1), {
        timeout: 20_000,
        interval: 100,
      });
      // The cursor is saved right after the batch is stored, so it may trail the query by a moment.
      await vi.waitFor(async () => {
        const cursor = await follower.ctx.db.get<{ since: number }>('SELECT since FROM relay_cursors WHERE url = ?', [relay]);
        expect(cursor?.since).toBe(now - 1);
      });
    } finally {
      pool.destroy();
    }
  });
});
