/**
 * The server's own relay client against a relay written by others (@nostr-relay/core through
 * tests/support/peer-relay.ts), not only against Strucc's /relay: broadcast_events and
 * broadcast_reply publish there and report its OK answers as it words them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSecretKey, getPublicKey, type EventTemplate } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../server/app.ts';
import { CacheClient, content, ofKind } from './cache-client.ts';
import { startPeerRelay, type TestRelay } from '../support/peer-relay.ts';
import { startStrucc } from '../support/strucc-server.ts';
import { signEvent } from '../support/sign.ts';

type Broadcast = { event_id: string; responses: [string, boolean, string][] }[];

const alice = generateSecretKey();
const bob = generateSecretKey();
const sign = (key: Uint8Array, t: Partial<EventTemplate> & { kind: number }) => signEvent(key, t);

/** The ids the peer relay holds among `ids`, asked with a plain NIP-01 REQ. */
async function heldByPeer(url: string, ids: string[]): Promise<string[]> {
  const ws = new WebSocket(url);
  try {
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return await new Promise<string[]>((resolve) => {
      const found: string[] = [];
      ws.on('message', (data) => {
        const msg = JSON.parse(String(data)) as unknown[];
        if (msg[0] === 'EVENT' && msg[1] === 'held') found.push((msg[2] as { id: string }).id);
        if (msg[0] === 'EOSE' && msg[1] === 'held') resolve(found);
      });
      ws.send(JSON.stringify(['REQ', 'held', { ids }]));
    });
  } finally {
    ws.close();
  }
}

let dir: string;
let server: RunningServer;
let peer: TestRelay;
let cache: CacheClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strucc-peer-client-'));
  peer = await startPeerRelay();
  // The peer listens on 127.0.0.1, which a deployed server refuses to reach.
  server = await startStrucc(dir, { FETCH_PRIVATE_ADDRESSES: '1' });
  cache = await CacheClient.connect(`ws://127.0.0.1:${server.port}/v1`);
});

afterAll(async () => {
  await cache?.close();
  await server?.close();
  await peer?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('broadcast_events to a relay written by others', () => {
  it('publishes each event as NIP-01 EVENT and reports the relay\'s OK, a duplicate included', async () => {
    const note = sign(alice, { kind: 1, content: 'egy másik relére' });
    const first = await cache.req('pb1', 'broadcast_events', { events: [note], relays: [peer.url] });
    expect(first.notices).toEqual([]);
    expect(content<Broadcast>(ofKind(first.events, 10000149)[0])).toEqual([{ event_id: note.id, responses: [[peer.url, true, '']] }]);
    expect(peer.received.filter((f) => f[0] === 'EVENT').map((f) => (f[1] as { id: string }).id)).toEqual([note.id]);
    expect(await heldByPeer(peer.url, [note.id])).toEqual([note.id]);

    // Sent again, it goes out again (the peer, not Strucc, decides it already has it) and is accepted.
    const again = await cache.req('pb2', 'broadcast_events', { events: [note], relays: [peer.url] });
    expect(content<Broadcast>(ofKind(again.events, 10000149)[0])[0].responses).toEqual([[peer.url, true, '']]);
    expect(peer.received.filter((f) => f[0] === 'EVENT')).toHaveLength(2);
  });

  it('a refusal by the peer comes back as false with the peer\'s reason', async () => {
    // The peer rejects an event whose signature does not verify; Strucc checks ids, not signatures, before sending.
    const note = sign(alice, { kind: 1, content: 'rossz aláírás' });
    const badSig = { ...note, sig: note.sig.replace(/^./, (ch) => (ch === '0' ? '1' : '0')) };
    const reply = await cache.req('pb3', 'broadcast_events', { events: [badSig], relays: [peer.url] });
    const [[url, ok, message]] = content<Broadcast>(ofKind(reply.events, 10000149)[0])[0].responses;
    expect([url, ok]).toEqual([peer.url, false]);
    expect(message, 'the peer\'s own words').toMatch(/signature/i);
    expect(await heldByPeer(peer.url, [badSig.id])).toEqual([]);
  });
});

describe('broadcast_reply to a relay written by others', () => {
  it("reaches the tagged person's read relay when that is the peer", async () => {
    const list = sign(bob, { kind: 10002, tags: [['r', peer.url, 'read']] });
    expect(content(ofKind((await cache.req('pr0', 'import_events', { events: [list] })).events, 10000127)[0])).toEqual({ imported: 1, errors: 0 });
    const reply = sign(alice, { kind: 1, content: 'válasz a másik relén', tags: [['p', getPublicKey(bob)]] });
    const out = await cache.req('pr1', 'broadcast_reply', { event: reply });
    expect(content<Broadcast>(ofKind(out.events, 10000149)[0])).toEqual([{ event_id: reply.id, responses: [[peer.url, true, '']] }]);
    expect(await heldByPeer(peer.url, [reply.id])).toEqual([reply.id]);
  });
});
