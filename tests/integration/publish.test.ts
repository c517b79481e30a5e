/**
 * Publishing through the whole worker API in Node, to an independent relay (@nostr-relay/core),
 * a relay that never confirms and a dead port. The cache socket goes to a real Strucc server,
 * so import_events is real too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../server/app.ts';
import { createApi, type StruccWorker } from '../../worker/api.ts';
import type { NostrEvent, RelayInfo, UnsignedEvent } from '../../core/types.ts';
import { deadRelayUrl, startPeerRelay, startSlowRelay, until, wsFactory, type TestRelay } from '../support/peer-relay.ts';
import { startStrucc } from '../support/strucc-server.ts';
import { signEvent } from '../support/sign.ts';

const key = generateSecretKey();
const author = getPublicKey(key);
const sign = (t: UnsignedEvent): NostrEvent => signEvent(key, t);
const nowSec = () => Math.floor(Date.now() / 1000);
const note = (content: string, created_at = nowSec()): UnsignedEvent => ({ kind: 1, tags: [], content, created_at });

describe('relay pool and publishing against real relays', () => {
  let dir: string;
  let server: RunningServer;
  let peer: TestRelay;
  let slow: TestRelay;
  let dead: string;
  let api: StruccWorker;
  const savedWebSocket = globalThis.WebSocket;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'strucc-pool-'));
    server = await startStrucc(dir);
    peer = await startPeerRelay();
    slow = await startSlowRelay();
    dead = await deadRelayUrl();
    // The cache socket actor uses the global WebSocket, which Node 20 lacks.
    (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
    api = createApi({ relaySocketFactory: wsFactory, publishTimeoutMs: 2000 });
    await api.hello('tab1', {
      cacheServer: `${server.url.replace(/^http/, 'ws')}/v1`,
      mediaServer: server.url,
      noBinary: true,
      devMode: false,
    });
  });

  afterAll(async () => {
    api?.dispose();
    (globalThis as { WebSocket?: unknown }).WebSocket = savedWebSocket;
    await peer?.close();
    await slow?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes to three relays, one dead and one slow: success at the first accept with the failure so far, then imported', async () => {
    let relays: RelayInfo[] = [];
    await api.watchRelays?.('tab1', (s) => (relays = s));
    for (const url of [peer.url, dead, slow.url]) expect(await api.addRelay?.(url)).toEqual({ ok: true, url });
    await until(() => relays.filter((r) => r.state === 'connected').length === 2, 'peer and slow relays connected');
    expect(relays.find((r) => r.url === dead)?.state).not.toBe('connected');

    api.setSigner(async (t) => sign(t));
    const result = await api.publish!(note('három relé, egy halott, egy lassú'));
    // The dead relay fails at once; the peer's OK settles the publish without waiting for the slow one.
    expect(result).toMatchObject({ success: true, outcome: 'published', reasons: { [dead]: 'failed' } });
    expect(Object.keys(result.reasons)).toEqual([dead]);
    const event = result.event as NostrEvent;
    expect(event.pubkey).toBe(author);
    expect(peer.received).toContainEqual(['EVENT', event]);
    expect(slow.received).toContainEqual(['EVENT', event]);

    // import_events ran before the result: the cache server already knows the note.
    const reply = await api.request('events', { event_ids: [event.id] });
    expect(reply.events.map((e) => (e as { id?: string }).id)).toContain(event.id);

    for (const url of [peer.url, dead, slow.url]) await api.removeRelay?.(url);
  });

  it('a relay that is not connected, alone, gives no-relays; one that rejects gives its OK message', async () => {
    await api.addRelay?.(dead);
    expect(await api.publish!(sign(note('sehová')))).toMatchObject({ success: false, outcome: 'no-relays' });
    await api.addRelay?.(peer.url);
    let relays: RelayInfo[] = [];
    await api.watchRelays?.('tab1', (s) => (relays = s));
    await until(() => relays.some((r) => r.url === peer.url && r.state === 'connected'), 'peer connected');
    const bad = { ...sign(note('rossz id')), id: '0'.repeat(64) };
    // A forged id never leaves the worker.
    expect(await api.publish!(bad)).toMatchObject({ success: false, reasons: { '*': 'event-sig-not-verified' } });
    await api.removeRelay?.(dead);
    await api.removeRelay?.(peer.url);
  });
});

