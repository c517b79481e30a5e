/**
 * The LNURL fallback for browsers (GET /lnurlp/proxy): an LNURL-pay server without CORS headers is
 * asked by our server instead, through the same outbound guard as link previews. The LNURL server
 * here listens on 127.0.0.1, which the guard allows only with FETCH_PRIVATE_ADDRESSES (as the
 * other outbound tests run); without it the same request is refused in the LUD-06 error form.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, jsonOf, startTestServer } from './services-support.ts';

describe('LNURL proxy', () => {
  let lnurl: Server;
  let base = '';
  const seen: string[] = [];

  beforeAll(async () => {
    // A bare LNURL-pay service: JSON only, no Access-Control-Allow-Origin (a browser could not read it).
    lnurl = createServer((req, res) => {
      seen.push(req.url ?? '');
      const url = new URL(req.url ?? '/', 'http://x');
      let body: unknown;
      if (url.pathname === '/.well-known/lnurlp/kulso') {
        body = { tag: 'payRequest', callback: `${base}/cb`, minSendable: 1000, maxSendable: 5_000_000, commentAllowed: 42, metadata: '[]' };
      } else if (url.pathname === '/cb') body = { pr: `lnbc${Number(url.searchParams.get('amount')) / 100}n1teszt`, routes: [] };
      else if (url.pathname === '/big') body = { junk: 'x'.repeat(100_000) };
      else {
        res.writeHead(404).end('nincs');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => lnurl.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(lnurl.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => lnurl.close(() => resolve()));
  });

  it('refuses loopback and private addresses when private fetches are off', async () => {
    const t = await startTestServer({ FETCH_PRIVATE_ADDRESSES: '0' });
    try {
      const before = seen.length;
      const r = await http('GET', `${t.base}/lnurlp/proxy?url=${encodeURIComponent(`${base}/.well-known/lnurlp/kulso`)}`);
      expect(r.status).toBe(200);
      expect(jsonOf(r)).toEqual({ status: 'ERROR', reason: 'Ez az LNURL-szolgáltatás nem érhető el a szerverről.' });
      const metadata = await http('GET', `${t.base}/lnurlp/proxy?url=${encodeURIComponent('http://169.254.169.254/latest/meta-data')}`);
      expect(jsonOf(metadata)).toMatchObject({ status: 'ERROR' });
      expect(seen.length).toBe(before);
    } finally {
      await t.stop();
    }
  });

  it('fetches the pay endpoint and its callback for the browser, with CORS, when allowed', async () => {
    const t = await startTestServer({ FETCH_PRIVATE_ADDRESSES: '1' });
    try {
      const proxied = (u: string) => http('GET', `${t.base}/lnurlp/proxy?url=${encodeURIComponent(u)}`);
      const meta = await proxied(`${base}/.well-known/lnurlp/kulso`);
      expect(meta.headers['access-control-allow-origin']).toBe('*');
      expect(jsonOf(meta)).toMatchObject({ tag: 'payRequest', callback: `${base}/cb`, commentAllowed: 42 });
      expect(jsonOf(await proxied(`${base}/cb?amount=21000`))).toEqual({ pr: 'lnbc210n1teszt', routes: [] });
      expect(seen).toContain('/cb?amount=21000');
      // Not JSON, too big, not http(s): each an LNURL error, never a crash.
      for (const bad of [`${base}/nincs`, `${base}/big`, 'file:///etc/passwd', 'javascript:alert(1)', '']) {
        expect(jsonOf(await proxied(bad)), bad).toMatchObject({ status: 'ERROR' });
      }
      // The server is still up and answering after the bad URLs.
      expect(jsonOf(await http('GET', `${t.base}/api/status`))).toMatchObject({ cacheConnections: expect.any(Number), events: expect.any(Number) });
    } finally {
      await t.stop();
    }
  });
});
