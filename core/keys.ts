/**
 * Key material and the error codes of spec §8 that key handling raises. Errors cross Comlink as
 * plain Error objects (only name, message and stack survive), so the code is the message.
 */
import { decode, nsecEncode, npubEncode } from 'nostr-tools/nip19';
import { getPublicKey } from 'nostr-tools/pure';

export type AccountErrorCode =
  | 'event_not_signed'
  | 'not-secure-env'
  | 'bad-cipher'
  | 'invalid-nsec'
  | 'pubkey-no-nsec'
  | 'encrypt-no-nsec'
  | 'decrypt-no-nsec'
  | 'sign-no-nsec'
  | 'event-sig-not-verified'
  | 'no_nostr_extension'
  | 'bunker-bad-uri'
  | 'bunker-timeout'
  | 'bunker-rejected'
  | 'bunker-unreachable';

const CODES: ReadonlySet<string> = new Set<AccountErrorCode>([
  'event_not_signed',
  'not-secure-env',
  'bad-cipher',
  'invalid-nsec',
  'pubkey-no-nsec',
  'encrypt-no-nsec',
  'decrypt-no-nsec',
  'sign-no-nsec',
  'event-sig-not-verified',
  'no_nostr_extension',
  'bunker-bad-uri',
  'bunker-timeout',
  'bunker-rejected',
  'bunker-unreachable',
]);

/** Spec §8: what a missing extension looks like before the retries give up. */
export const EXTENSION_NOT_FOUND = 'Nostr extension not found';

/** Spec §5 login and PIN messages, shown as they are. */
export const MSG_INVALID_NSEC = 'Adj meg egy érvényes privát kulcsot!';
export const MSG_PIN_TOO_SHORT = 'A PIN-kódnak legalább 6 karakterből kell állnia.';
export const MSG_PIN_MISMATCH = 'A PIN-ek nem egyeznek';

export class AccountError extends Error {
  constructor(readonly code: AccountErrorCode) {
    super(code);
    this.name = 'AccountError';
  }
}

/** The §8 code carried by any error (ours, or one rebuilt by Comlink from our message). */
export function errorCode(err: unknown): AccountErrorCode | undefined {
  if (err instanceof AccountError) return err.code;
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  return CODES.has(message) ? (message as AccountErrorCode) : undefined;
}

const HEX64 = /^[0-9a-f]{64}$/;

export function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function isHexKey(value: string): boolean {
  return HEX64.test(value);
}

/**
 * An nsec (or a 64-hex secret, as some clients export keys) to its bytes; anything else,
 * including a key outside the curve order, is invalid-nsec.
 */
export function parseSecret(input: string): Uint8Array {
  const value = input.trim();
  let bytes: Uint8Array | undefined;
  if (value.startsWith('nsec1')) {
    try {
      const decoded = decode(value);
      if (decoded.type === 'nsec') bytes = decoded.data;
    } catch {
      bytes = undefined;
    }
  } else if (isHexKey(value.toLowerCase())) {
    bytes = hexToBytes(value.toLowerCase());
  }
  if (!bytes || bytes.length !== 32) throw new AccountError('invalid-nsec');
  try {
    getPublicKey(bytes);
  } catch {
    throw new AccountError('invalid-nsec');
  }
  return bytes;
}

/** Read-only login: an npub, an nprofile or a hex pubkey; undefined when it is none of them. */
export function parsePubkey(input: string): string | undefined {
  const value = input.trim();
  if (isHexKey(value.toLowerCase())) return value.toLowerCase();
  try {
    const decoded = decode(value);
    if (decoded.type === 'npub') return decoded.data;
    if (decoded.type === 'nprofile') return decoded.data.pubkey;
  } catch {
    return undefined;
  }
  return undefined;
}

export function pubkeyOf(secret: Uint8Array): string {
  return getPublicKey(secret);
}

export function secretToHex(secret: Uint8Array): string {
  return bytesToHex(secret);
}

export function secretFromHex(hex: string): Uint8Array {
  if (!isHexKey(hex)) throw new AccountError('invalid-nsec');
  return hexToBytes(hex);
}

export function toNsec(secret: Uint8Array): string {
  return nsecEncode(secret);
}

export function toNpubOrEmpty(pubkey: string | undefined): string {
  if (!pubkey || !isHexKey(pubkey)) return '';
  return npubEncode(pubkey);
}
