import { createHash } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChunkedUploads, IDLE_TIMEOUT_MS } from '../../server/upload/chunks.ts';
import { CacheClient } from './cache-client.ts';
import { http, jsonOf, signed, startTestServer, type TestServer } from './services-support.ts';

let t: TestServer;
let png: Buffer;
let pngSha: string;
const alice = generateSecretKey();
const bob = generateSecretKey();
const clients: CacheClient[] = [];

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function auth(sk: Uint8Array, action: string, opts: { x?: string; expiration?: number; createdAt?: number; kind?: number } = {}): string {
  const now = t.clock.now;
  const tags = [
    ['t', action],
    ['expiration', String(opts.expiration ?? now + 600)],
  ];
  if (opts.x) tags.push(['x', opts.x]);
  const ev = signed(sk, opts.kind ?? 24242, 'Feltöltés', tags, opts.createdAt ?? now - 1);
  return `Nostr ${Buffer.from(JSON.stringify(ev)).toString('base64')}`;
}

const put = (body: Buffer | string, headers: Record<string, string | number>) => http('PUT', `${t.base}/upload`, { body, headers });

interface Descriptor {
  url: string;
  sha256: string;
  size: number;
  type: string;
  uploaded: number;
}

beforeAll(async () => {
  t = await startTestServer();
  png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#c33' } }).png({ compressionLevel: 0 }).toBuffer();
  pngSha = sha(png);
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await t?.stop();
});

describe('Blossom', () => {
  it('stores an upload by sha256 and serves it with GET, HEAD and ranges', async () => {
    const res = await put(png, { Authorization: auth(alice, 'upload', { x: pngSha }), 'Content-Type': 'image/png' });
    expect(res.status).toBe(200);
    const d = jsonOf<Descriptor>(res);
    expect(d).toMatchObject({ sha256: pngSha, size: png.length, type: 'image/png', uploaded: t.clock.now });
    expect(d.url).toBe(`${t.base}/${pngSha}.png`);
    for (const path of [`/${pngSha}`, `/${pngSha}.png`]) {
      const got = await http('GET', `${t.base}${path}`);
      expect(got.status).toBe(200);
      expect(got.headers['content-type']).toBe('image/png');
      expect(got.body.equals(png)).toBe(true);
    }
    const head = await http('HEAD', `${t.base}/${pngSha}`);
    expect([head.status, head.headers['content-length'], head.body.length]).toEqual([200, String(png.length), 0]);
    const part = await http('GET', `${t.base}/${pngSha}`, { headers: { Range: 'bytes=0-7' } });
    expect(part.status).toBe(206);
    expect(part.body.equals(png.subarray(0, 8))).toBe(true);
    expect((await http('GET', `${t.base}/${'0'.repeat(64)}`)).status).toBe(404);
  });

  it('refuses forged, expired, future, wrong-kind, wrong-action and missing authorisation', async () => {
    const good = auth(alice, 'upload');
    const ev = JSON.parse(Buffer.from(good.slice(6), 'base64').toString()) as { content: string };
    ev.content = 'meghamisítva';
    const forged = `Nostr ${Buffer.from(JSON.stringify(ev)).toString('base64')}`;
    // Each refusal names its own reason in X-Reason (ASCII, BUD-01), and the person reads Hungarian.
    const cases: [string, string][] = [
      [forged, 'auth event has a bad signature'],
      [auth(alice, 'upload', { expiration: t.clock.now - 1 }), 'auth event is expired or has no expiration'],
      [auth(alice, 'upload', { createdAt: t.clock.now + 120 }), 'auth event created_at is in the future'],
      [auth(alice, 'upload', { kind: 1 }), 'auth event must be kind 24242'],
      [auth(alice, 'delete'), 'auth event is not for upload'],
      ['Nostr nem-base64!!', 'Authorization must be "Nostr <base64 event>"'],
      ['Bearer abc', 'Authorization must be "Nostr <base64 event>"'],
    ];
    for (const [a, reason] of cases) {
      const res = await put(png, { Authorization: a });
      expect(res.status, a).toBe(401);
      expect(res.headers['x-reason'], a).toBe(reason);
      expect(jsonOf<{ error: string }>(res).error).toBe('Érvénytelen vagy hiányzó feltöltési engedély.');
    }
    expect((await put(png, {})).status).toBe(401);
    const mismatch = await put(png, { Authorization: auth(alice, 'upload', { x: 'ab'.repeat(32) }) });
    expect(mismatch.status).toBe(403);
  });

  it('accepts only images and videos, recognised by their content', async () => {
    const text = await put('Ez csak szöveg, nem kép, és elég hosszú.', { Authorization: auth(alice, 'upload') });
    expect(text.status).toBe(415);
    expect(jsonOf<{ error: string }>(text).error).toContain('Nem támogatott fájltípus');
    const declared = await put(png, { Authorization: auth(alice, 'upload'), 'Content-Type': 'text/plain' });
    expect(declared.status).toBe(415);
    const svg = await put('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', { Authorization: auth(alice, 'upload') });
    expect(svg.status).toBe(415);
  });

  it('refuses files over the 100 MB limit before reading them', async () => {
    const res = await http('PUT', `${t.base}/upload`, {
      headers: { Authorization: auth(alice, 'upload'), 'Content-Type': 'video/mp4', 'Content-Length': 100 * 1024 * 1024 + 1 },
      skipBody: true,
    });
    expect(res.status).toBe(413);
    expect(jsonOf<{ error: string }>(res).error).toContain('100 MB');
    const preflight = await http('HEAD', `${t.base}/upload`, { headers: { 'X-Content-Type': 'application/pdf', 'X-Content-Length': '10' } });
    expect(preflight.status).toBe(415);
  });

  it('lists uploads per pubkey and lets only the uploader delete', async () => {
    const list = jsonOf<Descriptor[]>(await http('GET', `${t.base}/list/${getPublicKey(alice)}`));
    expect(list.map((d) => d.sha256)).toEqual([pngSha]);
    expect(jsonOf<Descriptor[]>(await http('GET', `${t.base}/list/${getPublicKey(bob)}`))).toEqual([]);
    const byBob = await http('DELETE', `${t.base}/${pngSha}`, { headers: { Authorization: auth(bob, 'delete', { x: pngSha }) } });
    expect(byBob.status).toBe(403);
    const noX = await http('DELETE', `${t.base}/${pngSha}`, { headers: { Authorization: auth(alice, 'delete') } });
    expect(noX.status).toBe(403);
    const ok = await http('DELETE', `${t.base}/${pngSha}`, { headers: { Authorization: auth(alice, 'delete', { x: pngSha }) } });
    expect(ok.status).toBe(200);
    expect((await http('GET', `${t.base}/${pngSha}`)).status).toBe(404);
    expect((await http('OPTIONS', `${t.base}/upload`)).headers['access-control-allow-methods']).toContain('PUT');
  });
});

describe('upload socket', () => {
  const chunkEvent = (sk: Uint8Array, content: Record<string, unknown>) =>
    signed(sk, 10000135, JSON.stringify(content), [['p', getPublicKey(sk)]], t.clock.now - 1);
  const dataUrl = (b: Buffer, mime = 'image/png') => `data:${mime};base64,${b.toString('base64')}`;
  let n = 0;

  async function connect(): Promise<CacheClient> {
    const c = await CacheClient.connect(`${t.base.replace('http', 'ws')}/upload`);
    clients.push(c);
    return c;
  }
  const send = (c: CacheClient, command: string, ev: unknown) => c.req(`u${++n}`, command, { event_from_user: ev });

  it('assembles chunks (in any order), checks the sha256 and answers Uploaded with the blob URL', async () => {
    const c = await connect();
    const id = 'feltoltes-1';
    const parts = [png.subarray(0, 1000), png.subarray(1000, 5000), png.subarray(5000)];
    const offsets = [0, 1000, 5000];
    for (const i of [1, 0, 2]) {
      const r = await send(c, 'upload_chunk', chunkEvent(alice, { upload_id: id, file_length: png.length, offset: offsets[i], data: dataUrl(parts[i]) }));
      expect(r.notices).toEqual([]);
    }
    const overlap = await send(c, 'upload_chunk', chunkEvent(alice, { upload_id: id, file_length: png.length, offset: 500, data: dataUrl(parts[0]) }));
    expect(overlap.notices[0]).toContain('overlaps');
    const done = await send(c, 'upload_complete', chunkEvent(alice, { upload_id: id, file_length: png.length, sha256: pngSha }));
    expect(done.notices).toEqual([]);
    expect(done.events).toEqual([{ kind: 10000121, content: expect.stringMatching(new RegExp(`/${pngSha}\\.png$`)) }]);
    const got = await http('GET', `${t.base}/${pngSha}.png`);
    expect(got.body.equals(png)).toBe(true);
  });

  it('rejects a wrong sha256, chunks past file_length, unsupported types and forged events', async () => {
    const c = await connect();
    const past = await send(c, 'upload_chunk', chunkEvent(alice, { upload_id: 'x1', file_length: 10, offset: 5, data: dataUrl(png.subarray(0, 6)) }));
    expect(past.notices[0]).toContain('past file_length');
    const text = await send(c, 'upload_chunk', chunkEvent(alice, { upload_id: 'x2', file_length: 20, offset: 0, data: dataUrl(Buffer.from('szöveg szöveg 12'), 'text/plain') }));
    expect(text.notices[0]).toContain('Nem támogatott fájltípus');
    const disguised = await send(c, 'upload_chunk', chunkEvent(alice, { upload_id: 'x3', file_length: 100, offset: 0, data: dataUrl(Buffer.from('ez nem kép, csak annak mondja magát')) }));
    expect(disguised.notices[0]).toContain('Nem támogatott fájltípus');

    await send(c, 'upload_chunk', chunkEvent(alice, { upload_id: 'x4', file_length: png.length, offset: 0, data: dataUrl(png) }));
    const wrong = await send(c, 'upload_complete', chunkEvent(alice, { upload_id: 'x4', file_length: png.length, sha256: 'ab'.repeat(32) }));
    expect(wrong.notices[0]).toContain('sha256 mismatch');
    expect(wrong.events).toEqual([]);

    const forged = { ...chunkEvent(alice, { upload_id: 'x5', file_length: png.length, offset: 0, data: dataUrl(png) }), content: '{"upload_id":"x5"}' };
    expect((await send(c, 'upload_chunk', forged)).notices[0]).toContain('bad signature');
    const wrongKind = signed(alice, 1, JSON.stringify({ upload_id: 'x6' }), [], t.clock.now);
    expect((await send(c, 'upload_chunk', wrongKind)).notices[0]).toContain('wrong kind');
    expect((await c.req('bad', 'upload_chunk', {})).notices[0]).toContain('missing event_from_user');
    expect((await c.req('other', 'user_profile', {})).notices[0]).toBe('unknown api request');
  });

  it('cancels an upload and refuses completing an incomplete one', async () => {
    const c = await connect();
    await send(c, 'upload_chunk', chunkEvent(bob, { upload_id: 'megszakitva', file_length: png.length, offset: 0, data: dataUrl(png.subarray(0, 100)) }));
    const early = await send(c, 'upload_complete', chunkEvent(bob, { upload_id: 'megszakitva', file_length: png.length, sha256: pngSha }));
    expect(early.notices[0]).toContain('incomplete');
    const cancel = await send(c, 'upload_chunk', chunkEvent(bob, { upload_id: 'megszakitva' }));
    expect(cancel.notices).toEqual([]);
    const after = await send(c, 'upload_complete', chunkEvent(bob, { upload_id: 'megszakitva', file_length: png.length, sha256: pngSha }));
    expect(after.notices[0]).toContain('unknown upload_id');
  });
});

/**
 * How long the cleanup after an idle upload may take to show: vi.waitUntil's default of 1 s ran out once
 * in a full CI run on a loaded 2-core machine (the file's close and unlink queue behind other tests' I/O).
 * A deadline for something that must happen, not a speed check.
 */
const EVENTUALLY = { timeout: 10_000, interval: 20 };

describe('abandoned uploads', () => {
  it('removes the temp file of an upload that stops sending chunks, and of every upload at shutdown', async () => {
    const uploads = new ChunkedUploads(t.server.ctx);
    const tmpDir = join(t.dataDir, 'blobs', 'tmp');
    const start = (id: string) =>
      uploads.chunk(getPublicKey(alice), { upload_id: id, file_length: png.length, offset: 0, data: `data:image/png;base64,${png.subarray(0, 64).toString('base64')}` });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await start('elhagyott');
      expect(uploads.size).toBe(1);
      vi.advanceTimersByTime(IDLE_TIMEOUT_MS + 1);
    } finally {
      vi.useRealTimers();
    }
    // The map forgets the upload first, then its temp file is closed and removed.
    await vi.waitUntil(async () => uploads.size === 0 && (await readdir(tmpDir)).length === 0, EVENTUALLY);
    await start('leallitaskor');
    expect((await readdir(tmpDir)).length).toBe(1);
    await uploads.closeAll();
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('logs a temp file it cannot remove instead of leaving an unhandled rejection', async () => {
    const uploads = new ChunkedUploads(t.server.ctx);
    const tmpDir = join(t.dataDir, 'blobs', 'tmp');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await uploads.chunk(getPublicKey(alice), { upload_id: 'nem-torolheto', file_length: png.length, offset: 0, data: `data:image/png;base64,${png.subarray(0, 64).toString('base64')}` });
      // A directory with something in it where the temp file was: removing it fails.
      const [part] = await readdir(tmpDir);
      await rm(join(tmpDir, part));
      await mkdir(join(tmpDir, part, 'benne'), { recursive: true });
      vi.advanceTimersByTime(IDLE_TIMEOUT_MS + 1);
    } finally {
      vi.useRealTimers();
    }
    try {
      await vi.waitUntil(() => logged.mock.calls.some((c) => String(c[0]).includes('Félbehagyott feltöltés')), EVENTUALLY);
      expect(uploads.size).toBe(0);
    } finally {
      logged.mockRestore();
      await rm(tmpDir, { recursive: true, force: true });
    }
  });
});
