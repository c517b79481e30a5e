/**
 * Cashu token text as spec §5 reads it, free of any library so a tab can show a token card
 * without loading the wallet: the prefixes are stripped, the rest is base64url JSON in one of
 * three shapes (an object with a token list; a bare array of proofs, mint unknown; an object with
 * proofs and a mints list, whose first mint is used), and the result is cleaned — entries of one
 * mint merged, entries without proofs or without a mint dropped, proofs sorted by keyset id.
 * cashuB (v4, CBOR) is read by cashu-ts in the worker (ecash.ts), which hands the same shape back.
 * Splitting amounts into powers of two with preferences follows spec §4 and its error text.
 */
import type { AmountPreference } from '../core/types/ecash.ts';

export interface TokenProof {
  id: string;
  amount: number;
  secret: string;
  C: string;
}

export interface TokenEntry {
  mint: string;
  proofs: TokenProof[];
}

export interface DecodedToken {
  entries: TokenEntry[];
  memo: string;
  unit: string;
}

export const normalizeMintUrl = (url: string) => url.trim().replace(/\/+$/, '');

export const TOKEN_PREFIXES = ['web+cashu://', 'cashu://', 'cashu:', 'cashuA'];
export const MSG_NON_POWER_OF_TWO = 'Provided amount preferences contain non-power-of-2 numbers. Use only ^2 numbers';
export const MSG_NOT_ENOUGH_FUNDS = 'Not enough funds available';
export const MSG_NO_SEED = 'Cannot create deterministic messages without seed. Instantiate CashuWallet with a mnemonic, or omit counter param.';
export const MSG_RESTORE_NO_SEED = 'CashuWallet must be initialized with mnemonic to use restore';

/** Prefixes off, in the spec's order (an address prefix can precede cashuA). */
export function stripTokenPrefix(text: string): string {
  let t = text.trim();
  for (const p of TOKEN_PREFIXES) if (t.startsWith(p)) t = t.slice(p.length);
  return t;
}

export function base64UrlToText(text: string): string {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(b64)) throw new Error('invalid base64');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

export function textToBase64Url(text: string): string {
  let bin = '';
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_');
}

function proofsOf(v: unknown): TokenProof[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((p): p is Record<string, unknown> => !!p && typeof p === 'object')
    .filter((p) => typeof p.id === 'string' && typeof p.secret === 'string' && typeof p.C === 'string' && Number.isSafeInteger(p.amount) && (p.amount as number) > 0)
    .map((p) => ({ id: p.id as string, amount: p.amount as number, secret: p.secret as string, C: p.C as string }));
}

function mintOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { url?: unknown }).url === 'string') return (v as { url: string }).url;
  return '';
}

/** Merges entries per mint, drops empty or mintless ones, sorts proofs by keyset id. */
export function cleanToken(entries: TokenEntry[]): TokenEntry[] {
  const byMint = new Map<string, TokenProof[]>();
  for (const e of entries) {
    if (!e.mint || e.proofs.length === 0) continue;
    byMint.set(e.mint, [...(byMint.get(e.mint) ?? []), ...e.proofs]);
  }
  return [...byMint].map(([mint, proofs]) => ({ mint, proofs: [...proofs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) }));
}

/** A decoded JSON value in any of the three accepted shapes, before cleaning. */
export function tokenFromJson(json: unknown): DecodedToken {
  const obj = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  const memo = typeof obj?.memo === 'string' ? obj.memo : '';
  const unit = typeof obj?.unit === 'string' ? obj.unit : 'sat';
  let entries: TokenEntry[];
  if (Array.isArray(json)) entries = [{ mint: '', proofs: proofsOf(json) }];
  else if (obj && Array.isArray(obj.token)) {
    entries = obj.token.map((e) => {
      const entry = e && typeof e === 'object' ? (e as Record<string, unknown>) : {};
      return { mint: mintOf(entry.mint), proofs: proofsOf(entry.proofs) };
    });
  } else if (obj && Array.isArray(obj.proofs)) {
    entries = [{ mint: Array.isArray(obj.mints) ? mintOf(obj.mints[0]) : '', proofs: proofsOf(obj.proofs) }];
  } else throw new Error('Unknown token shape');
  return { entries, memo, unit };
}

/** Decodes a v3 (cashuA or bare base64url JSON) token; throws on anything else. Not cleaned. */
export function decodeTokenV3(text: string): DecodedToken {
  const body = stripTokenPrefix(text);
  if (body.startsWith('cashuB')) throw new Error('cashuB');
  return tokenFromJson(JSON.parse(base64UrlToText(body)));
}

/** The spec's decode + clean in one: what a wallet can redeem. */
export function readTokenV3(text: string): DecodedToken {
  const t = decodeTokenV3(text);
  return { ...t, entries: cleanToken(t.entries) };
}

/** A v3 token as a wallet keeps it: cleaned, mint addresses without trailing slashes. */
export function readTokenV3Normalized(text: string): DecodedToken {
  const t = readTokenV3(text);
  return { ...t, entries: t.entries.map((e) => ({ ...e, mint: normalizeMintUrl(e.mint) })) };
}

export const isTokenV4 = (text: string) => stripTokenPrefix(text).startsWith('cashuB');

export function encodeTokenV3(token: DecodedToken): string {
  const json: Record<string, unknown> = { token: token.entries.map((e) => ({ mint: e.mint, proofs: e.proofs })) };
  if (token.memo) json.memo = token.memo;
  if (token.unit) json.unit = token.unit;
  return `cashuA${textToBase64Url(JSON.stringify(json))}`;
}

export const tokenAmount = (t: DecodedToken) => t.entries.reduce((a, e) => a + e.proofs.reduce((b, p) => b + p.amount, 0), 0);

const isPow2 = (n: number) => Number.isSafeInteger(n) && n > 0 && (n & (n - 1)) === 0;

/**
 * Spec §4: an amount in powers of two over at most 32 bit positions; the preferences (amount and
 * count pairs) are taken first, as far as they fit, and the rest is split by its bits.
 */
export function splitAmount(value: number, preferences: AmountPreference[] = []): number[] {
  if (preferences.some((p) => !isPow2(p.amount))) throw new Error(MSG_NON_POWER_OF_TWO);
  const out: number[] = [];
  let rest = value;
  for (const p of preferences) {
    for (let i = 0; i < p.count && rest >= p.amount; i++) {
      out.push(p.amount);
      rest -= p.amount;
    }
  }
  for (let bit = 0; bit < 32 && rest > 0; bit++) {
    const a = 2 ** bit;
    if (Math.floor(rest / a) % 2 === 1) {
      out.push(a);
      rest -= a;
    }
  }
  return out;
}
