/**
 * NIP-17 private messages in the worker: a kind-14 rumor (unsigned, so it cannot be shown to
 * anyone else as proof), sealed in a kind 13 signed by the sender and NIP-44-encrypted to the
 * recipient, then gift-wrapped in a kind 1059 signed by a one-time key (NIP-59). Only the
 * wrap's p tag and blurred time are visible to relays. The crypto goes through the account's
 * signer, so an extension (window.nostr.nip44) works as well as an nsec.
 */
import { finalizeEvent, generateSecretKey, getEventHash, verifyEvent } from 'nostr-tools/pure';
import { checkRelayUrl } from '../core/relayUrl.ts';
import type { NostrEvent, UnsignedEvent } from '../core/types.ts';

export const KIND_PRIVATE_MESSAGE = 14;
export const KIND_SEAL = 13;
export const KIND_GIFT_WRAP = 1059;
export const KIND_INBOX_RELAYS = 10050;

/** NIP-59 shifts seal and wrap times up to two days back, so they do not tell when the message was written. */
const BLUR_SECONDS = 2 * 24 * 3600;

const nip44 = () => import('nostr-tools/nip44');

/** What the account's signer offers (worker/signer.ts's Signer fits). */
export interface PrivateCrypto {
  pubkey: string;
  sign(template: UnsignedEvent): Promise<NostrEvent>;
  nip44Encrypt(pubkey: string, plaintext: string): Promise<string>;
  nip44Decrypt(pubkey: string, ciphertext: string): Promise<string>;
}

export interface Rumor {
  id: string;
  pubkey: string;
  created_at: number;
  kind: number;
  tags: string[][];
  content: string;
}

/** A received or sent private message, as the conversation shows it. */
export interface PrivateMessage {
  /** The rumor's id: the same for the recipient's and the sender's copy. */
  id: string;
  sender: string;
  receiver: string;
  created_at: number;
  text: string;
}

function blurred(now: number, random: () => number): number {
  return now - Math.floor(random() * BLUR_SECONDS);
}

/**
 * Gift wraps of one message: one for the recipient and one for the sender's own inbox (so the
 * sender's other devices see what was sent). `random` is Math.random unless a test pins it.
 */
export async function wrapPrivateMessage(
  crypto: PrivateCrypto,
  recipient: string,
  text: string,
  now: number,
  random: () => number = Math.random,
): Promise<{ rumor: Rumor; toRecipient: NostrEvent; toSelf: NostrEvent }> {
  const base = { pubkey: crypto.pubkey, created_at: now, kind: KIND_PRIVATE_MESSAGE, tags: [['p', recipient]], content: text };
  const rumor: Rumor = { ...base, id: getEventHash(base) };
  const { v2 } = await nip44();
  const wrapFor = async (to: string): Promise<NostrEvent> => {
    const seal = await crypto.sign({
      kind: KIND_SEAL,
      created_at: blurred(now, random),
      tags: [],
      content: await crypto.nip44Encrypt(to, JSON.stringify(rumor)),
    });
    const oneTime = generateSecretKey();
    const content = v2.encrypt(JSON.stringify(seal), v2.utils.getConversationKey(oneTime, to));
    return finalizeEvent({ kind: KIND_GIFT_WRAP, created_at: blurred(now, random), tags: [['p', to]], content }, oneTime) as NostrEvent;
  };
  return { rumor, toRecipient: await wrapFor(recipient), toSelf: await wrapFor(crypto.pubkey) };
}

/**
 * Opens a gift wrap addressed to the user. Throws when it is not one, is not for the user, or
 * when the rumor claims another author than the one who signed the seal (an impersonation).
 */
export async function unwrapPrivateMessage(crypto: PrivateCrypto, wrap: NostrEvent): Promise<PrivateMessage> {
  if (wrap.kind !== KIND_GIFT_WRAP) throw new Error('not a gift wrap');
  if (!wrap.tags.some((t) => t[0] === 'p' && t[1] === crypto.pubkey)) throw new Error('gift wrap for someone else');
  const seal = JSON.parse(await crypto.nip44Decrypt(wrap.pubkey, wrap.content)) as NostrEvent;
  if (seal?.kind !== KIND_SEAL || !verifyEvent({ ...seal })) throw new Error('invalid seal');
  const rumor = JSON.parse(await crypto.nip44Decrypt(seal.pubkey, seal.content)) as Rumor;
  if (rumor?.pubkey !== seal.pubkey) throw new Error('the rumor is not by the seal\'s signer');
  if (rumor.kind !== KIND_PRIVATE_MESSAGE || typeof rumor.content !== 'string' || !Array.isArray(rumor.tags)) throw new Error('not a private message');
  const receiver = rumor.tags.find((t) => t[0] === 'p' && typeof t[1] === 'string')?.[1];
  if (!receiver) throw new Error('private message without a recipient');
  const id = getEventHash({ ...rumor });
  return { id, sender: rumor.pubkey, receiver, created_at: Number(rumor.created_at) || 0, text: rumor.content };
}

/** The inbox relays of a kind-10050 list (NIP-17), checked like any relay URL; empty when none. */
export function inboxRelaysOf(list: Pick<NostrEvent, 'kind' | 'tags'> | undefined): string[] {
  if (!list || list.kind !== KIND_INBOX_RELAYS) return [];
  const out: string[] = [];
  for (const t of list.tags) {
    if (t[0] !== 'relay' || typeof t[1] !== 'string') continue;
    const checked = checkRelayUrl(t[1]);
    if (checked.ok && !out.includes(checked.url)) out.push(checked.url);
  }
  return out;
}

/** NIP-17 when the other side has said where to send private messages, NIP-04 otherwise. */
export function dmProtocolFor(peerInboxRelays: readonly string[]): 'nip17' | 'nip04' {
  return peerInboxRelays.length > 0 ? 'nip17' : 'nip04';
}

/** The user's own kind-10050 template, for when none is published yet. */
export function inboxRelaysTemplate(relays: readonly string[], now: number): UnsignedEvent {
  return { kind: KIND_INBOX_RELAYS, created_at: now, tags: relays.map((r) => ['relay', r]), content: '' };
}
