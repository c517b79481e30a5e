/**
 * NIP-17 in the DMs machine and worker: the protocol shown per conversation, private messages
 * merged into the open conversation and the contact list, and the PrivateInbox's unwrapping,
 * unread counts, read marks and sending, with fake relays and real keys.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { v2 } from 'nostr-tools/nip44';
import { dmMachine, type ContactsPage, type DmProtocol, type FetchContactsInput, type FetchMessagesInput, type MessagesPage } from '../../../machines/dms.ts';
import { DmService, withPrivateContacts, withPrivateMessages } from '../../../worker/dms.ts';
import { PrivateInbox } from '../../../worker/dmsPrivate.ts';
import { wrapPrivateMessage, type PrivateCrypto } from '../../../worker/nip17.ts';
import type { RelayService } from '../../../worker/relays.ts';
import { emptyProfile } from '../../../core/profile.ts';
import type { CacheReply, DirectMessage, DmContact, DmSnapshot, NostrEvent, PublishResult, UnsignedEvent } from '../../../core/types.ts';

const ME = 'a'.repeat(64);
const BOB = 'b'.repeat(64);
const CAROL = 'c'.repeat(64);
const flush = () => vi.advanceTimersByTimeAsync(0);
const msg = (id: string, at: number, sender = BOB, priv = false): DirectMessage => ({ id, sender, content: `text ${id}`, created_at: at, ...(priv ? { private: true } : {}) });
const contact = (pubkey: string, cnt: number, latest: number): DmContact => ({ pubkey, user: emptyProfile(pubkey), dmInfo: { cnt, latest_at: latest, latest_event_id: `${pubkey[0]}-latest` } });

function start(selected?: string) {
  const contactCalls: FetchContactsInput[] = [];
  const messageCalls: { input: FetchMessagesInput; resolve: (p: MessagesPage) => void }[] = [];
  const lookups: { peer: string; resolve: (p: DmProtocol) => void }[] = [];
  const resets: string[] = [];
  const machine = dmMachine.provide({
    actors: {
      fetchContacts: fromPromise<ContactsPage, FetchContactsInput>(async ({ input }) => {
        contactCalls.push(input);
        return { contacts: [] };
      }),
      fetchMessages: fromPromise<MessagesPage, FetchMessagesInput>(({ input }) => new Promise((resolve) => messageCalls.push({ input, resolve }))),
      resetCount: fromPromise<void, { peer: string }>(async ({ input }) => void resets.push(input.peer)),
      sendMessage: fromPromise<PublishResult, { peer: string; text: string }>(async () => ({ success: true, reasons: {}, outcome: 'published', event: { id: 'r1' } as NostrEvent })),
      peerProtocol: fromPromise<DmProtocol, { peer: string }>(({ input }) => new Promise((resolve) => lookups.push({ peer: input.peer, resolve }))),
    },
  });
  const actor = createActor(machine, { input: { userPubkey: ME, relation: 'any', selected } });
  actor.start();
  return { actor, contactCalls, messageCalls, lookups, resets, ctx: () => actor.getSnapshot().context };
}

describe('dm machine with private messages', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('looks up the protocol of the selected conversation, and forgets it when another is selected', async () => {
    const h = start(BOB);
    expect(h.lookups.map((l) => l.peer)).toEqual([BOB]);
    h.lookups[0].resolve('nip17');
    await flush();
    expect(h.ctx().protocol).toBe('nip17');
    h.actor.send({ type: 'SELECT', pubkey: CAROL });
    expect(h.ctx().protocol).toBeUndefined();
    expect(h.lookups.map((l) => l.peer)).toEqual([BOB, CAROL]);
    h.lookups[1].resolve('nip04');
    await flush();
    expect(h.ctx().protocol).toBe('nip04');
  });

  it('merges private messages into the open conversation, settles the outbox and resets the count; others only reload the contacts', async () => {
    const h = start(BOB);
    h.messageCalls[0].resolve({ messages: [msg('n1', 10)], received: 1, since: 10 });
    await flush();
    const contactLoads = h.contactCalls.length;
    h.actor.send({ type: 'SEND', id: 1, text: 'titok' });
    await flush();
    expect(h.ctx().outbox).toMatchObject([{ id: 1, status: 'sent', eventId: 'r1' }]);
    h.actor.send({ type: 'PRIVATE', peer: BOB, messages: [msg('r1', 20, ME, true), msg('p1', 15, BOB, true)] });
    await flush();
    expect(h.ctx().messages.map((m) => [m.id, m.private ?? false])).toEqual([
      ['n1', false],
      ['p1', true],
      ['r1', true],
    ]);
    expect(h.ctx().outbox).toEqual([]);
    expect(h.resets.filter((p) => p === BOB).length).toBeGreaterThanOrEqual(2);
    expect(h.contactCalls.length).toBeGreaterThan(contactLoads);

    const before = h.ctx().messages;
    h.actor.send({ type: 'PRIVATE', peer: CAROL, messages: [msg('c1', 30, CAROL, true)] });
    await flush();
    expect(h.ctx().messages).toEqual(before);
  });
});

describe('merging private conversations into the server lists', () => {
  it('adds the private messages of the page window only', () => {
    const own = [msg('p5', 5, BOB, true), msg('p15', 15, BOB, true), msg('p40', 40, BOB, true)];
    const full = { messages: [msg('n20', 20), msg('n30', 30)], received: 2, since: 20 };
    // A full page: only what is within its window (the older ones come with the next page).
    expect(withPrivateMessages(full, { userPubkey: ME, peer: BOB, limit: 2 }, own).messages.map((m) => m.id)).toEqual(['n20', 'n30', 'p40']);
    // The cache has no more: every older private message belongs to this last page.
    expect(withPrivateMessages({ ...full, received: 1 }, { userPubkey: ME, peer: BOB, limit: 2, until: 20 }, own).messages.map((m) => m.id)).toEqual(['n20', 'n30', 'p5', 'p15']);
    // Only private messages at all.
    expect(withPrivateMessages({ messages: [], received: 0 }, { userPubkey: ME, peer: BOB, limit: 20 }, own).messages).toHaveLength(3);
    // Fetching what is new.
    expect(withPrivateMessages({ messages: [], received: 0 }, { userPubkey: ME, peer: BOB, limit: 20, since: 15 }, own).messages.map((m) => m.id)).toEqual(['p15', 'p40']);
  });

  it('adds counts, takes the newer preview, and adds partners the server does not know to their relation only', async () => {
    const page: ContactsPage = { contacts: [contact(BOB, 2, 50)], since: 50 };
    const threads = [
      { peer: BOB, latest: msg('pb', 60, BOB, true), unread: 1 },
      { peer: CAROL, latest: msg('pc', 40, ME, true), unread: 0 },
    ];
    const profiles = vi.fn(async (pks: string[]) => new Map(pks.map((pk) => [pk, { ...emptyProfile(pk), name: 'Cili' }])));
    const any = await withPrivateContacts(page, { userPubkey: ME, relation: 'any', limit: 100 }, threads, [BOB], profiles);
    expect(any.contacts.map((c) => [c.pubkey, c.dmInfo.cnt, c.dmInfo.latest_at, c.preview, c.latestSender])).toEqual([
      [BOB, 3, 60, 'text pb', BOB],
      [CAROL, 0, 40, 'text pc', ME],
    ]);
    expect(any.contacts[1].user.name).toBe('Cili');
    const follows = await withPrivateContacts(page, { userPubkey: ME, relation: 'follows', limit: 100 }, threads, [BOB], profiles);
    expect(follows.contacts.map((c) => c.pubkey)).toEqual([BOB]);
    const other = await withPrivateContacts({ contacts: [] }, { userPubkey: ME, relation: 'other', limit: 100 }, threads, [BOB], profiles);
    expect(other.contacts.map((c) => c.pubkey)).toEqual([CAROL]);
    // Later pages are the server's alone.
    expect(await withPrivateContacts(page, { userPubkey: ME, relation: 'any', limit: 100, until: 50 }, threads, [BOB], profiles)).toBe(page);
  });
});

function localCrypto(secret: Uint8Array): PrivateCrypto {
  return {
    pubkey: getPublicKey(secret),
    sign: async (t: UnsignedEvent) => finalizeEvent(t, secret) as NostrEvent,
    nip44Encrypt: async (pk, text) => v2.encrypt(text, v2.utils.getConversationKey(secret, pk)),
    nip44Decrypt: async (pk, text) => v2.decrypt(text, v2.utils.getConversationKey(secret, pk)),
  };
}

/** The relay pool's surface the inbox uses: subscriptions are captured, sends answered OK. */
function fakeRelays() {
  const subs: { filters: unknown; onEvent: (e: NostrEvent) => void }[] = [];
  const sent: { url: string; event: NostrEvent }[] = [];
  let pool: string[] = [];
  const relays = {
    setFromEvent: (e: { tags: string[][] }) => void (pool = e.tags.map((t) => t[1])),
    subscribe: (filters: unknown, h: { onEvent: (e: NostrEvent) => void }) => {
      subs.push({ filters, onEvent: h.onEvent });
      return { subId: 's', close: () => undefined };
    },
    snapshot: () => pool.map((url) => ({ url })),
    add: (url: string) => void pool.push(url),
    sendEvent: (url: string, event: NostrEvent, done: (a: { relay: string; ok: boolean; message: string }) => void) => {
      sent.push({ url, event });
      queueMicrotask(() => done({ relay: url, ok: true, message: '' }));
      return () => undefined;
    },
  };
  return { relays: relays as unknown as RelayService, subs, sent, pool: () => pool };
}

describe('PrivateInbox', () => {
  const OUR = 'wss://strucc.example/relay';
  const INBOX = 'wss://inbox.example';

  it('publishes a missing inbox list, reads wraps after unwrapping, counts unread up to the own answer, and sends to both inboxes', async () => {
    const me = generateSecretKey();
    const bob = generateSecretKey();
    const mePk = getPublicKey(me);
    const bobPk = getPublicKey(bob);
    const published: UnsignedEvent[] = [];
    const marks: Record<string, number>[] = [];
    const news: [string, string[]][] = [];
    const unread: number[] = [];
    const fake = fakeRelays();
    const request = async (command: string, payload?: Record<string, unknown>): Promise<CacheReply> => {
      if (command === 'get_default_relays') return { events: [{ kind: 10000124, content: JSON.stringify([OUR]) }] } as CacheReply;
      if (command === 'replaceable_event' && payload?.pubkey === bobPk)
        return { events: [finalizeEvent({ kind: 10050, created_at: 1, tags: [['relay', INBOX]], content: '' }, bob)] } as unknown as CacheReply;
      return { events: [] } as unknown as CacheReply;
    };
    const inbox = new PrivateInbox({
      request,
      relays: fake.relays,
      crypto: () => localCrypto(me),
      publish: async (e) => {
        published.push(e);
        return { success: true, reasons: {}, outcome: 'published' };
      },
      readMarks: () => ({}),
      saveReadMarks: (m) => void marks.push(m),
      onMessages: (peer, list) => void news.push([peer, list.map((m) => m.content)]),
      onUnread: (n) => void unread.push(n),
    });
    inbox.setUser(mePk, true);
    // Every login snapshot reaches setUser: the same user opening again changes nothing.
    inbox.setUser(mePk, true);
    await vi.waitFor(() => expect(fake.subs).toHaveLength(1));
    expect(published).toMatchObject([{ kind: 10050, tags: [['relay', OUR]] }]);
    expect(published).toHaveLength(1);
    expect(fake.pool()).toEqual([OUR]);
    expect(fake.subs[0].filters).toEqual([{ kinds: [1059], '#p': [mePk] }]);

    const bobCrypto = localCrypto(bob);
    const first = await wrapPrivateMessage(bobCrypto, mePk, 'Szia!', 100);
    const second = await wrapPrivateMessage(bobCrypto, mePk, 'Ott leszel?', 110);
    fake.subs[0].onEvent(first.toRecipient);
    fake.subs[0].onEvent(second.toRecipient);
    // Someone else's wrap is not opened (the relay should not have sent it).
    fake.subs[0].onEvent(first.toSelf);
    await vi.waitFor(() => expect(inbox.messagesWith(bobPk)).toHaveLength(2));
    expect(inbox.unreadTotal()).toBe(2);
    expect(inbox.threadList()).toMatchObject([{ peer: bobPk, unread: 2, latest: { content: 'Ott leszel?', private: true } }]);
    expect(await inbox.protocolFor(bobPk)).toBe('nip17');
    expect(await inbox.protocolFor('f'.repeat(64))).toBe('nip04');

    // An answer means what came before it was read.
    const result = await inbox.send(bobPk, 'Igen!');
    expect(result.success).toBe(true);
    const urls = fake.sent.map((s) => s.url);
    expect(urls).toEqual(expect.arrayContaining([INBOX, OUR]));
    expect(fake.sent.every((s) => s.event.kind === 1059)).toBe(true);
    const sentMsg = inbox.messagesWith(bobPk).at(-1)!;
    expect(result.event?.id).toBe(sentMsg.id);
    expect(sentMsg).toMatchObject({ sender: mePk, content: 'Igen!', private: true });
    expect(inbox.unreadTotal()).toBe(0);

    const third = await wrapPrivateMessage(bobCrypto, mePk, 'Szuper', Math.floor(Date.now() / 1000) + 5);
    fake.subs[0].onEvent(third.toRecipient);
    await vi.waitFor(() => expect(inbox.unreadTotal()).toBe(1));
    inbox.markRead(bobPk);
    expect(inbox.unreadTotal()).toBe(0);
    expect(marks.at(-1)).toEqual({ [bobPk]: third.rumor.created_at });
    expect(unread.at(-1)).toBe(0);
    expect(news.map(([p]) => p).every((p) => p === bobPk)).toBe(true);
    inbox.dispose();
  });

  it('does not open an inbox for a login that cannot decrypt, and refuses to send without a key', async () => {
    const fake = fakeRelays();
    const inbox = new PrivateInbox({
      request: async () => ({ events: [] }) as unknown as CacheReply,
      relays: fake.relays,
      crypto: () => undefined,
      publish: async () => ({ success: true, reasons: {}, outcome: 'published' }),
      readMarks: () => ({}),
      saveReadMarks: () => undefined,
      onMessages: () => undefined,
      onUnread: () => undefined,
    });
    inbox.setUser(ME, false);
    await Promise.resolve();
    expect(fake.subs).toEqual([]);
    expect(await inbox.send(BOB, 'x')).toMatchObject({ success: false, reasons: { '*': 'encrypt-no-nsec' } });
  });
});

describe('DmService with the private inbox', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('adds private unread messages to the badge, sends NIP-17 where the peer has inbox relays, pushes new ones to the open page and marks all read', async () => {
    let privateUnread = 2;
    const thread: DirectMessage[] = [msg('p1', 50, BOB, true)];
    const calls: string[] = [];
    const published: UnsignedEvent[] = [];
    const inbox = {
      messagesWith: (peer: string) => (peer === BOB ? thread : []),
      threadList: () => [{ peer: BOB, latest: thread.at(-1)!, unread: privateUnread }],
      unreadTotal: () => privateUnread,
      markRead: (peer: string) => void calls.push(`read:${peer}`),
      markAllRead: () => {
        calls.push('all');
        privateUnread = 0;
      },
      protocolFor: async (peer: string): Promise<DmProtocol> => (peer === BOB ? 'nip17' : 'nip04'),
      send: async (peer: string, text: string): Promise<PublishResult> => {
        calls.push(`send:${peer}:${text}`);
        return { success: true, reasons: {}, outcome: 'published', event: { id: 'r-sent' } as NostrEvent };
      },
    };
    const counts: ((e: { kind: number; cnt?: number }) => void)[] = [];
    const svc = new DmService({
      request: async () => ({ events: [] }) as unknown as CacheReply,
      subscribe: (_c, _p, handlers) => {
        counts.push(handlers.onEvent as (e: { kind: number; cnt?: number }) => void);
        return { subid: 's', close: () => undefined };
      },
      signRequest: async (op) => ({ id: 'i', pubkey: ME, created_at: 1, kind: 30078, tags: [['d', 'Primal-Web App', op]], content: '{}', sig: 's' }),
      encrypt: async (_p, text) => text,
      decrypt: async (_p, text) => text,
      publish: async (e) => {
        published.push(e);
        return { success: true, reasons: {}, outcome: 'published' };
      },
      remembered: () => ({ relation: 'any' }),
      remember: () => undefined,
      inbox,
      following: () => [],
      throttleMs: 0,
    });
    svc.setUser(ME);
    await flush();
    const totals: number[] = [];
    svc.watchCount('t', (n) => void totals.push(n), () => undefined);
    counts[0]({ kind: 10000117, cnt: 3 });
    await flush();
    expect(totals.at(-1)).toBe(5);
    const snaps: DmSnapshot[] = [];
    const handle = svc.open('t', (s) => void snaps.push(s), () => undefined);
    await flush();
    expect(snaps.at(-1)?.contacts.map((c) => [c.pubkey, c.dmInfo.cnt, c.latestPrivate])).toEqual([[BOB, 2, true]]);

    svc.select(handle, BOB);
    await flush();
    expect(snaps.at(-1)?.protocol).toBe('nip17');
    expect(snaps.at(-1)?.messages.map((m) => m.id)).toEqual(['p1']);
    expect(calls).toContain(`read:${BOB}`);
    expect((await svc.send(handle, 'titok')).success).toBe(true);
    expect(calls).toContain(`send:${BOB}:titok`);
    expect(published).toEqual([]);
    // Another tab's message, or one received: batched to the open page.
    svc.privateMessages(BOB, [msg('p2', 60, BOB, true)]);
    await vi.advanceTimersByTimeAsync(150);
    expect(snaps.at(-1)?.messages.map((m) => m.id)).toEqual(['p1', 'p2']);

    expect(await svc.markAllRead()).toEqual({ ok: true });
    expect(calls).toContain('all');
    // Both the server's count and the private ones are cleared.
    expect(totals.at(-1)).toBe(0);
    svc.dispose();
  });
});
