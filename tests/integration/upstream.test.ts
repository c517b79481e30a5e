/**
 * Upstream ingestion after downtime, against a relay written by others (@nostr-relay/core, which
 * answers a REQ with at most its own limit of newest events): the server is stopped, more than a
 * page of events is published to the relay meanwhile, and after a restart every one of them is
 * stored — also when the server is killed in the middle of that catch-up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finalizeEvent, generateSecretKey, getPublicKey, type VerifiedEvent } from 'nostr-tools/pure';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { startPeerRelay, until, type TestRelay } from '../support/peer-relay.ts';
import { startServerProcess, type RunningServer } from '../support/server-process.ts';

const PAGE = 40;
const MISSED = 400;

/** Publishes on one socket and resolves once the relay has answered OK to each. */
async function publishAll(url: string, events: VerifiedEvent[]): Promise<void> {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const pending = new Set(events.map((e) => e.id));
  const done = new Promise<void>((resolve) =>
    ws.on('message', (d) => {
      const f = JSON.parse(d.toString()) as unknown[];
      if (f[0] === 'OK' && f[2] === true) pending.delete(String(f[1]));
      if (pending.size === 0) resolve();
    }),
  );
  for (const e of events) ws.send(JSON.stringify(['EVENT', e]));
  await done;
  ws.close();
}

/** How many kind-1 notes of `pubkey` the server's own relay endpoint holds. */
async function storedCount(server: RunningServer, pubkey: string): Promise<number> {
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/relay`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let n = 0;
  await new Promise<void>((resolve) => {
    ws.on('message', (d) => {
      const f = JSON.parse(d.toString()) as unknown[];
      // The relay greets with an AUTH challenge (NIP-42): only the end of the stored events counts.
      if (f[0] === 'EVENT') n++;
      else if (f[0] === 'EOSE' || f[0] === 'CLOSED') resolve();
    });
    ws.send(JSON.stringify(['REQ', 'n', { authors: [pubkey], kinds: [1], limit: 500 }]));
  });
  ws.close();
  return n;
}

async function waitForCount(server: RunningServer, pubkey: string, want: number): Promise<void> {
  await until(async () => (await storedCount(server, pubkey)) >= want, `${want} stored events of ${pubkey.slice(0, 8)}`, 60_000, 200);
}

describe('upstream catch-up after downtime', () => {
  let peer: TestRelay | null = null;
  let server: RunningServer | null = null;
  let dataDir = '';

  afterEach(async () => {
    await server?.stop();
    await peer?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** A server that has followed the peer and stored one note, then stopped; and the notes it then missed. */
  async function followedThenStopped() {
    peer = await startPeerRelay();
    dataDir = mkdtempSync(join(tmpdir(), 'strucc-upstream-'));
    const sk = generateSecretKey();
    const pubkey = getPublicKey(sk);
    const now = Math.floor(Date.now() / 1000);
    const note = (at: number, text: string) => finalizeEvent({ kind: 1, created_at: at, tags: [], content: text }, sk);
    await publishAll(peer.url, [note(now - 2000, 'első')]);
    const start = () =>
      startServerProcess({ DEMO: '0', UPSTREAM_RELAYS: peer!.url, UPSTREAM_PAGE_LIMIT: String(PAGE), FETCH_PRIVATE_ADDRESSES: '1' }, dataDir);
    server = await start();
    await waitForCount(server, pubkey, 1);
    await server.stop();
    server = null;
    const missed = Array.from({ length: MISSED }, (_, i) => note(now - 1000 + i, `kimaradt ${i}`));
    await publishAll(peer.url, missed);
    return { pubkey, start };
  }

  it('fetches every event published while the server was down, page by page', async () => {
    const { pubkey, start } = await followedThenStopped();
    server = await start();
    await waitForCount(server, pubkey, MISSED + 1);
    expect(await storedCount(server, pubkey)).toBe(MISSED + 1);
  }, 120_000);

  it('a crash in the middle of the catch-up does not move the cursor past what was not fetched', async () => {
    const { pubkey, start } = await followedThenStopped();
    const pages = () => peer!.received.filter((f) => f[0] === 'REQ' && typeof (f[2] as { until?: unknown })?.until === 'number').length;
    const before = pages();
    server = await start();
    // Two pages imported and the third asked for: then the process dies without any shutdown.
    await until(() => pages() >= before + 3, 'the third catch-up page', 60_000);
    await server.kill();
    server = await start();
    await waitForCount(server, pubkey, MISSED + 1);
    expect(await storedCount(server, pubkey)).toBe(MISSED + 1);
  }, 120_000);
});
