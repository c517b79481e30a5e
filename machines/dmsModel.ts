/**
 * The DM page's types and pure helpers (machines/dms.ts runs them): what the worker's actors take
 * and return, the machine's context and events, and the list merging both the NIP-04 pages and the
 * NIP-17 private messages go through.
 */
import type { DirectMessage, DmContact, DmOutgoing, DmRelation, PublishResult } from '../core/types.ts';

/** Spec §9: a DM page is 20 messages. */
export const DM_PAGE_SIZE = 20;
export const DM_CONTACTS_PAGE = 100;

export interface FetchContactsInput {
  userPubkey: string;
  relation: DmRelation;
  limit: number;
  until?: number;
}

export interface ContactsPage {
  contacts: DmContact[];
  /** RANGE.since (latest_at of the last contact): the next page's `until`. */
  since?: number;
}

export interface FetchMessagesInput {
  userPubkey: string;
  peer: string;
  limit: number;
  until?: number;
  since?: number;
}

export interface MessagesPage {
  /** Decrypted messages; those that failed to decrypt are already left out. */
  messages: DirectMessage[];
  /** Events the server sent, decryptable or not: paging goes on while pages are not empty. */
  received: number;
  /** Oldest created_at of the page (RANGE.since). */
  since?: number;
  /** Why a message of the page could not be decrypted (the first reason: a §8 code or the cipher's error). */
  undecryptable?: string;
}

export interface DmContext {
  userPubkey: string;
  relation: DmRelation;
  contacts: DmContact[];
  contactsCursor?: number;
  hasMoreContacts: boolean;
  unreadTotal: number;
  selected?: string;
  messages: DirectMessage[];
  messagesCursor?: number;
  hasMoreMessages: boolean;
  /** The SEND being sent, to answer its caller. */
  sendId?: number;
  /** What was written on this page and is not in `messages` yet, in the order written. */
  outbox: DmOutgoing[];
  /** The open conversation's last page had messages that could not be decrypted, and why. */
  decryptError?: string;
  /** How the open conversation is written to: NIP-17 when the other side has inbox relays. */
  protocol?: DmProtocol;
  error?: string;
}

export type DmProtocol = 'nip17' | 'nip04';

export type DmEvent =
  | { type: 'SET_RELATION'; relation: DmRelation }
  | { type: 'LOAD_MORE_CONTACTS' }
  | { type: 'REFRESH_CONTACTS' }
  | { type: 'SELECT'; pubkey: string }
  | { type: 'LOAD_MORE' }
  | { type: 'TOTAL'; count: number }
  | { type: 'SEND'; id: number; text: string }
  /** A failed message goes back in the queue. */
  | { type: 'RETRY'; id: number }
  | { type: 'USER'; pubkey: string }
  /** Internal: the selected contact has new messages. */
  | { type: 'FETCH_NEW' }
  | { type: 'RESET_COUNT' }
  /** NIP-17 messages unwrapped in the worker (received, or sent from another tab). */
  | { type: 'PRIVATE'; peer: string; messages: DirectMessage[] };

export type DmEmitted = { type: 'sent'; id: number; result: PublishResult };

export interface DmInput {
  userPubkey: string;
  relation?: DmRelation;
  selected?: string;
  /** The shared directmsg_count total when the page opens; TOTAL events follow its changes. */
  unreadTotal?: number;
}

export function missing(name: string): never {
  throw new Error(`dms: the ${name} actor must be provided with machine.provide()`);
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export const now = () => Math.floor(Date.now() / 1000);

/** Sent entries leave the outbox once their event came back in the conversation. */
export function settle(outbox: DmOutgoing[], messages: DirectMessage[]): DmOutgoing[] {
  if (!outbox.some((o) => o.status === 'sent')) return outbox;
  const ids = new Set(messages.map((m) => m.id));
  return outbox.filter((o) => !(o.status === 'sent' && o.eventId !== undefined && ids.has(o.eventId)));
}

export const reasonOf = (result: PublishResult): string => result.reasons['*'] ?? Object.values(result.reasons)[0] ?? result.outcome;

/** Merged by id, oldest first, as a chat shows them. */
export function mergeMessages(a: DirectMessage[], b: DirectMessage[]): DirectMessage[] {
  const byId = new Map<string, DirectMessage>();
  for (const m of [...a, ...b]) byId.set(m.id, m);
  return [...byId.values()].sort((x, y) => x.created_at - y.created_at || (x.id < y.id ? -1 : 1));
}

export function failed(reason: string): PublishResult {
  return { success: false, reasons: { '*': reason }, outcome: 'failed' };
}

export const zeroCount = (contacts: DmContact[], pubkey: string | undefined): DmContact[] =>
  contacts.map((c) => (c.pubkey === pubkey && c.dmInfo.cnt !== 0 ? { ...c, dmInfo: { ...c.dmInfo, cnt: 0 } } : c));

/** What a change of user empties (the selection is decided per transition). */
export const NO_USER_DATA = {
  contacts: [],
  contactsCursor: undefined,
  hasMoreContacts: true,
  messages: [],
  messagesCursor: undefined,
  hasMoreMessages: true,
  outbox: [],
  sendId: undefined,
  decryptError: undefined,
  error: undefined,
} satisfies Partial<DmContext>;

