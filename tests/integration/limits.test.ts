/**
 * No client can exhaust the server: the per-address connection cap, the heartbeat's idle timeout,
 * closing sockets that do not read, the cap on frames in flight, the operator-only firehose and the
 * /relay query bounds, each over real websockets of a real server with low limits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app.ts';
import type { NostrEvent } from '../../server/context.ts';
import { RawClient } from '../support/ws-client.ts';
import { startStrucc } from '../support/strucc-server.ts';
import { until } from '../support/until.ts';

const servers: { server: RunningServer; dir: string }[] = [];
const clients: RawClient[] = [];

async function start(env: Record<string, string>): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'strucc-limits-'));
  const server = await startStrucc(dir, env);
  servers.push({ server, dir });
  return server;
}

async function open(server: RunningServer, path: string, options = {}): Promise<RawClient> {
  const c = await RawClient.open(`ws://127.0.0.1:${server.port}${path}`, options);
  clients.push(c);
  return c;
}

afterAll(async () => {
  for (const c of clients) c.close();
  for (const { server, dir } of servers) {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const author = generateSecretKey();
const now = () => Math.floor(Date.now() / 1000);

/** Notes of about 2 KB each, so a few replies outgrow any socket buffer. */
async function bigNotes(server: RunningServer, n: number): Promise<NostrEvent[]> {
  const events = Array.from({ length: n }, (_, i) =>
    finalizeEvent({ kind: 1, created_at: now() - i, tags: [], content: `${i} ${'x'.repeat(2000)}` }, author) as NostrEvent,
  );
  const results = await server.ctx.importer.importEvents(events);
  expect(results.every((r) => r.ok)).toBe(true);
  return events;
}

describe('connections per remote address', () => {
  it('refuses the websocket over MAX_CONNECTIONS_PER_IP with 429 on every endpoint, and admits again once one closes', async () => {
    const server = await start({ MAX_CONNECTIONS_PER_IP: '3' });
    const held = [await open(server, '/v1'), await open(server, '/relay'), await open(server, '/wallet')];
    await expect(open(server, '/upload')).rejects.toThrow('HTTP 429');
    await expect(open(server, '/v1')).rejects.toThrow('HTTP 429');
    held[0].close();
    await held[0].until(() => held[0].closed, 'closed');
    // The server sees the close a moment later; the next attempt is admitted once it has.
    let admitted: RawClient | null = null;
    const deadline = Date.now() + 5000;
    while (!admitted && Date.now() < deadline) admitted = await open(server, '/upload').catch(() => null);
    expect(admitted).not.toBeNull();
  });
});

describe('heartbeat', () => {
  it.each(['/v1', '/relay', '/wallet', '/upload'])('closes a %s socket that never answers pings, and keeps one that does', async (path) => {
    const server = await start({ WS_HEARTBEAT_MS: '100', WS_IDLE_TIMEOUT_MS: '350' });
    const silent = await open(server, path, { autoPong: false });
    const alive = await open(server, path);
    await silent.until(() => silent.closed, 'silent socket closed by the server');
    // The answering client has seen as many pings as it took to drop the silent one, and is still open.
    await alive.until(() => alive.pings >= 5, 'five pings');
    expect(alive.closed).toBe(false);
  });
});

describe('a client that does not read', () => {
  it.each(['/v1', '/relay'])('is disconnected on %s once its unsent replies pass WS_MAX_BUFFERED_BYTES', async (path) => {
    const server = await start({ WS_MAX_BUFFERED_BYTES: String(64 * 1024) });
    const events = await bigNotes(server, 300);
    const c = await open(server, path);
    // Stop reading: the kernel buffers fill, then the server's own send buffer grows.
    (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const ids = events.map((e) => e.id);
    for (let i = 0; i < 60; i++) {
      if (path === '/v1') c.send(JSON.stringify(['REQ', `r${i}`, { cache: ['events', { event_ids: ids }] }]));
      else c.send(JSON.stringify(['REQ', `r${i}`, { kinds: [1], limit: 300 }]));
    }
    const stats = server.ctx.stats;
    const open_ = () => (path === '/v1' ? stats.cacheConnections : stats.relayConnections);
    await until(() => open_() === 0, 'every connection closed');
    expect(open_()).toBe(0);
  });
});

describe('/v1 frames in flight', () => {
  it('drops frames over WS_MAX_QUEUED_FRAMES with a NOTICE, and every REQ still ends', async () => {
    const server = await start({ WS_MAX_QUEUED_FRAMES: '4' });
    const c = await open(server, '/v1');
    const n = 200;
    for (let i = 0; i < n; i++) c.send(JSON.stringify(['REQ', `q${i}`, { cache: ['get_app_releases', {}] }]));
    await c.until(() => c.frames.filter((f) => f[0] === 'EOSE').length >= n, 'an EOSE for every REQ');
    const busy = c.frames.filter((f) => f[0] === 'NOTICE' && f[2] === 'rate-limited: too many requests in flight');
    expect(busy.length).toBeGreaterThan(0);
    // Still served afterwards.
    c.send(JSON.stringify(['REQ', 'after', { cache: ['get_app_releases', {}] }]));
    await c.until(() => c.of('after').some((f) => f[0] === 'EOSE'), 'answer after the burst');
    expect(c.of('after').some((f) => f[0] === 'NOTICE')).toBe(false);
  });
});

describe('the since/limit live stream on /v1 (firehose)', () => {
  const operator = generateSecretKey();
  const auth = (key: Uint8Array, d = 'strucc-firehose', at = now()) =>
    finalizeEvent({ kind: 30078, created_at: at, tags: [['d', d]], content: '' }, key);

  it('is refused without the operator signature', async () => {
    const server = await start({ OPERATOR_PUBKEY: getPublicKey(operator) });
    const c = await open(server, '/v1');
    const asks = [
      { since: 0 },
      { limit: 5, idsonly: true },
      { since: 0, event_from_user: auth(generateSecretKey()) },
      { since: 0, event_from_user: auth(operator, 'other') },
      { since: 0, event_from_user: auth(operator, 'strucc-firehose', now() - 3600) },
    ];
    asks.forEach((filter, i) => c.send(JSON.stringify(['REQ', `f${i}`, filter])));
    await c.until(() => asks.every((_, i) => c.of(`f${i}`).some((f) => f[0] === 'EOSE')), 'every answer');
    for (let i = 0; i < asks.length; i++) {
      expect(c.of(`f${i}`).map((f) => f[0]), `ask ${i}`).toEqual(['NOTICE', 'EOSE']);
    }
    expect(c.of('f0')[0][2]).toBe('blocked: the live event stream is only for the operator');
  });

  it("streams for the operator's fresh signed request", async () => {
    const server = await start({ OPERATOR_PUBKEY: getPublicKey(operator) });
    await bigNotes(server, 2);
    const c = await open(server, '/v1');
    c.send(JSON.stringify(['REQ', 'op', { since: 0, limit: 5, idsonly: true, event_from_user: auth(operator) }]));
    await c.until(() => c.of('op').some((f) => f[0] === 'EOSE'), 'EOSE');
    expect(c.of('op').some((f) => f[0] === 'NOTICE')).toBe(false);
    const [fresh] = await bigNotes(server, 1);
    await c.until(() => JSON.stringify(c.of('op')).includes(fresh.id), 'live push');
  });
});

describe('/relay query bounds', () => {
  it('caps LIMIT, filters per request and subscriptions, and refuses COUNT over the whole store', async () => {
    const server = await start({ RELAY_MAX_LIMIT: '3', RELAY_MAX_FILTERS: '2', RELAY_MAX_SUBSCRIPTIONS: '2' });
    await bigNotes(server, 10);
    const c = await open(server, '/relay');
    const done = (id: string) => c.of(id).some((f) => f[0] === 'EOSE' || f[0] === 'CLOSED' || f[0] === 'COUNT');
    c.send(JSON.stringify(['REQ', 'big', { kinds: [1], limit: 1000 }]));
    await c.until(() => done('big'), 'big');
    expect(c.of('big').filter((f) => f[0] === 'EVENT')).toHaveLength(3);

    c.send(JSON.stringify(['REQ', 'many', { kinds: [1] }, { kinds: [0] }, { kinds: [7] }]));
    c.send(JSON.stringify(['REQ', 'open', {}]));
    c.send(JSON.stringify(['REQ', 'third', { kinds: [3] }]));
    c.send(JSON.stringify(['COUNT', 'all', {}]));
    c.send(JSON.stringify(['COUNT', 'since', { since: 0 }, { kinds: [1] }]));
    c.send(JSON.stringify(['COUNT', 'notes', { kinds: [1] }]));
    await c.until(() => ['many', 'open', 'third', 'all', 'since', 'notes'].every(done), 'every answer');
    expect(c.of('many')).toEqual([['CLOSED', 'many', 'blocked: at most 2 filters per request']]);
    // An open REQ is bounded by its LIMIT like any other.
    expect(c.of('open').filter((f) => f[0] === 'EVENT')).toHaveLength(3);
    expect(c.of('third')).toEqual([['CLOSED', 'third', 'blocked: at most 2 open subscriptions per connection']]);
    expect(c.of('all')).toEqual([['CLOSED', 'all', 'blocked: COUNT needs ids, authors, kinds or a tag in every filter']]);
    expect(c.of('since')[0][0]).toBe('CLOSED');
    expect(c.of('notes')).toEqual([['COUNT', 'notes', { count: 10 }]]);
  });
});

describe('/relay reads in flight', () => {
  it('answers REQ and COUNT over the cap (subscriptions + WS_MAX_QUEUED_FRAMES) with CLOSED rate-limited', async () => {
    const server = await start({ RELAY_MAX_SUBSCRIPTIONS: '1', WS_MAX_QUEUED_FRAMES: '1' });
    await bigNotes(server, 5);
    const c = await open(server, '/relay');
    const n = 100;
    for (let i = 0; i < n; i++) c.send(JSON.stringify(['COUNT', `c${i}`, { kinds: [1] }]));
    await c.until(() => c.frames.length >= n, 'an answer to every COUNT');
    const limited = c.frames.filter((f) => f[0] === 'CLOSED' && f[2] === 'rate-limited: too many requests in flight');
    expect(limited.length).toBeGreaterThan(0);
    expect(c.frames.filter((f) => f[0] === 'COUNT').length + limited.length).toBe(n);
  });
});
