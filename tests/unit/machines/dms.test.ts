import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  contactsStatusOf,
  conversationStatusOf,
  dmMachine,
  type ContactsPage,
  type FetchContactsInput,
  type FetchMessagesInput,
  type MessagesPage,
} from '../../../machines/dms.ts';
import { DmService, fetchMessages, parseContacts, withPreviews } from '../../../worker/dms.ts';
import { emptyProfile } from '../../../core/profile.ts';
import type { Subscription } from '../../../worker/cache.ts';
import type { CacheReply, DirectMessage, DmContact, DmSnapshot, PublishResult, UnsignedEvent } from '../../../core/types.ts';

const ME = 'a'.repeat(64);
const BOB = 'b'.repeat(64);
const CAROL = 'c'.repeat(64);
const flush = () => vi.advanceTimersByTimeAsync(0);

function contact(pubkey: string, cnt: number, latest = 100): DmContact {
  return { pubkey, user: emptyProfile(pubkey), dmInfo: { cnt, latest_at: latest, latest_event_id: `${pubkey.slice(0, 4)}-latest` } };
}
function msg(id: string, createdAt: number, sender = BOB): DirectMessage {
  return { id, sender, content: `text ${id}`, created_at: createdAt };
}

function start(input: { selected?: string; unreadTotal?: number; userPubkey?: string } = {}) {
  const contactCalls: { input: FetchContactsInput; resolve: (p: ContactsPage) => void }[] = [];
  const messageCalls: { input: FetchMessagesInput; resolve: (p: MessagesPage) => void }[] = [];
  const resets: string[] = [];
  const sends: { input: { peer: string; text: string }; resolve: (r: PublishResult) => void }[] = [];
  const machine = dmMachine.provide({
    actors: {
      fetchContacts: fromPromise<ContactsPage, FetchContactsInput>(({ input: i }) => new Promise((resolve) => contactCalls.push({ input: i, resolve }))),
      fetchMessages: fromPromise<MessagesPage, FetchMessagesInput>(({ input: i }) => new Promise((resolve) => messageCalls.push({ input: i, resolve }))),
      resetCount: fromPromise<void, { peer: string }>(async ({ input: i }) => void resets.push(i.peer)),
      sendMessage: fromPromise<PublishResult, { peer: string; text: string }>(({ input: i }) => new Promise((resolve) => sends.push({ input: i, resolve }))),
    },
  });
  const actor = createActor(machine, { input: { userPubkey: ME, relation: 'follows', ...input } });
  const sent: { id: number; result: PublishResult }[] = [];
  actor.on('sent', (e) => sent.push({ id: e.id, result: e.result }));
  actor.start();
  return { actor, contactCalls, messageCalls, resets, sends, sent, ctx: () => actor.getSnapshot().context };
}

const messages = (list: DirectMessage[]): MessagesPage => ({
  messages: list,
  received: list.length,
  since: list.length ? Math.min(...list.map((m) => m.created_at)) : undefined,
});

describe('dm machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('loads the contacts of the relation; selecting a contact loads 20 messages and resets its count', async () => {
    const h = start();
    expect(h.contactCalls[0].input).toEqual({ userPubkey: ME, relation: 'follows', limit: 100 });
    h.contactCalls[0].resolve({ contacts: [contact(BOB, 3), contact(CAROL, 1, 90)], since: 90 });
    await flush();
    expect(contactsStatusOf(h.actor.getSnapshot())).toBe('ready');
    expect(conversationStatusOf(h.actor.getSnapshot())).toBe('idle');

    h.actor.send({ type: 'SELECT', pubkey: BOB });
    expect(h.ctx().contacts.find((c) => c.pubkey === BOB)?.dmInfo.cnt).toBe(0);
    expect(h.messageCalls[0].input).toEqual({ userPubkey: ME, peer: BOB, limit: 20 });
    expect(h.contactCalls).toHaveLength(1);
    await flush();
    expect(h.resets).toEqual([BOB]);
    h.messageCalls[0].resolve(messages([msg('m3', 30), msg('m2', 20)]));
    await flush();
    // Oldest first, as the chat shows them.
    expect(h.ctx().messages.map((m) => m.id)).toEqual(['m2', 'm3']);

    h.actor.send({ type: 'LOAD_MORE' });
    expect(h.messageCalls[1].input).toEqual({ userPubkey: ME, peer: BOB, limit: 20, until: 20 });
    h.messageCalls[1].resolve(messages([msg('m2', 20), msg('m1', 10)]));
    await flush();
    expect(h.ctx().messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
  });

  it('a rising total reloads the contacts; a rise of the open contact fetches new messages and resets again', async () => {
    const h = start({ selected: BOB, unreadTotal: 0 });
    // The remembered conversation opens with the page.
    expect(h.messageCalls[0].input.peer).toBe(BOB);
    h.contactCalls[0].resolve({ contacts: [contact(BOB, 0), contact(CAROL, 0)] });
    h.messageCalls[0].resolve(messages([msg('m1', 10)]));
    await flush();
    expect(h.resets).toEqual([BOB]);

    h.actor.send({ type: 'TOTAL', count: 0 });
    expect(h.contactCalls).toHaveLength(1);
    h.actor.send({ type: 'TOTAL', count: 2 });
    expect(h.contactCalls).toHaveLength(2);
    // The open conversation looks for news at once, whether or not its contact is in the shown list.
    expect(h.messageCalls[1].input).toEqual({ userPubkey: ME, peer: BOB, limit: 20, since: 10 });
    h.contactCalls[1].resolve({ contacts: [contact(BOB, 1), contact(CAROL, 1)] });
    await flush();
    expect(h.messageCalls).toHaveLength(2);
    expect(h.ctx().contacts.find((c) => c.pubkey === BOB)?.dmInfo.cnt).toBe(0);
    expect(h.ctx().contacts.find((c) => c.pubkey === CAROL)?.dmInfo.cnt).toBe(1);
    expect(h.resets).toEqual([BOB]);
    h.messageCalls[1].resolve(messages([msg('m1', 10), msg('m4', 40)]));
    await flush();
    expect(h.ctx().messages.map((m) => m.id)).toEqual(['m1', 'm4']);
    // News from the open contact: its count is reset again.
    expect(h.resets).toEqual([BOB, BOB]);
    // A rise from someone else brings nothing new here: no reset.
    h.actor.send({ type: 'TOTAL', count: 3 });
    h.messageCalls[2].resolve(messages([msg('m4', 40)]));
    await flush();
    expect(h.resets).toEqual([BOB, BOB]);
    // A fall (someone read elsewhere) only updates the total.
    h.actor.send({ type: 'TOTAL', count: 1 });
    expect(h.contactCalls).toHaveLength(3);
    expect(h.messageCalls).toHaveLength(3);
  });

  it('sending: the text goes to the selected contact, the caller gets the result, the conversation refreshes', async () => {
    const h = start();
    h.actor.send({ type: 'SEND', id: 1, text: 'szia' });
    expect(h.sent).toEqual([{ id: 1, result: expect.objectContaining({ success: false, reasons: { '*': 'no-conversation' } }) }]);
    h.contactCalls[0].resolve({ contacts: [contact(BOB, 0)] });
    h.actor.send({ type: 'SELECT', pubkey: BOB });
    h.messageCalls[0].resolve(messages([msg('m1', 10)]));
    await flush();
    h.actor.send({ type: 'SEND', id: 2, text: 'szia' });
    expect(h.actor.getSnapshot().matches({ sending: 'sending' })).toBe(true);
    // Shown at once as pending; a second message waits in the queue instead of being refused.
    h.actor.send({ type: 'SEND', id: 3, text: 'még' });
    expect(h.ctx().outbox.map((o) => [o.id, o.peer, o.text, o.status])).toEqual([
      [2, BOB, 'szia', 'pending'],
      [3, BOB, 'még', 'pending'],
    ]);
    expect(h.sends).toHaveLength(1);
    expect(h.sends[0].input).toEqual({ peer: BOB, text: 'szia' });
    const event = { id: 'e2', pubkey: ME, created_at: 11, kind: 4, tags: [['p', BOB]], content: 'x', sig: 's' };
    h.sends[0].resolve({ success: true, reasons: {}, outcome: 'published', event });
    await flush();
    expect(h.sent.at(-1)).toEqual({ id: 2, result: { success: true, reasons: {}, outcome: 'published', event } });
    expect(h.ctx().outbox.find((o) => o.id === 2)).toMatchObject({ status: 'sent', eventId: 'e2' });
    expect(h.messageCalls[1].input).toMatchObject({ peer: BOB, since: 10 });
    // The queued one goes out next.
    expect(h.sends[1].input).toEqual({ peer: BOB, text: 'még' });
    // The sent message came back from the cache: it leaves the outbox, the conversation has it.
    h.messageCalls[1].resolve(messages([{ id: 'e2', sender: ME, content: 'szia', created_at: 11 }]));
    await flush();
    expect(h.ctx().messages.map((m) => m.id)).toEqual(['m1', 'e2']);
    expect(h.ctx().outbox.map((o) => o.id)).toEqual([3]);
  });

  it('a failed send keeps the message with its reason; RETRY sends it again', async () => {
    const h = start({ selected: BOB });
    h.contactCalls[0].resolve({ contacts: [contact(BOB, 0)] });
    h.messageCalls[0].resolve(messages([]));
    await flush();
    h.actor.send({ type: 'SEND', id: 7, text: 'szia' });
    h.sends[0].resolve({ success: false, reasons: { 'wss://r.example': 'blocked: spam' }, outcome: 'failed' });
    await flush();
    expect(h.ctx().outbox).toEqual([expect.objectContaining({ id: 7, status: 'failed', reason: 'blocked: spam' })]);
    expect(h.sends).toHaveLength(1);
    expect(h.actor.getSnapshot().matches({ sending: 'idle' })).toBe(true);

    h.actor.send({ type: 'RETRY', id: 7 });
    expect(h.ctx().outbox[0]).toMatchObject({ id: 7, status: 'pending' });
    expect(h.ctx().outbox[0].reason).toBeUndefined();
    expect(h.sends[1].input).toEqual({ peer: BOB, text: 'szia' });
    // An encryption error (no key) fails the same way, with its code as the reason.
    h.sends[1].resolve(Promise.reject(new Error('encrypt-no-nsec')) as unknown as PublishResult);
    await flush();
    expect(h.ctx().outbox[0]).toMatchObject({ status: 'failed', reason: 'encrypt-no-nsec' });
    expect(h.sent.at(-1)).toMatchObject({ id: 7, result: { success: false, reasons: { '*': 'encrypt-no-nsec' } } });
  });

  it('a page with undecryptable messages tells why; another conversation starts clean', async () => {
    const h = start({ selected: BOB });
    h.contactCalls[0].resolve({ contacts: [contact(BOB, 0)] });
    h.messageCalls[0].resolve({ messages: [], received: 2, since: 5, undecryptable: 'no_nostr_extension' });
    await flush();
    expect(h.ctx().decryptError).toBe('no_nostr_extension');
    h.actor.send({ type: 'SELECT', pubkey: CAROL });
    expect(h.ctx().decryptError).toBeUndefined();
    h.messageCalls[1].resolve(messages([msg('c1', 10, CAROL)]));
    await flush();
    expect(h.ctx().decryptError).toBeUndefined();
  });

  it('a new user empties the outbox', async () => {
    const h = start({ selected: BOB });
    h.actor.send({ type: 'SEND', id: 1, text: 'szia' });
    expect(h.ctx().outbox).toHaveLength(1);
    h.actor.send({ type: 'USER', pubkey: CAROL });
    expect(h.ctx().outbox).toEqual([]);
    // Another account's conversation is not carried over.
    expect(h.ctx().selected).toBeUndefined();
    expect(conversationStatusOf(h.actor.getSnapshot())).toBe('idle');
  });

  it('a page opened before the stored login settled keeps the conversation the address asked for and loads it for the user', async () => {
    const h = start({ userPubkey: '' });
    h.actor.send({ type: 'SELECT', pubkey: BOB });
    expect(h.messageCalls.at(-1)!.input).toEqual({ userPubkey: '', peer: BOB, limit: 20 });
    h.actor.send({ type: 'USER', pubkey: ME });
    expect(h.ctx().selected).toBe(BOB);
    expect(conversationStatusOf(h.actor.getSnapshot())).toBe('loading');
    expect(h.messageCalls.at(-1)!.input).toEqual({ userPubkey: ME, peer: BOB, limit: 20 });
    h.messageCalls.at(-1)!.resolve(messages([msg('m1', 10)]));
    await flush();
    expect(h.ctx().messages.map((m) => m.id)).toEqual(['m1']);
    expect(conversationStatusOf(h.actor.getSnapshot())).toBe('ready');
  });
});

describe('dm worker side', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const dm = (id: string, from: string, to: string, content: string, createdAt: number) => ({
    id,
    pubkey: from,
    created_at: createdAt,
    kind: 4,
    tags: [['p', to]],
    content,
    sig: 's',
  });

  it('a message that fails to decrypt is skipped, paging still goes on', async () => {
    const reply: CacheReply = {
      events: [dm('x1', BOB, ME, 'ok-1', 30), dm('x2', ME, BOB, 'broken', 20), dm('x3', BOB, ME, 'ok-3', 10), { kind: 10000113, content: JSON.stringify({ since: 10, until: 30, order_by: 'created_at', elements: ['x1', 'x2', 'x3'] }) }],
    };
    const asked: Record<string, unknown>[] = [];
    const page = await fetchMessages(
      async (_c, payload) => {
        asked.push(payload ?? {});
        return reply;
      },
      async (peer, text) => {
        expect(peer).toBe(BOB);
        if (text === 'broken') throw new Error('bad-cipher');
        return `plain ${text}`;
      },
      { userPubkey: ME, peer: BOB, limit: 20 },
    );
    expect(asked[0]).toEqual({ receiver: ME, sender: BOB, limit: 20 });
    expect(page.messages.map((m) => m.id)).toEqual(['x1', 'x3']);
    expect(page.messages[0]).toEqual({ id: 'x1', sender: BOB, content: 'plain ok-1', created_at: 30 });
    expect(page).toMatchObject({ received: 3, since: 10 });
  });

  it('previews the latest message decrypted; what cannot be decrypted is skipped and counted', async () => {
    const failures: [number, string][] = [];
    const onFailed = (n: number, peer: string) => void failures.push([n, peer]);
    const decrypt = async (_peer: string, text: string) => {
      if (text.startsWith('broken')) throw new Error('bad-cipher');
      return `plain ${text}`;
    };
    const bob = { ...contact(BOB, 1), latest: dm('l1', BOB, ME, 'hello', 30) };
    const carol = { ...contact(CAROL, 0), latest: dm('l2', ME, CAROL, 'broken', 20) };
    const page = await withPreviews({ contacts: [bob, carol, contact(ME, 0)] }, decrypt, onFailed);
    expect(page.contacts.map((c) => c.preview)).toEqual(['plain hello', undefined, undefined]);
    const messagesPage = await fetchMessages(
      async () => ({ events: [dm('x1', BOB, ME, 'broken-1', 30), dm('x2', BOB, ME, 'broken-2', 20), dm('x3', BOB, ME, 'ok', 10)] }),
      decrypt,
      { userPubkey: ME, peer: BOB, limit: 20 },
      onFailed,
    );
    expect(messagesPage.messages.map((m) => m.id)).toEqual(['x3']);
    expect(messagesPage.undecryptable).toBe('bad-cipher');
    expect(failures).toEqual([
      [1, CAROL],
      [2, BOB],
    ]);
  });

  it('reads contacts in RANGE order with counts, latest message and profile', () => {
    const page = parseContacts([
      { kind: 10000118, content: JSON.stringify({ [BOB]: { cnt: 2, latest_at: 50, latest_event_id: 'x1' }, [CAROL]: { cnt: 0, latest_at: 60, latest_event_id: 'x9' } }) },
      dm('x1', BOB, ME, 'c', 50),
      { kind: 0, id: 'p'.repeat(64), pubkey: BOB, created_at: 1, tags: [], content: '{"name":"bob"}', sig: 's' },
      { kind: 10000113, content: JSON.stringify({ since: 50, until: 60, order_by: 'latest_at', elements: [CAROL, BOB] }) },
    ]);
    expect(page.contacts.map((c) => c.pubkey)).toEqual([CAROL, BOB]);
    expect(page.contacts[1]).toMatchObject({ dmInfo: { cnt: 2, latest_at: 50, latest_event_id: 'x1' }, user: { name: 'bob' }, latest: { id: 'x1' } });
    expect(page.since).toBe(50);
  });

  it('the service: directmsg_count feeds open pages, send encrypts and publishes a kind 4 with a p tag, choices are remembered', async () => {
    const subs: { command: string; onEvent: (e: { kind: number; [k: string]: unknown }) => void; closed: boolean }[] = [];
    const published: UnsignedEvent[] = [];
    const remembered: unknown[] = [];
    const requests: { command: string; payload?: Record<string, unknown> }[] = [];
    const svc = new DmService({
      request: async (command, payload) => {
        requests.push({ command, payload });
        return { events: [] };
      },
      subscribe: (command, _payload, handlers): Subscription => {
        const entry = { command, onEvent: handlers.onEvent, closed: false };
        subs.push(entry);
        return { subid: 's', close: () => void (entry.closed = true) };
      },
      signRequest: async (op, content) => ({ id: 'i', pubkey: ME, created_at: 1, kind: 30078, tags: [['d', 'Primal-Web App', op]], content: JSON.stringify(content ?? {}), sig: 's' }),
      encrypt: async (peer, text) => `enc(${peer.slice(0, 2)}):${text}`,
      decrypt: async (_peer, text) => text,
      publish: async (event) => {
        published.push(event);
        return { success: true, reasons: {}, outcome: 'published' };
      },
      remembered: () => ({ relation: 'other' }),
      remember: (patch) => void remembered.push(patch),
      throttleMs: 0,
    });
    svc.setUser(ME);
    await flush();
    expect(subs[0].command).toBe('directmsg_count');
    const snaps: DmSnapshot[] = [];
    const handle = svc.open('t1', (s) => snaps.push(s), () => undefined);
    await flush();
    expect(requests[0]).toMatchObject({
      command: 'get_directmsg_contacts',
      payload: { user_pubkey: ME, relation: 'other', event_from_user: { tags: [['d', 'Primal-Web App', 'get_directmsg_contacts']] } },
    });
    subs[0].onEvent({ kind: 10000117, cnt: 4 });
    await flush();
    expect(snaps.at(-1)?.unreadTotal).toBe(4);
    expect(requests.filter((r) => r.command === 'get_directmsg_contacts')).toHaveLength(2);

    svc.select(handle, BOB);
    await flush();
    const reset = requests.find((r) => r.command === 'reset_directmsg_count');
    // The peer is inside the signed content, not next to it.
    expect(reset?.payload).toMatchObject({ event_from_user: { tags: [['d', 'Primal-Web App', 'reset_direct_message_count']], content: JSON.stringify({ sender: BOB }) } });
    expect(reset?.payload).not.toHaveProperty('sender');
    const result = await svc.send(handle, 'szia');
    expect(result.success).toBe(true);
    expect(published[0]).toMatchObject({ kind: 4, tags: [['p', BOB]], content: 'enc(bb):szia' });
    svc.setRelation(handle, 'follows');
    expect(remembered).toEqual([{ dmLastConversation: BOB }, { dmLastRelation: 'follows' }]);

    expect(await svc.markAllRead()).toEqual({ ok: true });
    expect(requests.find((r) => r.command === 'reset_directmsg_counts')?.payload).toMatchObject({
      event_from_user: { tags: [['d', 'Primal-Web App', 'mark_all_dms_as_read']] },
    });
    svc.closeTab('t1');
    svc.dispose();
    expect(subs[0].closed).toBe(true);
  });
});
