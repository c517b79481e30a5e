/**
 * The worker's relay pool against real relays in Node: Strucc's own NIP-01 relay (server/app.ts,
 * /relay) restarting mid-session on a persistent data directory, and an independent relay.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app.ts';
import type { RelayMessage } from '../../machines/relay.ts';
import { relayOf } from '../../machines/relayPool.ts';
import { RelayService } from '../../worker/relays.ts';
import type { NostrEvent, UnsignedEvent } from '../../core/types.ts';
import { publishDirect, startPeerRelay, until, wsFactory } from '../support/peer-relay.ts';
import { startStrucc } from '../support/strucc-server.ts';
import { signEvent } from '../support/sign.ts';

const key = generateSecretKey();
const author = getPublicKey(key);
const sign = (t: UnsignedEvent): NostrEvent => signEvent(key, t);
const nowSec = () => Math.floor(Date.now() / 1000);
const note = (content: string, created_at = nowSec()): UnsignedEvent => ({ kind: 1, tags: [], content, created_at });

describe('a relay restarting mid-session', () => {
  let dir: string;
  let server: RunningServer | undefined;
  let service: RelayService | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'strucc-restart-'));
  });

  afterAll(async () => {
    service?.dispose();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-sends the subscription with since = the drop and delivers what was published while it was down', async () => {
    server = await startStrucc(dir);
    const port = String(server.port);
    const url = `ws://127.0.0.1:${port}/relay`;
    service = new RelayService({ socketFactory: wsFactory });
    service.add(url);
    const raw: RelayMessage[] = [];
    const delivered: NostrEvent[] = [];
    const sub = service.subscribe([{ kinds: [1], authors: [author] }], { onEvent: (e) => delivered.push(e) });
    const relay = await until(() => relayOf(service!.pool.getSnapshot(), url), 'relay spawned');
    relay.on('message', (e) => raw.push(e.message));
    await until(() => service!.snapshot()[0]?.state === 'connected', 'first connection');

    const before = sign(note('leállás előtt', nowSec() - 60));
    expect(await publishDirect(url, before)).toEqual(['OK', before.id, true, expect.any(String)]);
    await until(() => delivered.some((e) => e.id === before.id), 'live event before the drop');

    await server.close();
    server = undefined;
    await until(() => service!.snapshot()[0]?.state !== 'connected', 'drop noticed');
    const droppedAt = relay.getSnapshot().context.droppedAt;
    expect(droppedAt).toBeGreaterThan(0);
    expect(relay.getSnapshot().context.subs[sub.subId].resumeSince).toBe(droppedAt);

    // Another instance on the same data directory takes the note while the relay's address is dead.
    const elsewhere = await startStrucc(dir);
    const during = sign(note('leállás alatt', (droppedAt as number) + 1));
    expect((await publishDirect(`${elsewhere.url.replace(/^http/, 'ws')}/relay`, during))[2]).toBe(true);
    await elsewhere.close();

    server = await startStrucc(dir, { PORT: port });
    // Should the outage have outlasted the 3 attempts, a relay that gave up is reconnected (only closed ones are).
    service.connectAll();
    await until(() => delivered.some((e) => e.id === during.id), 'event published while down', 20_000);
    // The re-sent REQ asked only for what came after the drop: the older note did not come again.
    expect(raw.filter((m) => m.type === 'EVENT' && m.event.id === before.id)).toHaveLength(1);
    expect(relay.getSnapshot().context.attempts).toBe(0);
    sub.close();
  });
});

describe('one pool over two relays written by different people', () => {
  let dir: string;
  let server: RunningServer;
  let peer: Awaited<ReturnType<typeof startPeerRelay>>;
  let service: RelayService;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'strucc-pool-'));
    server = await startStrucc(dir);
    peer = await startPeerRelay();
    service = new RelayService({ socketFactory: wsFactory });
  });

  afterAll(async () => {
    service?.dispose();
    await peer?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('follows a 10002 list: read relays get the subscription, events arrive once, stored and live', async () => {
    const strucc = `${server.url.replace(/^http/, 'ws')}/relay`;
    const stored = sign(note('tárolt', nowSec() - 30));
    for (const url of [strucc, peer.url]) expect((await publishDirect(url, stored))[2]).toBe(true);

    // Strucc's relay read and write; the independent one write only, so it must never see the REQ.
    const list = sign({ kind: 10002, tags: [['r', strucc], ['r', peer.url, 'write']], content: '', created_at: nowSec() });
    expect(service.setFromEvent(list).map((r) => [r.url, r.read, r.write])).toEqual([
      [strucc, true, true],
      [peer.url, false, true],
    ]);
    const delivered: NostrEvent[] = [];
    let eose = 0;
    service.subscribe([{ kinds: [1], authors: [author] }], { onEvent: (e) => delivered.push(e), onEose: () => (eose += 1) });
    await until(() => eose === 1, 'EOSE from the read relay');
    expect(delivered.map((e) => e.id)).toEqual([stored.id]);
    expect(peer.received.filter((f) => f[0] === 'REQ')).toEqual([]);

    const live = sign(note('élő'));
    await publishDirect(strucc, live);
    await until(() => delivered.some((e) => e.id === live.id), 'live event');

    // Reading switched on for the independent relay: it gets the subscription and adds nothing new.
    service.setFromEvent({ tags: [['r', strucc], ['r', peer.url]] });
    await until(() => peer.received.some((f) => f[0] === 'REQ'), 'REQ on the independent relay');
    await until(() => eose === 2, 'EOSE from the independent relay');
    expect(delivered.map((e) => e.id)).toEqual([stored.id, live.id]);
    expect(service.writeRelays()).toEqual({ relays: [strucc, peer.url], anyConnected: true });
  });
});
