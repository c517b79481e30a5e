import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSecretKey, getPublicKey, type Event, type EventTemplate } from 'nostr-tools/pure';
import { SimplePool, useWebSocketImplementation } from 'nostr-tools/pool';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../server/app.ts';
import { startStrucc } from '../support/strucc-server.ts';
import { signEvent } from '../support/sign.ts';

useWebSocketImplementation(WebSocket);

let dir: string;
let server: RunningServer;
let relayUrl: string;
let pool: SimplePool;
const now = Math.floor(Date.now() / 1000);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strucc-relay-'));
  server = await startStrucc(dir);
  relayUrl = server.url.replace(/^http/, 'ws') + '/relay';
  pool = new SimplePool();
});

afterAll(async () => {
  pool?.destroy();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const alice = generateSecretKey();
const bob = generateSecretKey();

const sign = (key: Uint8Array, t: Partial<EventTemplate> & { kind: number }): Event => signEvent(key, { created_at: now - 100, ...t });

/** A raw socket for frames SimplePool would never send. */
async function rawSocket(): Promise<{ ws: WebSocket; next(pred?: (m: unknown[]) => boolean): Promise<unknown[]> }> {
  const ws = new WebSocket(relayUrl);
  const inbox: unknown[][] = [];
  const waiters: { pred: (m: unknown[]) => boolean; resolve: (m: unknown[]) => void }[] = [];
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString()) as unknown[];
    // The NIP-42 greeting every connection gets first (tests/integration/relay-auth.test.ts covers it).
    if (msg[0] === 'AUTH') return;
    const i = waiters.findIndex((w) => w.pred(msg));
    if (i >= 0) waiters.splice(i, 1)[0].resolve(msg);
    else inbox.push(msg);
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return {
    ws,
    next(pred = () => true) {
      const i = inbox.findIndex(pred);
      if (i >= 0) return Promise.resolve(inbox.splice(i, 1)[0]);
      return new Promise((resolve) => waiters.push({ pred, resolve }));
    },
  };
}

describe('NIP-01 relay', () => {
  const notes: Event[] = [];

  it('accepts published events and answers filtered queries newest first', async () => {
    notes.push(sign(alice, { kind: 1, created_at: now - 300, content: 'első', tags: [['t', 'strucc']] }));
    notes.push(sign(alice, { kind: 1, created_at: now - 200, content: 'második' }));
    notes.push(sign(bob, { kind: 1, created_at: now - 100, content: 'válasz', tags: [['e', notes[0].id, '', 'root'], ['p', getPublicKey(alice)]] }));
    for (const n of notes) await Promise.all(pool.publish([relayUrl], n));

    const byAuthor = await pool.querySync([relayUrl], { authors: [getPublicKey(alice)], kinds: [1] });
    expect(byAuthor.map((e) => e.id).sort()).toEqual([notes[0].id, notes[1].id].sort());

    const byTag = await pool.querySync([relayUrl], { '#e': [notes[0].id] });
    expect(byTag.map((e) => e.id)).toEqual([notes[2].id]);
    expect((await pool.querySync([relayUrl], { '#t': ['strucc'] })).map((e) => e.id)).toEqual([notes[0].id]);

    const window = await pool.querySync([relayUrl], { kinds: [1], since: now - 250, until: now - 150 });
    expect(window.map((e) => e.id)).toEqual([notes[1].id]);

    const raw = await rawSocket();
    raw.ws.send(JSON.stringify(['REQ', 'lim', { kinds: [1], limit: 2 }]));
    const first = await raw.next((m) => m[0] === 'EVENT' && m[1] === 'lim');
    const second = await raw.next((m) => m[0] === 'EVENT' && m[1] === 'lim');
    await raw.next((m) => m[0] === 'EOSE' && m[1] === 'lim');
    expect([(first[2] as Event).id, (second[2] as Event).id]).toEqual([notes[2].id, notes[1].id]);
    raw.ws.close();
  });

  it('returns only the current version of replaceable events', async () => {
    const v1 = sign(alice, { kind: 0, created_at: now - 50, content: '{"name":"régi"}' });
    const v2 = sign(alice, { kind: 0, created_at: now - 40, content: '{"name":"új"}' });
    await Promise.all(pool.publish([relayUrl], v2));
    await Promise.all(pool.publish([relayUrl], v1));
    const found = await pool.querySync([relayUrl], { kinds: [0], authors: [getPublicKey(alice)] });
    expect(found.map((e) => e.id)).toEqual([v2.id]);
  });

  it('delivers newly stored events to open subscriptions', async () => {
    const received = new Promise<Event>((resolve) => {
      const sub = pool.subscribeMany([relayUrl], { kinds: [1], authors: [getPublicKey(bob)], since: now - 10 }, {
        onevent(e) {
          sub.close();
          resolve(e);
        },
      });
    });
    // Wait for EOSE through a query on the same relay, so the live subscription is registered first.
    await pool.querySync([relayUrl], { ids: [notes[0].id] });
    const live = sign(bob, { kind: 1, created_at: now, content: 'élőben' });
    await Promise.all(pool.publish([relayUrl], live));
    expect((await received).id).toBe(live.id);
  });

  it('relays ephemeral events live without storing them, and applies deletions', async () => {
    const raw = await rawSocket();
    raw.ws.send(JSON.stringify(['REQ', 'nwc', { kinds: [23194], '#p': [getPublicKey(bob)] }]));
    await raw.next((m) => m[0] === 'EOSE');
    const request = sign(alice, { kind: 23194, created_at: now, tags: [['p', getPublicKey(bob)]], content: 'titkos' });
    await Promise.all(pool.publish([relayUrl], request));
    expect(await raw.next((m) => m[0] === 'EVENT')).toEqual(['EVENT', 'nwc', request]);
    expect(await pool.querySync([relayUrl], { kinds: [23194] })).toEqual([]);
    raw.ws.close();

    const doomed = sign(alice, { kind: 1, content: 'ezt törlöm' });
    await Promise.all(pool.publish([relayUrl], doomed));
    await Promise.all(pool.publish([relayUrl], sign(alice, { kind: 5, created_at: now, tags: [['e', doomed.id]] })));
    expect(await pool.querySync([relayUrl], { ids: [doomed.id] })).toEqual([]);
    await expect(Promise.all(pool.publish([relayUrl], doomed))).rejects.toThrow(/deleted/);
  });

  it('answers OK false for a bad id or signature', async () => {
    const raw = await rawSocket();
    const good = sign(alice, { kind: 1, content: 'hamisított' });
    const badSig = { ...good, sig: good.sig.replace(/^./, good.sig[0] === 'a' ? 'b' : 'a') };
    raw.ws.send(JSON.stringify(['EVENT', badSig]));
    expect(await raw.next((m) => m[0] === 'OK')).toEqual(['OK', good.id, false, expect.stringMatching(/^invalid:/)]);
    const fresh = sign(alice, { kind: 1, content: 'eredeti' });
    const badId = { ...fresh, content: 'módosított' };
    raw.ws.send(JSON.stringify(['EVENT', badId]));
    expect(await raw.next((m) => m[0] === 'OK')).toEqual(['OK', fresh.id, false, expect.stringMatching(/^invalid:/)]);
    raw.ws.send(JSON.stringify(['EVENT', good]));
    expect(await raw.next((m) => m[0] === 'OK')).toEqual(['OK', good.id, true, '']);
    raw.ws.send(JSON.stringify(['EVENT', good]));
    expect(await raw.next((m) => m[0] === 'OK')).toEqual(['OK', good.id, true, expect.stringMatching(/^duplicate:/)]);
    raw.ws.close();
  });

  it('answers malformed frames with NOTICE or CLOSED and keeps the connection working', async () => {
    const raw = await rawSocket();
    const bad: [string | Buffer, string][] = [
      ['{not json', 'NOTICE'],
      ['{"an":"object"}', 'NOTICE'],
      ['["WHAT", 1]', 'NOTICE'],
      ['["REQ", 42, {}]', 'NOTICE'],
      ['["REQ", "s1", {"kinds": "one"}]', 'CLOSED'],
      ['["REQ", "s2", {"ids": ["xyz"]}]', 'CLOSED'],
      ['["REQ", "s3"]', 'CLOSED'],
      ['["EVENT", "nope"]', 'NOTICE'],
      [JSON.stringify(['EVENT', { ...sign(alice, { kind: 1 }), content: 'x'.repeat(600 * 1024) }]), 'NOTICE'],
    ];
    for (const [frame, verb] of bad) {
      raw.ws.send(frame);
      const reply = await raw.next();
      expect(reply[0]).toBe(verb);
      expect(String(reply[reply.length - 1])).toMatch(/^(invalid|error|blocked):/);
    }
    raw.ws.send(JSON.stringify(['REQ', 'ok', { ids: [notes[1].id] }]));
    expect(await raw.next()).toEqual(['EVENT', 'ok', notes[1]]);
    expect(await raw.next()).toEqual(['EOSE', 'ok']);
    raw.ws.send(JSON.stringify(['COUNT', 'c', { kinds: [1], authors: [getPublicKey(bob)] }]));
    expect(await raw.next()).toEqual(['COUNT', 'c', { count: 2 }]);
    raw.ws.close();
  });

  it('limits a connection to 200 subscriptions', async () => {
    const raw = await rawSocket();
    for (let i = 0; i < 200; i++) raw.ws.send(JSON.stringify(['REQ', `s${i}`, { ids: [notes[0].id], limit: 0 }]));
    for (let i = 0; i < 200; i++) await raw.next((m) => m[0] === 'EOSE' && m[1] === `s${i}`);
    raw.ws.send(JSON.stringify(['REQ', 'one-too-many', { kinds: [1] }]));
    expect(await raw.next((m) => m[1] === 'one-too-many')).toEqual(['CLOSED', 'one-too-many', expect.stringMatching(/^blocked:/)]);
    raw.ws.send(JSON.stringify(['CLOSE', 's0']));
    raw.ws.send(JSON.stringify(['REQ', 'replacement', { ids: [notes[0].id] }]));
    expect(await raw.next((m) => m[1] === 'replacement')).toEqual(['EVENT', 'replacement', notes[0]]);
    raw.ws.close();
  });

  it('counts relay connections and serves status and info over HTTP', async () => {
    const raw = await rawSocket();
    const status = (await (await fetch(`${server.url}/api/status`)).json()) as Record<string, number>;
    expect(status.relayConnections).toBeGreaterThanOrEqual(1);
    expect(status.relayConnectionsTotal).toBeGreaterThanOrEqual(status.relayConnections);
    expect(status.events).toBeGreaterThanOrEqual(5);
    raw.ws.close();
    expect(await (await fetch(`${server.url}/api/info`)).json()).toEqual({
      name: 'strucc',
      version: '2.0.11',
      nip05Domain: 'strucc.test',
      mediaDomain: 'media.strucc.test',
      demoLightning: false,
      // The mint runs only with the demo lightning network, which this server has off.
      mint: false,
      vapidPublicKey: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/),
    });
    expect((await fetch(`${server.url}/api/nincs-ilyen`)).status).toBe(404);
    const spa = await fetch(`${server.url}/home`);
    expect(spa.status).toBe(503);
    expect(await spa.text()).toContain('npm run build');
  });
});
