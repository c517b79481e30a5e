/**
 * NIP-42 authentication for the relay, and the rule it exists for: gift wraps (kind 1059, NIP-59)
 * go only to the pubkey in their p tag, once that pubkey has authenticated on the connection.
 */
import { randomBytes } from 'node:crypto';
import type { NostrEvent } from '../context.ts';
import { initVerifier, validateShape, verifySignature } from '../ingest/verify.ts';
import type { Filter } from './filters.ts';

export const KIND_AUTH = 22242;
export const KIND_GIFT_WRAP = 1059;
/** NIP-42 suggests about ten minutes either way for the clock skew of the signer. */
const MAX_SKEW_SECONDS = 600;

export function newChallenge(): string {
  return randomBytes(16).toString('hex');
}

/** Host and path of a relay URL, the parts a client and the relay agree on behind a proxy (the scheme may differ). */
function hostAndPath(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.protocol !== 'ws:' && u.protocol !== 'wss:') return null;
    return `${u.host.toLowerCase()}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

/**
 * Checks an AUTH event; returns the authenticated pubkey or the reason it was refused.
 * `host` is the Host the client connected to: the signed relay URL must name it and this path.
 */
export async function verifyAuth(raw: unknown, challenge: string, host: string | undefined, now: number): Promise<{ pubkey: string } | { reason: string }> {
  const event = validateShape(raw);
  if (typeof event === 'string') return { reason: `invalid: ${event}` };
  if (event.kind !== KIND_AUTH) return { reason: `invalid: AUTH needs a kind ${KIND_AUTH} event` };
  if (Math.abs(event.created_at - now) > MAX_SKEW_SECONDS) return { reason: 'invalid: created_at is more than 10 minutes off' };
  const tag = (name: string) => event.tags.find((t) => t[0] === name)?.[1];
  if (tag('challenge') !== challenge) return { reason: 'invalid: wrong challenge' };
  const relay = tag('relay');
  const signed = relay === undefined ? null : hostAndPath(relay);
  if (!host || signed !== `${host.toLowerCase()}/relay`) return { reason: 'invalid: the relay tag does not name this relay' };
  await initVerifier();
  if (!verifySignature(event)) return { reason: 'invalid: bad signature' };
  return { pubkey: event.pubkey };
}

/** Whether a filter asks for gift wraps by kind (only such a request is refused outright without AUTH). */
export function asksForGiftWraps(f: Filter): boolean {
  return f.kinds?.includes(KIND_GIFT_WRAP) ?? false;
}

/** Gift wraps are shown only to their recipient; every other event to anyone. */
export function mayReceive(event: NostrEvent, authed: ReadonlySet<string>): boolean {
  if (event.kind !== KIND_GIFT_WRAP) return true;
  const recipient = event.tags.find((t) => t[0] === 'p')?.[1];
  return recipient !== undefined && authed.has(recipient);
}
