/**
 * What a thread or profile URL segment names. Pure, so the rules are unit-tested: a bad id must
 * end in the error state and an article address must leave for /a/, never reach thread_view.
 */
import { decode, naddrEncode } from 'nostr-tools/nip19';

const HEX64 = /^[0-9a-f]{64}$/i;
/** Spec §9: bech32 strings up to 5000 characters. */
const BECH32_MAX = 5000;

export type ThreadId =
  | { type: 'note'; id: string; author?: string }
  | { type: 'article'; naddr: string }
  | { type: 'invalid' };

export function parseThreadId(raw: string): ThreadId {
  const value = raw.trim().replace(/^nostr:/, '');
  if (HEX64.test(value)) return { type: 'note', id: value.toLowerCase() };
  if (!value || value.length > BECH32_MAX) return { type: 'invalid' };
  try {
    const decoded = decode(value);
    if (decoded.type === 'note') return { type: 'note', id: decoded.data };
    if (decoded.type === 'nevent') {
      return decoded.data.author ? { type: 'note', id: decoded.data.id, author: decoded.data.author } : { type: 'note', id: decoded.data.id };
    }
    if (decoded.type === 'naddr') return { type: 'article', naddr: value };
  } catch {
    // A wrong checksum or an unknown prefix is simply not an id.
  }
  return { type: 'invalid' };
}

export type ProfileKey = { type: 'pubkey'; pubkey: string } | { type: 'invalid' };

/** npub, nprofile or 64-character hex. */
export function parseProfileKey(raw: string): ProfileKey {
  const value = raw.trim().replace(/^nostr:/, '');
  if (HEX64.test(value)) return { type: 'pubkey', pubkey: value.toLowerCase() };
  if (!value || value.length > BECH32_MAX) return { type: 'invalid' };
  try {
    const decoded = decode(value);
    if (decoded.type === 'npub') return { type: 'pubkey', pubkey: decoded.data };
    if (decoded.type === 'nprofile') return { type: 'pubkey', pubkey: decoded.data.pubkey };
  } catch {
    // Falls through to invalid.
  }
  return { type: 'invalid' };
}

/** A vanity thread's identifier: a note id, or the d-tag of the author's long-form article. */
export function vanityTarget(pubkey: string, identifier: string): { type: 'note'; id: string } | { type: 'article'; naddr: string } {
  const parsed = parseThreadId(identifier);
  if (parsed.type === 'note') return { type: 'note', id: parsed.id };
  if (parsed.type === 'article') return parsed;
  return { type: 'article', naddr: naddrEncode({ kind: 30023, pubkey, identifier }) };
}

/** NIP-05 local parts are lowercase letters, digits and -_. (the server checks the same). */
export function isVanityName(name: string): boolean {
  return /^[a-z0-9._-]{1,64}$/i.test(name);
}
