/**
 * Large zlib replies are compressed off the main thread (framing.ts replyOffThread): such a reply
 * must still arrive whole, inflate to the page, be the same bytes as the main thread's deflate, and
 * come before the reply to the request sent right after it on the same socket.
 */
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import { sign } from './people.ts';

describe('large zlib replies', () => {
  let srv: CacheTestServer;

  beforeAll(async () => {
    srv = await startCacheServer('sqlite');
    const { bob } = srv.net;
    const at = srv.ctx.now() - 3000;
    // 60 notes of ~13 KB: the page's JSON is well above the 512 KB threshold.
    const notes = Array.from({ length: 60 }, (_, i) => sign(bob, 1, at + i, `${i}. jegyzet: ${'árvíztűrő tükörfúrógép '.repeat(420)}`));
    const results = await srv.ctx.importer.importEvents(notes);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it('arrive whole and in request order', async () => {
    const c = await srv.connect();
    await c.enableZlib();
    const start = c.frames.length;
    c.send(JSON.stringify(['REQ', 'big', { cache: ['feed', { pubkey: srv.net.bob.pk, notes: 'authored', limit: 60 }] }]));
    c.send(JSON.stringify(['REQ', 'small', { cache: ['user_infos', { pubkeys: [srv.net.alice.pk] }] }]));
    await c.until(() => c.frames.slice(start).some((f) => f.msg[0] === 'EOSE' && f.msg[1] === 'small'), 'EOSE of the second request');
    const frames = c.frames.slice(start).map((f) => [f.msg[0], f.msg[1], f.binary]);
    expect(frames).toEqual([
      ['EVENTS', 'big', true],
      ['EOSE', 'big', false],
      ['EVENTS', 'small', true],
      ['EOSE', 'small', false],
    ]);
    const big = c.frames[start].msg[2] as { kind: number; content: string }[];
    expect(Buffer.byteLength(JSON.stringify(big))).toBeGreaterThan(512 * 1024);
    expect(big.filter((e) => e.kind === 1 && e.content.includes('jegyzet')).length).toBe(60);
    // One thread-pool round trip (a larger output buffer) writes the same zlib stream as the main thread's deflate.
    expect(c.zlibBytes.get(c.frames[start])).toEqual(deflateSync(JSON.stringify(c.frames[start].msg), { level: 3 }));
    expect(c.zlibBytes.get(c.frames[start + 2])).toEqual(deflateSync(JSON.stringify(c.frames[start + 2].msg), { level: 3 }));
  });
});
