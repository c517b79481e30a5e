/**
 * NIP-42 AUTH on our relay and the gift-wrap rule it guards: NIP-17 messages (kind 14 sealed in
 * 13, wrapped in 1059) reach only the recipient named in the wrap's p tag, after AUTH.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finalizeEvent, generateSecretKey, getPublicKey, type Event } from 'nostr-tools/pure';
import { makeAuthEvent } from 'nostr-tools/nip42';
import * as nip17 from 'nostr-tools/nip17';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../server/app.ts';
import { startPeerRelay, until, wsFactory, type TestRelay } from '../support/peer-relay.ts';
import { RelayService } from '../../worker/relays.ts';
import { Signer } from '../../worker/signer.ts';
import { unwrapPrivateMessage, wrapPrivateMessage, type PrivateCrypto } from '../../worker/nip17.ts';
import type { NostrEvent } from '../../core/types.ts';
import { CacheClient } from './cache-client.ts';
import { startStrucc } from '../support/strucc-server.ts';

let dir: string;
let server: RunningServer;
let relayUrl: string;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'strucc-relay-auth-'));
  server = await startStrucc(dir);
  relayUrl = server.url.replace(/^http/, 'ws') + '/relay';
});

afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Socket {
  ws: WebSocket;
  challenge: string | undefined;
  next(pred?: (m: unknown[]) => boolean): Promise<unknown[]>;
  send(msg: unknown[]): void;
}

/** A raw socket that keeps every frame, so a test can wait for the one it needs, in order. */
async function connect(url = relayUrl): Promise<Socket> {
  const ws = new WebSocket(url);
  sockets.push(ws);
  const inbox: unknown[][] = [];
  const waiters: { pred: (m: unknown[]) => boolean; resolve: (m: unknown[]) => void }[] = [];
  const socket: Socket = {
    ws,
    challenge: undefined,
    next(pred = () => true) {
      const i = inbox.findIndex(pred);
      if (i >= 0) return Promise.resolve(inbox.splice(i, 1)[0]);
      return new Promise((resolve) => waiters.push({ pred, resolve }));
    },
    send: (msg) => ws.send(JSON.stringify(msg)),
  };
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString()) as unknown[];
    if (msg[0] === 'AUTH' && typeof msg[1] === 'string') socket.challenge = msg[1];
    const i = waiters.findIndex((w) => w.pred(msg));
    if (i >= 0) waiters.splice(i, 1)[0].resolve(msg);
    else inbox.push(msg);
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return socket;
}

const okFor = (id: string) => (m: unknown[]) => m[0] === 'OK' && m[1] === id;
const bySub = (sub: string) => (m: unknown[]) => (m[0] === 'EVENT' || m[0] === 'EOSE' || m[0] === 'CLOSED' || m[0] === 'COUNT') && m[1] === sub;

async function authenticate(s: Socket, key: Uint8Array, tweak: (e: ReturnType<typeof makeAuthEvent>) => void = () => undefined): Promise<unknown[]> {
  const challenge = (await s.next((m) => m[0] === 'AUTH'))[1] as string;
  const template = makeAuthEvent(relayUrl, challenge);
  tweak(template);
  const event = finalizeEvent(template, key);
  s.send(['AUTH', event]);
  return s.next(okFor(event.id));
}

/** The events of one REQ up to EOSE (or the CLOSED that ended it). */
async function query(s: Socket, sub: string, ...filters: object[]): Promise<{ events: Event[]; closed?: string }> {
  s.send(['REQ', sub, ...filters]);
  const events: Event[] = [];
  for (;;) {
    const m = await s.next(bySub(sub));
    if (m[0] === 'EVENT') events.push(m[2] as Event);
    else if (m[0] === 'CLOSED') return { events, closed: m[2] as string };
    else return { events };
  }
}

async function publish(s: Socket, event: Event): Promise<unknown[]> {
  s.send(['EVENT', event]);
  return s.next(okFor(event.id));
}

const alice = generateSecretKey();
const bob = generateSecretKey();
const carol = generateSecretKey();

describe('NIP-42 AUTH', () => {
  it('sends a challenge on connect and accepts only the right challenge, relay URL and time', async () => {
    const s = await connect();
    expect((await s.next())[0]).toBe('AUTH');
    expect(s.challenge).toMatch(/^[0-9a-f]{32}$/);
    s.ws.close();

    const wrongChallenge = await authenticate(await connect(), bob, (t) => (t.tags = [['relay', relayUrl], ['challenge', 'not-it']]));
    expect(wrongChallenge.slice(2)).toEqual([false, 'invalid: wrong challenge']);
    const otherRelay = await authenticate(await connect(), bob, (t) => (t.tags[0] = ['relay', 'wss://relay.example.com']));
    expect(otherRelay.slice(2)).toEqual([false, 'invalid: the relay tag does not name this relay']);
    const stale = await authenticate(await connect(), bob, (t) => (t.created_at -= 11 * 60));
    expect(stale.slice(2)).toEqual([false, 'invalid: created_at is more than 10 minutes off']);
    const wrongKind = await authenticate(await connect(), bob, (t) => (t.kind = 1));
    expect(wrongKind[2]).toBe(false);
    // Still within the allowed skew.
    const skewed = await authenticate(await connect(), bob, (t) => (t.created_at -= 9 * 60));
    expect(skewed.slice(2)).toEqual([true, '']);
  });

  it('lists NIP-17, NIP-42 and NIP-59 in its NIP-11 document', async () => {
    const res = await fetch(`${server.url}/relay`, { headers: { Accept: 'application/nostr+json' } });
    const info = (await res.json()) as { supported_nips: number[] };
    expect(info.supported_nips).toEqual(expect.arrayContaining([17, 42, 59]));
  });

  it('answers a REQ or COUNT for gift wraps without AUTH with CLOSED auth-required', async () => {
    const s = await connect();
    const { events, closed } = await query(s, 'wraps', { kinds: [1059], '#p': [getPublicKey(bob)] });
    expect(events).toEqual([]);
    expect(closed).toMatch(/^auth-required: /);
    s.send(['COUNT', 'n', { kinds: [1059], '#p': [getPublicKey(bob)] }]);
    expect(((await s.next(bySub('n')))[2] as string).startsWith('auth-required: ')).toBe(true);
    // The connection still serves other requests.
    expect((await query(s, 'notes', { kinds: [1], limit: 1 })).closed).toBeUndefined();
  });
});

describe('NIP-17 through our relay', () => {
  it('stores a gift wrap and serves it only to its authenticated recipient, stored and live', async () => {
    const bobSock = await connect();
    expect((await authenticate(bobSock, bob)).slice(2)).toEqual([true, '']);
    const carolSock = await connect();
    expect((await authenticate(carolSock, carol)).slice(2)).toEqual([true, '']);
    // Live subscriptions first; carol's asks for everything that names bob.
    bobSock.send(['REQ', 'live', { kinds: [1059], '#p': [getPublicKey(bob)] }]);
    await bobSock.next(bySub('live'));
    carolSock.send(['REQ', 'spy', { '#p': [getPublicKey(bob)] }]);
    await carolSock.next(bySub('spy'));

    const wrap = nip17.wrapEvent(alice, { publicKey: getPublicKey(bob) }, 'Szia Bob, ez privát!') as Event;
    expect(wrap.kind).toBe(1059);
    expect(wrap.pubkey).not.toBe(getPublicKey(alice));
    const publisher = await connect();
    expect((await publish(publisher, wrap)).slice(2)).toEqual([true, '']);

    const live = await bobSock.next(bySub('live'));
    expect((live[2] as Event).id).toBe(wrap.id);
    const rumor = nip17.unwrapEvent(live[2] as Event, bob);
    expect(rumor).toMatchObject({ kind: 14, pubkey: getPublicKey(alice), content: 'Szia Bob, ez privát!' });

    // A public note to bob after the wrap: carol's socket gets it, and (frames keep their order) nothing before it.
    const note = finalizeEvent({ kind: 1, created_at: Math.floor(Date.now() / 1000), tags: [['p', getPublicKey(bob)]], content: 'nyilvános' }, alice);
    expect((await publish(publisher, note)).slice(2)).toEqual([true, '']);
    const seen = await carolSock.next(bySub('spy'));
    expect((seen[2] as Event).id).toBe(note.id);

    // Stored: bob gets it back, carol (authenticated, but not the recipient) and anyone asking by id do not.
    expect((await query(bobSock, 'again', { kinds: [1059], '#p': [getPublicKey(bob)] })).events.map((e) => e.id)).toEqual([wrap.id]);
    const carolRead = await query(carolSock, 'steal', { kinds: [1059] });
    expect(carolRead).toEqual({ events: [] });
    const byId = await query(await connect(), 'byid', { ids: [wrap.id] });
    expect(byId).toEqual({ events: [] });
    // Nor does the cache socket hand it out by id.
    const cache = await CacheClient.connect(server.url.replace(/^http/, 'ws') + '/v1');
    const fromCache = await cache.req('ev', 'events', { event_ids: [wrap.id, note.id] });
    expect(fromCache.events.map((e) => e.id)).toEqual([note.id]);
    await cache.close();
    carolSock.send(['COUNT', 'n', { kinds: [1059], '#p': [getPublicKey(bob)] }]);
    expect(((await carolSock.next(bySub('n')))[2] as string).startsWith('auth-required: ')).toBe(true);
  });

  it('leaves gift wraps for others out of a COUNT without kinds and applies a REQ limit after that', async () => {
    // A recipient of its own, so the counts below see only this test's events.
    const dora = generateSecretKey();
    const doraPk = getPublicKey(dora);
    const publisher = await connect();
    const wraps = [1, 2, 3].map((i) => nip17.wrapEvent(alice, { publicKey: doraPk }, `titok ${i}`) as Event);
    // Wrap times are blurred up to two days back: the public notes are older than every wrap, so a
    // limit applied before leaving the wraps out would return nothing to a stranger.
    const oldest = Math.min(...wraps.map((w) => w.created_at));
    const notes = [10, 20].map((d) => finalizeEvent({ kind: 1, created_at: oldest - d, tags: [['p', doraPk]], content: `nyilvános ${d}` }, alice));
    for (const e of [...wraps, ...notes]) expect((await publish(publisher, e))[2]).toBe(true);

    const stranger = await connect();
    await authenticate(stranger, carol);
    stranger.send(['COUNT', 'c', { '#p': [doraPk] }]);
    expect((await stranger.next(bySub('c')))[2]).toEqual({ count: 2 });
    expect((await query(stranger, 'l', { '#p': [doraPk], limit: 1 })).events.map((e) => e.id)).toEqual([notes[0].id]);
    const anonymous = await connect();
    anonymous.send(['COUNT', 'c0', { authors: wraps.map((w) => w.pubkey) }]);
    expect((await anonymous.next(bySub('c0')))[2]).toEqual({ count: 0 });
    expect((await query(anonymous, 'l2', { '#p': [doraPk], limit: 2 })).events.map((e) => e.id)).toEqual(notes.map((n) => n.id));

    const owner = await connect();
    await authenticate(owner, dora);
    owner.send(['COUNT', 'c3', { '#p': [doraPk] }]);
    expect((await owner.next(bySub('c3')))[2]).toEqual({ count: 5 });
    const own = await query(owner, 'l3', { '#p': [doraPk], limit: 3 });
    expect(own.events.map((e) => e.id).sort()).toEqual(wraps.map((w) => w.id).sort());
  });

  it('round-trips a NIP-17 conversation both ways between two accounts', async () => {
    const a = await connect();
    const b = await connect();
    await authenticate(a, alice);
    await authenticate(b, bob);
    // NIP-17: the sender keeps a copy wrapped to itself, so its other devices see the message too.
    const toBob = nip17.wrapManyEvents(alice, [{ publicKey: getPublicKey(bob) }], 'Kérdés: jössz holnap?') as Event[];
    for (const w of toBob) expect((await publish(a, w))[2]).toBe(true);
    const got = (await query(b, 'in', { kinds: [1059], '#p': [getPublicKey(bob)] })).events.map((e) => nip17.unwrapEvent(e, bob));
    expect(got.map((r) => r.content)).toContain('Kérdés: jössz holnap?');
    const reply = nip17.wrapEvent(bob, { publicKey: getPublicKey(alice) }, 'Igen, ott leszek.') as Event;
    expect((await publish(b, reply))[2]).toBe(true);
    const aliceInbox = (await query(a, 'in', { kinds: [1059], '#p': [getPublicKey(alice)] })).events.map((e) => nip17.unwrapEvent(e, alice));
    expect(aliceInbox.map((r) => [r.pubkey, r.content])).toContainEqual([getPublicKey(bob), 'Igen, ott leszek.']);
    expect(aliceInbox.map((r) => r.content)).toContain('Kérdés: jössz holnap?');
  });
});

describe("the worker's relay pool", () => {
  it('answers the challenge with the user\'s signer when gift wraps need AUTH, then receives them', async () => {
    const service = new RelayService({ socketFactory: wsFactory });
    const signed: number[] = [];
    service.setAuthSigner(async (t) => {
      signed.push(t.kind);
      return finalizeEvent(t, bob) as NostrEvent;
    });
    try {
      service.add(relayUrl);
      const got: NostrEvent[] = [];
      service.subscribe([{ kinds: [1059], '#p': [getPublicKey(bob)] }], { onEvent: (e) => got.push(e) });
      service.connectAll();
      const wrap = nip17.wrapEvent(carol, { publicKey: getPublicKey(bob) }, 'A munkásból') as Event;
      const s = await connect();
      expect((await publish(s, wrap))[2]).toBe(true);
      await until(() => got.some((e) => e.id === wrap.id), 'the gift wrap through the pool');
      expect(signed).toEqual([22242]);
      expect(nip17.unwrapEvent(got.find((e) => e.id === wrap.id) as Event, bob).content).toBe('A munkásból');
    } finally {
      service.dispose();
    }
  });
});

/** The worker's NIP-17 code on a local-key signer, as a logged-in account uses it. */
function workerCrypto(secret: Uint8Array): PrivateCrypto {
  const signer = new Signer();
  const pubkey = signer.useLocal(secret);
  return { pubkey, sign: (t) => signer.sign(t), nip44Encrypt: (pk, x) => signer.nip44Encrypt(pk, x), nip44Decrypt: (pk, x) => signer.nip44Decrypt(pk, x) };
}

describe("the worker's NIP-17 code through our relay", () => {
  it('sends both ways between two accounts, each reading only its own wraps after AUTH', async () => {
    const dora = generateSecretKey();
    const ede = generateSecretKey();
    const [d, e] = [workerCrypto(dora), workerCrypto(ede)];
    const now = Math.floor(Date.now() / 1000);
    const first = await wrapPrivateMessage(d, e.pubkey, 'Ede, ráérsz?', now);
    const reply = await wrapPrivateMessage(e, d.pubkey, 'Igen, Dóra!', now + 1);
    const ds = await connect();
    const es = await connect();
    await authenticate(ds, dora);
    await authenticate(es, ede);
    for (const w of [first.toRecipient, first.toSelf]) expect((await publish(ds, w as Event))[2]).toBe(true);
    for (const w of [reply.toRecipient, reply.toSelf]) expect((await publish(es, w as Event))[2]).toBe(true);
    const read = async (s: Socket, who: PrivateCrypto) => {
      const { events } = await query(s, `in-${who.pubkey.slice(0, 8)}`, { kinds: [1059], '#p': [who.pubkey] });
      const msgs = await Promise.all(events.map((ev) => unwrapPrivateMessage(who, ev as NostrEvent)));
      return msgs.map((m) => [m.sender === who.pubkey ? 'me' : 'them', m.text]).sort();
    };
    // Each side sees the whole conversation: what it received and its own copies.
    expect(await read(ds, d)).toEqual([['me', 'Ede, ráérsz?'], ['them', 'Igen, Dóra!']]);
    expect(await read(es, e)).toEqual([['me', 'Igen, Dóra!'], ['them', 'Ede, ráérsz?']]);
  });
});

describe('NIP-17 through a relay written by others', () => {
  let peer: TestRelay;
  beforeAll(async () => {
    peer = await startPeerRelay();
  });
  afterAll(async () => {
    await peer?.close();
  });

  it('round-trips a gift wrap from alice to bob', async () => {
    const s = await connect(peer.url);
    const wrap = nip17.wrapEvent(alice, { publicKey: getPublicKey(bob) }, 'Másik relén át') as Event;
    expect((await publish(s, wrap))[2]).toBe(true);
    const { events } = await query(s, 'in', { kinds: [1059], '#p': [getPublicKey(bob)] });
    expect(events.map((e) => nip17.unwrapEvent(e, bob).content)).toEqual(['Másik relén át']);
  });
});
