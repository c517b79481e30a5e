/**
 * The worker's NIP-17 inbox (worker/dmsPrivate.ts) between two accounts over real websockets:
 * each runs its own relay pool with a local-key signer, publishes its kind-10050 list when it has
 * none, sends to the other's inbox relays (a relay written by others) and our relay, and reads its
 * wraps back after answering our relay's AUTH challenge.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSecretKey } from 'nostr-tools/pure';
import * as nip17 from 'nostr-tools/nip17';
import type { Event } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../server/app.ts';
import { startStrucc } from '../support/strucc-server.ts';
import { startPeerRelay, until, wsFactory, type TestRelay } from '../support/peer-relay.ts';
import { PrivateInbox } from '../../worker/dmsPrivate.ts';
import { RelayService } from '../../worker/relays.ts';
import { Signer } from '../../worker/signer.ts';
import type { CacheReply, NostrEvent, UnsignedEvent } from '../../core/types.ts';

let dir: string;
let server: RunningServer;
let ourRelay: string;
let peer: TestRelay;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strucc-dms-private-'));
  server = await startStrucc(dir);
  ourRelay = server.url.replace(/^http/, 'ws') + '/relay';
  peer = await startPeerRelay();
});

afterAll(async () => {
  await peer?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The published inbox lists, as the cache server's replaceable_event would answer them. */
const lists = new Map<string, NostrEvent>();

interface Account {
  pubkey: string;
  inbox: PrivateInbox;
  relays: RelayService;
  published: UnsignedEvent[];
  unread: number;
}

async function account(secret: Uint8Array, inboxRelays: string[] | undefined): Promise<Account> {
  const signer = new Signer();
  const pubkey = signer.useLocal(secret);
  const relays = new RelayService({ socketFactory: wsFactory });
  relays.setAuthSigner((t) => signer.sign(t));
  const acc: Account = { pubkey, relays, published: [], unread: 0, inbox: undefined as unknown as PrivateInbox };
  const store = async (t: UnsignedEvent) => lists.set(pubkey, await signer.sign(t));
  if (inboxRelays) await store({ kind: 10050, created_at: 1, tags: inboxRelays.map((r) => ['relay', r]), content: '' });
  const request = async (command: string, payload?: Record<string, unknown>): Promise<CacheReply> => {
    if (command === 'get_default_relays') return { events: [{ kind: 10000124, content: JSON.stringify([ourRelay]) }] } as unknown as CacheReply;
    const list = lists.get(String(payload?.pubkey));
    return { events: command === 'replaceable_event' && list ? [list] : [] } as unknown as CacheReply;
  };
  acc.inbox = new PrivateInbox({
    request,
    relays,
    crypto: () => ({ pubkey, sign: (t) => signer.sign(t), nip44Encrypt: (pk, x) => signer.nip44Encrypt(pk, x), nip44Decrypt: (pk, x) => signer.nip44Decrypt(pk, x) }),
    publish: async (t) => {
      acc.published.push(t);
      await store(t);
      return { success: true, reasons: {}, outcome: 'published' };
    },
    readMarks: () => ({}),
    saveReadMarks: () => undefined,
    onMessages: () => undefined,
    onUnread: (n) => void (acc.unread = n),
  });
  return acc;
}

/** A raw reader of the relay written by others, to see what reached it. */
async function peerWraps(recipient: string): Promise<Event[]> {
  const ws = new WebSocket(peer.url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const events: Event[] = [];
  await new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as unknown[];
      if (m[0] === 'EVENT' && m[1] === 'w') events.push(m[2] as Event);
      if (m[0] === 'EOSE' && m[1] === 'w') resolve();
    });
    ws.send(JSON.stringify(['REQ', 'w', { kinds: [1059], '#p': [recipient] }]));
  });
  ws.terminate();
  return events;
}

describe('NIP-17 between two accounts through the worker inbox', () => {
  it('round-trips a conversation through a relay written by others and ours, live, with unread counts', async () => {
    const benceKey = generateSecretKey();
    const bence = await account(benceKey, [peer.url]);
    const anna = await account(generateSecretKey(), undefined);
    try {
      anna.inbox.setUser(anna.pubkey, true);
      bence.inbox.setUser(bence.pubkey, true);
      // Anna had no inbox list: one naming our relay was published for her; Bence keeps his.
      await until(() => anna.published.length === 1, "anna's inbox list");
      expect(anna.published[0]).toMatchObject({ kind: 10050, tags: [['relay', ourRelay]] });
      expect(bence.published).toEqual([]);
      await until(() => anna.relays.snapshot().some((r) => r.state === 'connected'), 'anna connected');
      await until(() => bence.relays.snapshot().filter((r) => r.state === 'connected').length === 2, 'bence connected to both inboxes');

      expect(await anna.inbox.protocolFor(bence.pubkey)).toBe('nip17');
      const sent = await anna.inbox.send(bence.pubkey, 'Szia Bence, ez privát!');
      expect(sent.success).toBe(true);
      // The wrap reached the relay written by others, and only Bence can open it.
      // That relay confirms before its store has written; read again until it has.
      const onPeer = await until(async () => {
        const wraps = await peerWraps(bence.pubkey);
        return wraps.length > 0 && wraps;
      }, 'the wrap stored on the peer relay', 5_000, 50);
      expect(onPeer.map((w) => nip17.unwrapEvent(w, benceKey))).toMatchObject([{ kind: 14, pubkey: anna.pubkey, content: 'Szia Bence, ez privát!' }]);
      await until(() => bence.inbox.messagesWith(anna.pubkey).length === 1, 'bence receives live');
      expect(bence.inbox.messagesWith(anna.pubkey)[0]).toMatchObject({ sender: anna.pubkey, content: 'Szia Bence, ez privát!', private: true });
      expect(bence.unread).toBe(1);

      // Bence answers: Anna's list names our relay, which serves it to her after AUTH.
      expect(await bence.inbox.protocolFor(anna.pubkey)).toBe('nip17');
      expect((await bence.inbox.send(anna.pubkey, 'Szia Anna!')).success).toBe(true);
      await until(() => anna.inbox.messagesWith(bence.pubkey).length === 2, 'anna sees the answer and her own copy');
      expect(anna.inbox.messagesWith(bence.pubkey).map((m) => [m.sender === anna.pubkey ? 'me' : 'them', m.content])).toEqual([
        ['me', 'Szia Bence, ez privát!'],
        ['them', 'Szia Anna!'],
      ]);
      expect(anna.unread).toBe(1);
      // Bence's answer means he read Anna's message; his own copy came back too.
      await until(() => bence.inbox.messagesWith(anna.pubkey).length === 2, "bence's own copy");
      expect(bence.inbox.unreadTotal()).toBe(0);
      anna.inbox.markRead(bence.pubkey);
      expect(anna.unread).toBe(0);
    } finally {
      for (const a of [anna, bence]) {
        a.inbox.dispose();
        a.relays.dispose();
      }
    }
  });
});
