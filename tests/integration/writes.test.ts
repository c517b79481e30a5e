/**
 * broadcast_events, broadcast_reply and import_events over a real cache socket, publishing to
 * two real relays (the /relay endpoint of two more server instances), a closed port and a
 * socket that never answers; and the on-demand fetch from an upstream relay.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSecretKey, getPublicKey, type EventTemplate } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { startServer, type RunningServer } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { CacheClient, content, ofKind } from './cache-client.ts';
import { until } from '../support/until.ts';
import { signEvent } from '../support/sign.ts';

const TIMEOUT_MS = 600;
const dirs: string[] = [];
const servers: RunningServer[] = [];
const clients: CacheClient[] = [];

async function server(env: Record<string, string> = {}, timeoutMs?: number): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'strucc-writes-'));
  dirs.push(dir);
  const config = readConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dir, DEMO: '0', DIST_DIR: join(dir, 'no-dist'), ...env });
  const s = await startServer({ ...config, broadcastTimeoutMs: timeoutMs });
  servers.push(s);
  return s;
}

const relayUrl = (s: RunningServer) => `ws://127.0.0.1:${s.port}/relay`;

async function connect(s: RunningServer): Promise<CacheClient> {
  const c = await CacheClient.connect(`ws://127.0.0.1:${s.port}/v1`);
  clients.push(c);
  return c;
}

const alice = generateSecretKey();
const bob = generateSecretKey();
const now = () => Math.floor(Date.now() / 1000);
const sign = (key: Uint8Array, t: Partial<EventTemplate> & { kind: number }) => signEvent(key, { created_at: now(), ...t });

async function stored(s: RunningServer, id: string): Promise<boolean> {
  return (await s.ctx.db.get('SELECT 1 AS x FROM events WHERE id = ?', [id])) !== undefined;
}

let cache: RunningServer;
/** A server as deployed: FETCH_PRIVATE_ADDRESSES unset. */
let guarded: RunningServer;
let relayA: RunningServer;
let relayB: RunningServer;
let closedPort: number;
let silent: WebSocketServer;
let silentPort: number;

beforeAll(async () => {
  [cache, guarded, relayA, relayB] = await Promise.all([server({ FETCH_PRIVATE_ADDRESSES: '1' }, TIMEOUT_MS), server({}, TIMEOUT_MS), server(), server()]);
  // A port that refuses connections: bound once, then released.
  const probe: Server = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  closedPort = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  // A relay that accepts the socket and then never answers.
  silent = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => silent.once('listening', () => r()));
  silentPort = (silent.address() as { port: number }).port;
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  for (const ws of silent?.clients ?? []) ws.terminate();
  await new Promise<void>((r) => (silent ? silent.close(() => r()) : r()));
  for (const s of servers) await s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('broadcast_events', () => {
  it('publishes to each relay, imports locally and reports every relay answer', async () => {
    const note = sign(alice, { kind: 1, content: 'szétküldve' });
    const forged = { ...sign(alice, { kind: 1, content: 'eredeti' }), content: 'hamis' };
    const relays = [relayUrl(relayA), relayUrl(relayB), `ws://127.0.0.1:${closedPort}/`, `ws://127.0.0.1:${silentPort}/`, 'https://example.org/'];
    const c = await connect(cache);
    const reply = await c.req('b1', 'broadcast_events', { events: [note, forged], relays });
    expect(reply.notices).toEqual([]);
    const out = ofKind(reply.events, 10000149);
    expect(out).toHaveLength(1);
    const list = content<{ event_id: string; responses: [string, boolean, string][] }[]>(out[0]);
    expect(list.map((b) => b.event_id)).toEqual([note.id, forged.id]);

    const [a, b, closed, slow, https] = list[0].responses;
    expect(a).toEqual([relays[0], true, '']);
    expect(b).toEqual([relays[1], true, '']);
    expect(closed[0]).toBe(relays[2]);
    expect(closed[1]).toBe(false);
    expect(closed[2]).toMatch(/^error: .*ECONNREFUSED/);
    expect(slow).toEqual([relays[3], false, 'error: no answer within 1 s']);
    expect(https).toEqual([relays[4], false, 'invalid: only ws:// and wss:// relays are accepted']);
    // The forged event goes nowhere, and says why for every relay.
    expect(list[1].responses.map((r) => r[1])).toEqual([false, false, false, false, false]);
    expect(list[1].responses[0][2]).toBe('invalid: event id does not match its content');

    expect(await stored(relayA, note.id)).toBe(true);
    expect(await stored(relayB, note.id)).toBe(true);
    expect(await stored(cache, note.id)).toBe(true);
    expect(await stored(relayA, forged.id)).toBe(false);
  });

  it('never connects to loopback, private or metadata addresses without FETCH_PRIVATE_ADDRESSES', async () => {
    const note = sign(alice, { kind: 1, content: 'nem mehet befelé' });
    const port = relayA.port;
    const relays = [
      relayUrl(relayA),
      `ws://localhost:${port}/relay`,
      `ws://[::1]:${port}/relay`,
      `ws://[::ffff:127.0.0.1]:${port}/relay`,
      `ws://0.0.0.0:${port}/relay`,
      'ws://169.254.169.254/latest',
      'ws://10.0.0.1/',
    ];
    const c = await connect(guarded);
    const reply = await c.req('bp', 'broadcast_events', { events: [note], relays });
    expect(reply.notices).toEqual([]);
    const list = content<{ event_id: string; responses: [string, boolean, string][] }[]>(ofKind(reply.events, 10000149)[0]);
    expect(list[0].responses).toEqual(relays.map((r) => [r, false, 'blocked: private address']));
    expect(await stored(relayA, note.id)).toBe(false);
  });

  it('refuses malformed arguments with a NOTICE', async () => {
    const c = await connect(cache);
    expect((await c.req('b2', 'broadcast_events', { events: [], relays: 'wss://x' })).notices).toEqual([
      'invalid relays: expected an array of relay URLs',
    ]);
    expect((await c.req('b3', 'broadcast_events', { events: {}, relays: [] })).notices).toEqual(['invalid events: expected an array']);
  });
});

describe('broadcast_reply', () => {
  it("sends a reply to the tagged person's read relays", async () => {
    const bobPk = getPublicKey(bob);
    const relays = sign(bob, { kind: 10002, tags: [['r', relayUrl(relayA), 'read'], ['r', relayUrl(relayB), 'write']] });
    const c = await connect(cache);
    expect(content(ofKind((await c.req('r0', 'import_events', { events: [relays] })).events, 10000127)[0])).toEqual({ imported: 1, errors: 0 });
    const reply = sign(alice, { kind: 1, content: 'válasz', tags: [['p', bobPk]] });
    const out = await c.req('r1', 'broadcast_reply', { event: reply });
    const list = content<{ event_id: string; responses: [string, boolean, string][] }[]>(ofKind(out.events, 10000149)[0]);
    expect(list).toEqual([{ event_id: reply.id, responses: [[relayUrl(relayA), true, '']] }]);
    expect(await stored(relayA, reply.id)).toBe(true);
    expect(await stored(relayB, reply.id)).toBe(false);
  });
});

describe('import_events', () => {
  it('answers {imported, errors} as 10000127', async () => {
    const c = await connect(cache);
    const good = sign(alice, { kind: 1, content: 'importálva' });
    const bad = { ...good, id: good.id.replace(/^./, (ch) => (ch === '0' ? '1' : '0')) };
    const out = await c.req('i1', 'import_events', { events: [good, bad] });
    expect(ofKind(out.events, 10000127)).toEqual([{ kind: 10000127, content: JSON.stringify({ imported: 1, errors: 1 }) }]);
  });
});

describe('on-demand fetch (S §5.1)', () => {
  it('asks the upstream relay for missing profiles and for events named in e tags', async () => {
    // Older than the firehose's first-connect look-back (24 h), so only an on-demand fetch can bring them.
    const old = now() - 10 * 86_400;
    const carol = generateSecretKey();
    const profile = sign(carol, { kind: 0, created_at: old, content: JSON.stringify({ name: 'Karola' }) });
    const contacts = sign(carol, { kind: 3, created_at: old, tags: [['p', getPublicKey(alice)]] });
    const parent = sign(alice, { kind: 1, created_at: old, content: 'régi jegyzet' });
    const upstream = await server();
    const seeded = await upstream.ctx.importer.importEvents([profile, contacts, parent]);
    expect(seeded.every((r) => r.ok)).toBe(true);

    const follower = await server({ UPSTREAM_RELAYS: relayUrl(upstream) });
    const reply = sign(carol, { kind: 1, content: 'friss válasz', tags: [['e', parent.id, '', 'reply']] });
    const c = await connect(upstream);
    await c.req('f1', 'import_events', { events: [reply] });

    await until(() => stored(follower, reply.id), 'the reply through the firehose');
    await until(async () => (await stored(follower, profile.id)) && (await stored(follower, contacts.id)), 'the profile and contacts on demand');
    await until(() => stored(follower, parent.id), 'the replied-to note on demand');
  });
});
