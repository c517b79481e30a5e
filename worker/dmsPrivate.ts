/**
 * NIP-17 private messages for the DM screen: the user's gift wraps are read from their inbox
 * relays (kind 10050) and our relay, after NIP-42 AUTH, unwrapped here in the worker and kept per
 * conversation; sending wraps a message for the recipient's inbox relays and a copy for the
 * user's own. The cache server never sees who wrote to whom (it stores wraps addressed to a
 * pubkey, nothing more), so the private conversations' contacts and unread counts are kept here
 * and merged into the server's NIP-04 lists (docs/private-messages.md).
 */
import { checkRelayUrl } from '../core/relayUrl.ts';
import { REASON_FAILED, REASON_TIMEOUT, type RelayAnswer } from '../machines/publish.ts';
import type { CacheRequest } from './feeds.ts';
import { dmProtocolFor, inboxRelaysOf, inboxRelaysTemplate, KIND_GIFT_WRAP, KIND_INBOX_RELAYS, unwrapPrivateMessage, wrapPrivateMessage, type PrivateCrypto, type PrivateMessage } from './nip17.ts';
import { defaultRelays } from './relayListLoader.ts';
import type { RelayService } from './relays.ts';
import type { CacheObject, DirectMessage, NostrEvent, PublishResult, UnsignedEvent } from '../core/types.ts';

/** A peer's inbox list is looked up again after this long (they may have published one meanwhile). */
const INBOX_TTL_MS = 5 * 60_000;
const SEND_TIMEOUT_MS = 10_000;

export type DmProtocol = 'nip17' | 'nip04';

/** One private conversation as the contact list needs it. */
export interface PrivateThread {
  peer: string;
  latest: DirectMessage;
  unread: number;
}

export interface PrivateInboxOptions {
  request: CacheRequest;
  /** A relay pool of its own: the inbox relays are not the user's read relays. */
  relays: RelayService;
  /** The signed-in user's crypto, when the login can sign and decrypt. */
  crypto: () => PrivateCrypto | undefined;
  /** Publishes to the user's write relays (the kind-10050 list). */
  publish: (event: UnsignedEvent) => Promise<PublishResult>;
  /** Per conversation, the created_at up to which its messages were read (kept with the account). */
  readMarks: () => Record<string, number>;
  saveReadMarks: (marks: Record<string, number>) => void;
  /** New messages of a conversation (received or sent from another tab). */
  onMessages: (peer: string, messages: DirectMessage[]) => void;
  onUnread: (total: number) => void;
  /** A wrap addressed to the user that could not be opened (devtools log). */
  onUndecryptable?: (reason: string) => void;
  now?: () => number;
}

const isEvent = (o: CacheObject): o is CacheObject & NostrEvent => typeof o.id === 'string' && Array.isArray(o.tags) && typeof o.pubkey === 'string';

export class PrivateInbox {
  private user: string | undefined;
  private readonly threads = new Map<string, Map<string, DirectMessage>>();
  private readonly inboxes = new Map<string, { relays: string[]; at: number }>();
  private ownRelayCache: string | undefined;
  private sub: { close(): void } | undefined;
  /** Whether the inbox is open (or opening) for the user. */
  private reading = false;
  private marks: Record<string, number> = {};
  private generation = 0;
  private readonly now: () => number;

  constructor(private readonly options: PrivateInboxOptions) {
    this.now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  get pubkey(): string | undefined {
    return this.user;
  }

  /** Follows the login: a signing user's inbox is opened (and its 10050 published when missing). */
  setUser(pubkey: string | undefined, canSign: boolean): void {
    // Every login snapshot comes here: only a change of user or of being able to decrypt reopens.
    if (pubkey === this.user && this.reading === canSign) return;
    this.reading = canSign && pubkey !== undefined;
    this.generation += 1;
    this.sub?.close();
    this.sub = undefined;
    if (pubkey !== this.user) {
      this.threads.clear();
      this.user = pubkey;
      this.options.onUnread(0);
    }
    this.marks = pubkey ? { ...this.options.readMarks() } : {};
    this.options.relays.setFromEvent({ tags: [] });
    if (pubkey && canSign) void this.open(pubkey, this.generation);
  }

  /** Our relay: the cache server's first default relay. */
  async ownRelay(): Promise<string | undefined> {
    if (this.ownRelayCache) return this.ownRelayCache;
    const first = defaultRelays(await this.options.request('get_default_relays'))[0];
    const checked = first === undefined ? undefined : checkRelayUrl(first);
    this.ownRelayCache = checked?.ok ? checked.url : undefined;
    return this.ownRelayCache;
  }

  /** Someone's kind-10050 inbox relays from the cache (empty when they have none). */
  async inboxRelays(pubkey: string, fresh = false): Promise<string[]> {
    const known = this.inboxes.get(pubkey);
    if (!fresh && known && Date.now() - known.at < INBOX_TTL_MS) return known.relays;
    const reply = await this.options.request('replaceable_event', { pubkey, kind: KIND_INBOX_RELAYS });
    const list = reply.events
      .filter((e): e is CacheObject & NostrEvent => e.kind === KIND_INBOX_RELAYS && isEvent(e) && e.pubkey === pubkey)
      .sort((a, b) => b.created_at - a.created_at)[0];
    const relays = inboxRelaysOf(list);
    // An empty answer is not kept: the list may be on its way to the cache server.
    if (relays.length > 0) this.inboxes.set(pubkey, { relays, at: Date.now() });
    else this.inboxes.delete(pubkey);
    return relays;
  }

  async protocolFor(peer: string): Promise<DmProtocol> {
    return dmProtocolFor(await this.inboxRelays(peer).catch(() => []));
  }

  /** Publishes the user's inbox relay list (settings → network) and reads from it from now on. */
  async publishInboxRelays(relays: string[]): Promise<PublishResult> {
    const result = await this.options.publish(inboxRelaysTemplate(relays, this.now()));
    if (result.success && this.user) {
      this.inboxes.set(this.user, { relays: inboxRelaysOf({ kind: KIND_INBOX_RELAYS, tags: relays.map((r) => ['relay', r]) }), at: Date.now() });
      const gen = ++this.generation;
      this.sub?.close();
      this.sub = undefined;
      void this.open(this.user, gen);
    }
    return result;
  }

  messagesWith(peer: string): DirectMessage[] {
    return [...(this.threads.get(peer)?.values() ?? [])].sort((a, b) => a.created_at - b.created_at);
  }

  threadList(): PrivateThread[] {
    const out: PrivateThread[] = [];
    for (const [peer, messages] of this.threads) {
      const list = [...messages.values()];
      if (list.length === 0) continue;
      const latest = list.reduce((a, b) => (b.created_at > a.created_at ? b : a));
      out.push({ peer, latest, unread: this.unreadWith(peer) });
    }
    return out;
  }

  /** The other side's messages after the read mark and after the user's own last answer (one answers what one has read). */
  unreadWith(peer: string): number {
    const thread = [...(this.threads.get(peer)?.values() ?? [])];
    let mark = this.marks[peer] ?? 0;
    for (const m of thread) if (m.sender !== peer && m.created_at > mark) mark = m.created_at;
    return thread.filter((m) => m.sender === peer && m.created_at > mark).length;
  }

  unreadTotal(): number {
    let n = 0;
    for (const peer of this.threads.keys()) n += this.unreadWith(peer);
    return n;
  }

  markRead(peer: string): void {
    const latest = this.messagesWith(peer).at(-1)?.created_at ?? 0;
    if (latest <= (this.marks[peer] ?? 0)) return;
    this.marks = { ...this.marks, [peer]: latest };
    this.options.saveReadMarks(this.marks);
    this.options.onUnread(this.unreadTotal());
  }

  markAllRead(): void {
    for (const peer of this.threads.keys()) {
      const latest = this.messagesWith(peer).at(-1)?.created_at ?? 0;
      if (latest > (this.marks[peer] ?? 0)) this.marks = { ...this.marks, [peer]: latest };
    }
    this.options.saveReadMarks(this.marks);
    this.options.onUnread(this.unreadTotal());
  }

  /** Wraps and sends one message: to the recipient's inbox relays, and a copy to the user's own. */
  async send(peer: string, text: string): Promise<PublishResult> {
    const crypto = this.options.crypto();
    if (!crypto || !this.user) return { success: false, reasons: { '*': 'encrypt-no-nsec' }, outcome: 'failed' };
    const listed = await this.inboxRelays(peer, true);
    if (listed.length === 0) return { success: false, reasons: { '*': 'no-inbox-relays' }, outcome: 'failed' };
    // A copy also goes to our relay, which serves it only to the recipient after AUTH: a recipient
    // whose inbox relays are out of reach (or who reads through this server) still gets it.
    const own = await this.ownRelay().catch(() => undefined);
    const targets = [...new Set([...listed, ...(own ? [own] : [])])];
    const mine = await this.readRelays(this.user);
    const { rumor, toRecipient, toSelf } = await wrapPrivateMessage(crypto, peer, text, this.now());
    const answers = await Promise.all(targets.map((url) => this.sendTo(url, toRecipient)));
    const ok = answers.filter((a) => a.ok);
    // The own copy is best effort: the message reached the recipient either way.
    void Promise.all(mine.map((url) => this.sendTo(url, toSelf)));
    const reasons: Record<string, string> = {};
    for (const a of answers) if (!a.ok) reasons[a.relay] = a.message || REASON_FAILED;
    if (ok.length === 0) return { success: false, reasons, outcome: 'failed' };
    const message: DirectMessage = { id: rumor.id, sender: this.user, content: text, created_at: rumor.created_at, private: true };
    this.add(peer, [message]);
    // The rumor's id is what the conversation shows, so the outbox entry settles on it.
    return { success: true, reasons, outcome: 'published', event: { ...rumor, sig: '' } };
  }

  private async readRelays(pubkey: string): Promise<string[]> {
    const [own, listed] = await Promise.all([this.ownRelay().catch(() => undefined), this.inboxRelays(pubkey).catch(() => [])]);
    return [...new Set([...listed, ...(own ? [own] : [])])];
  }

  private async open(pubkey: string, gen: number): Promise<void> {
    try {
      const [own, listed] = await Promise.all([this.ownRelay(), this.inboxRelays(pubkey, true)]);
      if (gen !== this.generation) return;
      // Spec of issue 15: a user without an inbox list gets one (our relay), so others can write privately.
      if (listed.length === 0 && own) {
        const result = await this.options.publish(inboxRelaysTemplate([own], this.now()));
        // Signed and sent, even unconfirmed (the pool may still be connecting at login): it is the list now.
        if (result.success || result.event) this.inboxes.set(pubkey, { relays: [own], at: Date.now() });
      }
      if (gen !== this.generation) return;
      const urls = [...new Set([...listed, ...(own ? [own] : [])])];
      this.options.relays.setFromEvent({ tags: urls.map((u) => ['r', u]) });
      this.sub = this.options.relays.subscribe([{ kinds: [KIND_GIFT_WRAP], '#p': [pubkey] }], {
        onEvent: (event) => void this.receive(event, gen),
      });
    } catch {
      // Without the cache server there is no inbox list to read; the next login tries again.
    }
  }

  private async receive(wrap: NostrEvent, gen: number): Promise<void> {
    const crypto = this.options.crypto();
    if (!crypto || gen !== this.generation) return;
    let opened: PrivateMessage;
    try {
      opened = await unwrapPrivateMessage(crypto, wrap);
    } catch (err) {
      this.options.onUndecryptable?.(err instanceof Error ? err.message : String(err));
      return;
    }
    if (gen !== this.generation) return;
    const me = crypto.pubkey;
    const peer = opened.sender === me ? opened.receiver : opened.sender;
    if (opened.sender !== me && opened.receiver !== me) return;
    this.add(peer, [{ id: opened.id, sender: opened.sender, content: opened.text, created_at: opened.created_at, private: true }]);
  }

  private add(peer: string, messages: DirectMessage[]): void {
    let thread = this.threads.get(peer);
    if (!thread) this.threads.set(peer, (thread = new Map()));
    const added = messages.filter((m) => !thread.has(m.id));
    if (added.length === 0) return;
    for (const m of added) thread.set(m.id, m);
    this.options.onMessages(peer, added);
    if (added.some((m) => m.sender === peer)) this.options.onUnread(this.unreadTotal());
  }

  private sendTo(url: string, event: NostrEvent): Promise<RelayAnswer> {
    const { relays } = this.options;
    if (!relays.snapshot().some((r) => r.url === url)) relays.add(url, { read: false, write: true });
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        cancel();
        resolve({ relay: url, ok: false, message: REASON_TIMEOUT });
      }, SEND_TIMEOUT_MS);
      const cancel = relays.sendEvent(url, event, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
  }

  dispose(): void {
    this.generation += 1;
    this.reading = false;
    this.sub?.close();
    this.sub = undefined;
  }
}
