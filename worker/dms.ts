/**
 * Runs machines/dms.ts in the worker: the contact list and conversations over the cache socket,
 * NIP-04 through the account's signer, sending through the publish service, and one shared
 * directmsg_count subscription (the count machine of machines/notifications.ts: the same rule —
 * open only while signed in and active) whose total every open DM page follows.
 */
import { createActor, fromCallback, fromPromise, type Actor } from 'xstate';
import { notificationCountMachine, type CountEvent } from '../machines/notifications.ts';
import {
  contactsStatusOf,
  conversationStatusOf,
  dmMachine,
  isSending,
  type ContactsPage,
  type FetchContactsInput,
  type FetchMessagesInput,
  type MessagesPage,
} from '../machines/dms.ts';
import { isNostrEvent, K } from '../core/bundle.ts';
import type { CacheRequest } from './feeds.ts';
import { InstanceRegistry, Watchers } from './instances.ts';
import { signedSubscription, type CacheSubscribe, type RequestSigner } from './signedSubscription.ts';
import { emptyProfile, parseProfile } from '../core/profile.ts';
import { attachLooks, membershipLooks } from '../core/membershipLooks.ts';
import type { DmProtocol, PrivateThread } from './dmsPrivate.ts';
import type {
  AccountLocalPatch,
  ActionResult,
  CacheObject,
  DirectMessage,
  DmContact,
  DmInfo,
  DmRelation,
  DmSnapshot,
  NostrEvent,
  Profile,
  PublishResult,
  UnsignedEvent,
} from '../core/types.ts';
import { CacheKind } from '../core/kinds.ts';

export const ENCRYPTED_DM = 4;
export const RESET_DM_COUNT_OP = 'reset_direct_message_count';
export const MARK_ALL_DMS_READ_OP = 'mark_all_dms_as_read';
/** Ops of the private reads: the command names (the reference names none for them). */
export const DM_COUNT_OP = 'directmsg_count';
export const DM_CONTACTS_OP = 'get_directmsg_contacts';

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

interface RangeInfo {
  since?: number;
  elements: string[];
}

function rangeOf(objects: CacheObject[]): RangeInfo | undefined {
  const o = objects.find((x) => x.kind === CacheKind.RANGE);
  const c = parseJson(o?.content) as { since?: unknown; elements?: unknown } | undefined;
  if (!c || typeof c !== 'object') return undefined;
  return {
    since: typeof c.since === 'number' ? c.since : undefined,
    elements: Array.isArray(c.elements) ? c.elements.filter((x): x is string => typeof x === 'string') : [],
  };
}

export function profilesOf(objects: CacheObject[]): Map<string, Profile> {
  const out = new Map<string, Profile>();
  for (const o of objects) {
    if (o.kind !== K.METADATA || !isNostrEvent(o)) continue;
    const seen = out.get(o.pubkey);
    if (!seen || seen.created_at < o.created_at) out.set(o.pubkey, parseProfile(o));
  }
  attachLooks(out.values(), membershipLooks(objects));
  return out;
}

/** get_directmsg_contacts (protocol S §3.6) to contacts in RANGE order, most recent first. */
export function parseContacts(objects: CacheObject[]): ContactsPage {
  const summaryObj = objects.find((o) => o.kind === CacheKind.DM_COUNTS);
  const summary = (parseJson(summaryObj?.content) ?? {}) as Record<string, Partial<DmInfo>>;
  const events = new Map<string, NostrEvent>();
  for (const o of objects) if (o.kind === ENCRYPTED_DM && isNostrEvent(o)) events.set(o.id, o);
  const profiles = profilesOf(objects);
  const range = rangeOf(objects);
  const order = range?.elements.length
    ? range.elements
    : Object.keys(summary).sort((a, b) => Number(summary[b]?.latest_at ?? 0) - Number(summary[a]?.latest_at ?? 0));
  const contacts: DmContact[] = [];
  for (const pubkey of order) {
    const info = summary[pubkey];
    if (!info) continue;
    const dmInfo: DmInfo = { cnt: Number(info.cnt ?? 0), latest_at: Number(info.latest_at ?? 0), latest_event_id: String(info.latest_event_id ?? '') };
    const contact: DmContact = { pubkey, user: profiles.get(pubkey) ?? emptyProfile(pubkey), dmInfo };
    const latest = events.get(dmInfo.latest_event_id);
    if (latest) contact.latest = latest;
    contacts.push(contact);
  }
  return { contacts, since: range?.since };
}

/**
 * get_directmsg_contacts. Unread counts per peer are answered only to the user's own signed
 * request; a login that cannot sign (read-only, PIN-locked) still gets the list, with no counts.
 */
export async function fetchContacts(request: CacheRequest, input: FetchContactsInput, signRequest?: RequestSigner): Promise<ContactsPage> {
  if (!input.userPubkey) throw new Error('no-pubkey');
  const payload: Record<string, unknown> = { user_pubkey: input.userPubkey, relation: input.relation, limit: input.limit };
  if (input.until !== undefined) payload.until = input.until;
  if (signRequest) {
    const event = await signRequest(DM_CONTACTS_OP).catch(() => undefined);
    if (event && event.pubkey === input.userPubkey) payload.event_from_user = event;
  }
  const reply = await request('get_directmsg_contacts', payload);
  if (reply.notice !== undefined) throw new Error(reply.notice);
  return parseContacts(reply.events);
}

/** NIP-04 decryption with the conversation partner's key (the shared secret is the same both ways). */
export type Decrypt = (peer: string, ciphertext: string) => Promise<string>;

/** Called with how many events of a page could not be decrypted (for the devtools log). */
export type OnUndecryptable = (count: number, peer: string) => void;

/** Each contact's latest message decrypted for the list; one that cannot be keeps no preview. */
export async function withPreviews(page: ContactsPage, decrypt: Decrypt, onFailed?: OnUndecryptable): Promise<ContactsPage> {
  const contacts = await Promise.all(
    page.contacts.map(async (c): Promise<DmContact> => {
      if (!c.latest || c.latest.kind !== ENCRYPTED_DM) return c;
      try {
        return { ...c, preview: await decrypt(c.pubkey, c.latest.content) };
      } catch {
        onFailed?.(1, c.pubkey);
        return c;
      }
    }),
  );
  return { ...page, contacts };
}

/** get_directmsgs, decrypted; a message that fails to decrypt is skipped (spec §4). */
export async function fetchMessages(request: CacheRequest, decrypt: Decrypt, input: FetchMessagesInput, onFailed?: OnUndecryptable): Promise<MessagesPage> {
  const payload: Record<string, unknown> = { receiver: input.userPubkey, sender: input.peer, limit: input.limit };
  if (input.until !== undefined) payload.until = input.until;
  if (input.since !== undefined) payload.since = input.since;
  const reply = await request('get_directmsgs', payload);
  if (reply.notice !== undefined) throw new Error(reply.notice);
  const events = reply.events.filter((o): o is CacheObject & NostrEvent => o.kind === ENCRYPTED_DM && isNostrEvent(o));
  let undecryptable: string | undefined;
  const decrypted = await Promise.all(
    events.map(async (e): Promise<DirectMessage | undefined> => {
      try {
        return { id: e.id, sender: e.pubkey, content: await decrypt(input.peer, e.content), created_at: e.created_at };
      } catch (err) {
        undecryptable ??= err instanceof Error ? err.message : String(err);
        return undefined;
      }
    }),
  );
  const messages = decrypted.filter((m): m is DirectMessage => m !== undefined);
  if (messages.length < events.length) onFailed?.(events.length - messages.length, input.peer);
  let since = rangeOf(reply.events)?.since;
  if (since === undefined && events.length) since = Math.min(...events.map((e) => e.created_at));
  const page: MessagesPage = { messages, received: events.length, since };
  if (undecryptable !== undefined) page.undecryptable = undecryptable;
  return page;
}

export interface DmServiceOptions {
  request: CacheRequest;
  subscribe: CacheSubscribe;
  signRequest: RequestSigner;
  encrypt: (peer: string, plaintext: string) => Promise<string>;
  decrypt: Decrypt;
  publish: (event: UnsignedEvent) => Promise<PublishResult>;
  /** The signed-in user's remembered DM page (dmLastConversation, dmLastRelation). */
  remembered: () => { conversation?: string; relation?: DmRelation };
  remember: (patch: AccountLocalPatch) => void;
  /** Messages skipped because they could not be decrypted: counted in the devtools log. */
  onUndecryptable?: OnUndecryptable;
  /** NIP-17: the private conversations unwrapped in the worker (worker/dmsPrivate.ts). */
  inbox?: PrivateConversations;
  /** Whom the user follows (the follows/other relations of private conversations). */
  following?: () => readonly string[];
  throttleMs?: number;
}

/** What DmService needs of worker/dmsPrivate.ts's PrivateInbox. */
export interface PrivateConversations {
  messagesWith(peer: string): DirectMessage[];
  threadList(): PrivateThread[];
  unreadTotal(): number;
  markRead(peer: string): void;
  markAllRead(): void;
  protocolFor(peer: string): Promise<DmProtocol>;
  send(peer: string, text: string): Promise<PublishResult>;
}

/**
 * The private messages of a conversation page's window, added to the cache's NIP-04 page: from the
 * page's oldest message up (all older ones once the cache has no more), up to `until`.
 */
export function withPrivateMessages(page: MessagesPage, input: FetchMessagesInput, own: DirectMessage[]): MessagesPage {
  if (own.length === 0) return page;
  const lower = input.since ?? (page.received < input.limit ? -Infinity : (page.since ?? -Infinity));
  const upper = input.until ?? Infinity;
  const extra = own.filter((m) => m.created_at >= lower && m.created_at <= upper);
  return extra.length ? { ...page, messages: [...page.messages, ...extra] } : page;
}

/**
 * Private conversations merged into the first page of the server's contact list: a count adds
 * up, the newer of the two latest messages is the preview, and a conversation the server does not
 * know is added (with its profile) when it belongs to the relation shown.
 */
export async function withPrivateContacts(
  page: ContactsPage,
  input: FetchContactsInput,
  threads: PrivateThread[],
  following: readonly string[],
  profiles: (pubkeys: string[]) => Promise<Map<string, Profile>>,
): Promise<ContactsPage> {
  if (input.until !== undefined || threads.length === 0) return page;
  const follows = new Set(following);
  const inRelation = (pk: string) => input.relation === 'any' || (input.relation === 'follows') === follows.has(pk);
  const byPeer = new Map(page.contacts.map((c) => [c.pubkey, c]));
  const missing = threads.filter((t) => !byPeer.has(t.peer) && inRelation(t.peer)).map((t) => t.peer);
  const found = missing.length ? await profiles(missing).catch(() => new Map<string, Profile>()) : new Map<string, Profile>();
  for (const t of threads) {
    const known = byPeer.get(t.peer);
    if (!known && !inRelation(t.peer)) continue;
    const base: DmContact = known ?? { pubkey: t.peer, user: found.get(t.peer) ?? emptyProfile(t.peer), dmInfo: { cnt: 0, latest_at: 0, latest_event_id: '' } };
    const newer = t.latest.created_at >= base.dmInfo.latest_at;
    const merged: DmContact = {
      ...base,
      dmInfo: {
        cnt: base.dmInfo.cnt + t.unread,
        latest_at: Math.max(base.dmInfo.latest_at, t.latest.created_at),
        latest_event_id: newer ? t.latest.id : base.dmInfo.latest_event_id,
      },
    };
    if (newer) {
      merged.preview = t.latest.content;
      merged.latestPrivate = true;
      merged.latestSender = t.latest.sender;
    }
    byPeer.set(t.peer, merged);
  }
  const contacts = [...byPeer.values()].sort((a, b) => b.dmInfo.latest_at - a.dmInfo.latest_at);
  return { ...page, contacts };
}

function snapshotOf(actor: Actor<typeof dmMachine>): DmSnapshot {
  const snap = actor.getSnapshot();
  const c = snap.context;
  const out: DmSnapshot = {
    relation: c.relation,
    contactsStatus: contactsStatusOf(snap),
    contacts: c.contacts,
    hasMoreContacts: c.hasMoreContacts,
    unreadTotal: c.unreadTotal,
    conversationStatus: conversationStatusOf(snap),
    messages: c.messages,
    hasMoreMessages: c.hasMoreMessages,
    sending: isSending(snap),
    outbox: c.outbox,
  };
  if (c.decryptError !== undefined) out.decryptError = c.decryptError;
  if (c.protocol !== undefined) out.protocol = c.protocol;
  if (c.selected !== undefined) out.selected = c.selected;
  if (c.error !== undefined) out.error = c.error;
  return out;
}

export class DmService {
  readonly count: Actor<typeof notificationCountMachine>;
  private readonly countWatchers = new Watchers<number>();
  private readonly pages: InstanceRegistry<Actor<typeof dmMachine>, DmSnapshot>;
  private readonly machine;
  private nextSend = 1;
  private serverCount = 0;
  private readonly pendingPrivate = new Map<string, DirectMessage[]>();
  private privateTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: DmServiceOptions) {
    const { request, subscribe, signRequest } = options;
    this.count = createActor(
      notificationCountMachine.provide({
        actors: {
          countSubscription: fromCallback<CountEvent, { pubkey: string }>(({ input, sendBack }) => {
            const sub = signedSubscription(subscribe, signRequest, 'directmsg_count', DM_COUNT_OP, { pubkey: input.pubkey }, {
              onEvent: (e) => {
                if (e.kind === CacheKind.DM_COUNT && Number.isFinite(Number(e.cnt))) sendBack({ type: 'COUNT', count: Number(e.cnt) });
              },
            });
            return () => sub.close();
          }),
          // "Seen" for DMs is mark-all-as-read.
          markSeen: fromPromise(async () => {
            const event = await signRequest(MARK_ALL_DMS_READ_OP);
            const reply = await request('reset_directmsg_counts', { event_from_user: event });
            if (reply.notice !== undefined) throw new Error(reply.notice);
          }),
        },
      }),
      { input: { active: true } },
    );
    this.count.subscribe((snap) => {
      this.serverCount = snap.context.count;
      this.emitTotal();
    });

    this.machine = dmMachine.provide({
      actors: {
        fetchContacts: fromPromise<ContactsPage, FetchContactsInput>(async ({ input }) => {
          const page = await withPreviews(await fetchContacts(request, input, signRequest), options.decrypt, options.onUndecryptable);
          const inbox = options.inbox;
          if (!inbox) return page;
          return withPrivateContacts(page, input, inbox.threadList(), options.following?.() ?? [], async (pubkeys) => {
            const reply = await request('user_infos', { pubkeys });
            return profilesOf(reply.events);
          });
        }),
        fetchMessages: fromPromise<MessagesPage, FetchMessagesInput>(async ({ input }) => {
          const page = await fetchMessages(request, options.decrypt, input, options.onUndecryptable);
          return withPrivateMessages(page, input, options.inbox?.messagesWith(input.peer) ?? []);
        }),
        peerProtocol: fromPromise<DmProtocol, { peer: string }>(async ({ input }) => (options.inbox ? options.inbox.protocolFor(input.peer) : 'nip04')),
        resetCount: fromPromise<void, { peer: string }>(async ({ input }) => {
          options.inbox?.markRead(input.peer);
          // The peer is signed: the server takes no parameter from outside the signed content.
          const event = await signRequest(RESET_DM_COUNT_OP, { sender: input.peer });
          const reply = await request('reset_directmsg_count', { event_from_user: event });
          if (reply.notice !== undefined) throw new Error(reply.notice);
        }),
        sendMessage: fromPromise<PublishResult, { peer: string; text: string }>(async ({ input }) => {
          // NIP-17 when the other side has said where private messages go (kind 10050).
          if (options.inbox && (await options.inbox.protocolFor(input.peer)) === 'nip17') return options.inbox.send(input.peer, input.text);
          const content = await options.encrypt(input.peer, input.text);
          // The publish service signs, sends to the write relays (or the proxy) and imports it.
          return options.publish({ kind: ENCRYPTED_DM, tags: [['p', input.peer]], content, created_at: Math.floor(Date.now() / 1000) });
        }),
      },
    });
    this.pages = new InstanceRegistry(snapshotOf, options.throttleMs);
    this.count.start();
  }

  /** The server's count plus the private conversations' unread messages, to the badge and every page. */
  emitTotal(): void {
    const total = this.serverCount + (this.options.inbox?.unreadTotal() ?? 0);
    this.countWatchers.emit(total, (a, b) => a === b);
    this.pages.forEach((page) => {
      if (page.getSnapshot().context.unreadTotal !== total) page.send({ type: 'TOTAL', count: total });
    });
  }

  /** New private messages of a conversation: batched, so that a burst of unwrapped gift wraps reloads the lists once. */
  privateMessages(peer: string, messages: DirectMessage[]): void {
    this.pendingPrivate.set(peer, [...(this.pendingPrivate.get(peer) ?? []), ...messages]);
    if (this.privateTimer !== undefined) return;
    this.privateTimer = setTimeout(() => {
      this.privateTimer = undefined;
      const batch = [...this.pendingPrivate];
      this.pendingPrivate.clear();
      for (const [p, list] of batch) this.pages.forEach((page) => page.send({ type: 'PRIVATE', peer: p, messages: list }));
    }, 100);
  }

  setUser(pubkey: string | undefined): void {
    if (pubkey === this.count.getSnapshot().context.pubkey) return;
    this.count.send({ type: 'USER', pubkey });
    this.pages.forEach((page) => page.send({ type: 'USER', pubkey: pubkey ?? '' }));
  }

  setActive(active: boolean): void {
    if (this.count.getSnapshot().context.active !== active) this.count.send({ type: 'ACTIVE', active });
  }

  watchCount(tabId: string, cb: (count: number) => unknown, release: () => void): number {
    return this.countWatchers.add(tabId, cb, release, this.serverCount + (this.options.inbox?.unreadTotal() ?? 0));
  }

  unwatchCount(handle: number): void {
    this.countWatchers.remove(handle);
  }

  open(tabId: string, cb: (s: DmSnapshot) => unknown, release: () => void): number {
    const { context } = this.count.getSnapshot();
    const remembered = this.options.remembered();
    const unreadTotal = context.count + (this.options.inbox?.unreadTotal() ?? 0);
    const actor = createActor(this.machine, {
      input: { userPubkey: context.pubkey ?? '', relation: remembered.relation, selected: remembered.conversation, unreadTotal },
    });
    return this.pages.open(tabId, actor, cb, release);
  }

  setRelation(handle: number, relation: DmRelation): void {
    const page = this.pages.get(handle);
    if (!page) return;
    page.send({ type: 'SET_RELATION', relation });
    this.options.remember({ dmLastRelation: relation });
  }

  loadMoreContacts(handle: number): void {
    this.pages.get(handle)?.send({ type: 'LOAD_MORE_CONTACTS' });
  }

  select(handle: number, pubkey: string): void {
    const page = this.pages.get(handle);
    if (!page) return;
    page.send({ type: 'SELECT', pubkey });
    this.options.remember({ dmLastConversation: pubkey });
  }

  loadMore(handle: number): void {
    this.pages.get(handle)?.send({ type: 'LOAD_MORE' });
  }

  send(handle: number, text: string): Promise<PublishResult> {
    const page = this.pages.get(handle);
    if (!page) return Promise.resolve({ success: false, reasons: { '*': 'closed' }, outcome: 'failed' });
    const id = this.nextSend++;
    return new Promise((resolve) => {
      const sub = page.on('sent', (e) => {
        if (e.id !== id) return;
        sub.unsubscribe();
        resolve(e.result);
      });
      page.send({ type: 'SEND', id, text });
    });
  }

  retry(handle: number, id: number): void {
    this.pages.get(handle)?.send({ type: 'RETRY', id });
  }

  async markAllRead(): Promise<ActionResult> {
    this.options.inbox?.markAllRead();
    const result = await new Promise<ActionResult>((resolve) => {
      const sub = this.count.on('seen', (e) => {
        sub.unsubscribe();
        resolve(e.ok ? { ok: true } : { ok: false, code: e.code });
      });
      this.count.send({ type: 'MARK_SEEN' });
    });
    // Open pages show zero unread everywhere once the server agrees.
    if (result.ok) this.pages.forEach((page) => page.send({ type: 'REFRESH_CONTACTS' }));
    return result;
  }

  close(handle: number): void {
    this.pages.close(handle);
  }

  closeTab(tabId: string): void {
    this.countWatchers.closeTab(tabId);
    this.pages.closeTab(tabId);
  }

  dispose(): void {
    if (this.privateTimer !== undefined) clearTimeout(this.privateTimer);
    this.countWatchers.dispose();
    this.pages.dispose();
    this.count.stop();
  }
}
