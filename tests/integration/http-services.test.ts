import { createHash } from 'node:crypto';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZAPPER_PUBKEY } from '../../server/demo/accounts.ts';
import { startTempPostgres } from '../support/postgres.ts';
import { http, jsonOf, signed, startOrigin, startTestServer, type TestServer } from './services-support.ts';

let t: TestServer;
const anna = generateSecretKey();

beforeAll(async () => {
  t = await startTestServer();
  const profile = signed(anna, 0, JSON.stringify({ name: 'anna', lud16: 'anna@strucc.test', nip05: 'anna@strucc.test' }), [], t.clock.now - 60);
  const note = signed(anna, 1, 'Szia, világ!', [], t.clock.now - 30);
  expect((await t.server.ctx.importer.importEvents([profile, note])).every((r) => r.ok)).toBe(true);
});

afterAll(async () => {
  await t?.stop();
});

const api = (body: string) => http('POST', `${t.base}/api`, { body, headers: { 'Content-Type': 'application/json' } });

describe('POST /api', () => {
  it('runs cache commands through the registry and answers a JSON array', async () => {
    const res = await api(JSON.stringify(['user_profile', { pubkey: getPublicKey(anna) }]));
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const objects = jsonOf<{ kind: number; pubkey?: string }[]>(res);
    expect(objects.some((o) => o.kind === 0 && o.pubkey === getPublicKey(anna))).toBe(true);
    expect(objects.some((o) => o.kind === 10000105)).toBe(true);
    const relays = jsonOf<{ kind: number }[]>(await api('["get_default_relays"]'));
    expect(relays.map((o) => o.kind)).toEqual([10000124]);
    // A long-lived command answers once with what it would push first.
    const stats = jsonOf<{ kind: number }[]>(await api('["net_stats", {}]'));
    expect(stats.map((o) => o.kind)).toEqual([10000101]);
  });

  it('answers {error} for bad bodies and bad arguments', async () => {
    const cases: [string, number, RegExp][] = [
      ['nem json', 400, /invalid JSON/],
      ['{"cache": "x"}', 400, /expected \["command"/],
      ['[]', 400, /expected \["command"/],
      ['["user_profile", [1]]', 400, /kwargs must be an object/],
      ['["nincs_ilyen", {}]', 400, /unknown api request/],
      ['["user_profile", {"pubkey": "xyz"}]', 400, /invalid pubkey/],
      ['["user_profile", {}]', 400, /missing pubkey/],
    ];
    for (const [body, status, error] of cases) {
      const res = await api(body);
      expect(res.status, body).toBe(status);
      expect(jsonOf<{ error: string }>(res).error).toMatch(error);
    }
    const huge = await api(JSON.stringify(['search', { query: 'x'.repeat(600 * 1024) }]));
    expect(huge.status).toBe(413);
    expect(jsonOf<{ error: string }>(huge).error).toBe('request too big');
  });

  it('answers OPTIONS with 200 and CORS headers', async () => {
    const res = await http('OPTIONS', `${t.base}/api`);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect((await http('GET', `${t.base}/api`)).status).toBe(404);
  });
});

describe('LNURL-pay', () => {
  it('describes lightning addresses on the NIP-05 domain with the demo zapper as nostrPubkey', async () => {
    const res = await http('GET', `${t.base}/.well-known/lnurlp/anna`);
    expect(res.status).toBe(200);
    const body = jsonOf<Record<string, unknown>>(res);
    expect(body).toMatchObject({ tag: 'payRequest', allowsNostr: true, nostrPubkey: ZAPPER_PUBKEY, minSendable: 1000 });
    expect(JSON.parse(String(body.metadata))).toContainEqual(['text/identifier', 'anna@strucc.test']);
    const callback = String(body.callback);
    expect(callback.startsWith(t.base)).toBe(true);
    const pay = jsonOf<{ status: string; reason: string }>(await http('GET', `${callback}?amount=21000&nostr=%7B%7D`));
    expect(pay.status).toBe('ERROR');
    expect(pay.reason).toContain('demó hálózaton');
  });

  it('answers 404 for unknown or malformed names', async () => {
    for (const name of ['senki', 'Rossz%20Nev', '%E0%A4%A']) {
      const res = await http('GET', `${t.base}/.well-known/lnurlp/${name}`);
      expect(res.status).toBe(404);
      expect(jsonOf<{ status: string }>(res).status).toBe('ERROR');
    }
  });
});

describe('the same services on PostgreSQL', () => {
  it('indexes media and links, caches previews and keeps Blossom rows with portable SQL', async () => {
    const pg = await startTempPostgres();
    const origin = await startOrigin({
      '/cikk': (_q, r) => {
        r.writeHead(200, { 'Content-Type': 'text/html' });
        r.end('<title>Cikk címe</title><meta property="og:image" content="/borito.gif">');
      },
      '/borito.gif': (_q, r) => {
        r.writeHead(200, { 'Content-Type': 'image/gif' });
        r.end(Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(40)]));
      },
    });
    const s = await startTestServer({ DATABASE_URL: pg.url });
    try {
      const sk = generateSecretKey();
      const note = signed(sk, 1, `Kép: https://media.strucc.test/img/2.svg és ${origin.base}/cikk`, [], s.clock.now - 5);
      expect((await s.server.ctx.importer.importEvents([note])).every((r) => r.ok)).toBe(true);
      expect(jsonOf<{ title: string }>(await http('GET', `${s.base}/link-preview?u=${encodeURIComponent(`${origin.base}/cikk`)}`)).title).toBe('Cikk címe');
      // A preview's image is fetched by the media cache like an event's media (the preview_image lookup).
      const cover = await http('GET', `${s.base}/media-cache?s=o&u=${encodeURIComponent(`${origin.base}/borito.gif`)}`);
      expect([cover.status, cover.headers['content-type']]).toEqual([200, 'image/gif']);
      const res = await http('POST', `${s.base}/api`, { body: JSON.stringify(['events', { event_ids: [note.id], extended_response: true }]) });
      const kinds = jsonOf<{ kind: number }[]>(res).map((o) => o.kind);
      expect(kinds).toContain(10000119);
      expect(kinds).toContain(10000128);
      const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(40)]);
      const x = createHash('sha256').update(gif).digest('hex');
      const authFor = (action: string) =>
        `Nostr ${Buffer.from(JSON.stringify(signed(sk, 24242, '', [['t', action], ['expiration', String(s.clock.now + 60)], ['x', x]], s.clock.now))).toString('base64')}`;
      expect((await http('PUT', `${s.base}/upload`, { body: gif, headers: { Authorization: authFor('upload') } })).status).toBe(200);
      expect(jsonOf<{ sha256: string }[]>(await http('GET', `${s.base}/list/${getPublicKey(sk)}`)).map((d) => d.sha256)).toEqual([x]);
      expect((await http('DELETE', `${s.base}/${x}`, { headers: { Authorization: authFor('delete') } })).status).toBe(200);
    } finally {
      await s.stop();
      await origin.close();
      pg.stop();
    }
  });
});
