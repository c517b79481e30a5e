/**
 * The mint's cryptography, all on @cashu/crypto (no elliptic-curve code of ours): keysets derived
 * from a stored seed, blind signatures, proof checks. Two id and hash-to-curve flavours live
 * side by side because the same keys are served by two APIs: v1 (NUT-02 hex ids starting `00`,
 * domain-separated hash_to_curve) and the spec's legacy API (12-character base64 ids, hash_to_curve
 * by repeated sha256 until a valid `02`-prefixed point).
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils';
import { bytesToNumberBE } from '@noble/curves/abstract/utils';
import { hashToCurve, pointFromHex } from '@cashu/crypto/modules/common';
import { createBlindSignature, createNewMintKeys } from '@cashu/crypto/modules/mint';
import { MintError } from './errors.ts';

/** Amounts 2^0 … 2^31: the spec's "up to 32 bit positions". */
export const KEY_COUNT = 32;
export const MAX_AMOUNT = 2 ** KEY_COUNT - 1;

export interface Keyset {
  id: string;
  legacyId: string;
  unit: string;
  active: boolean;
  createdAt: number;
  /** amount → compressed public key, hex. */
  pub: Record<string, string>;
  /** amount → private key. */
  priv: Record<string, Uint8Array>;
}

export function isPowerOfTwo(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 && n <= 2 ** (KEY_COUNT - 1) && (n & (n - 1)) === 0;
}

/** The legacy keyset id: sha256 of the hex keys (by amount) as text, base64, first 12 characters. */
export function legacyKeysetId(pub: Record<string, string>): string {
  const joined = Object.entries(pub)
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .map(([, k]) => k)
    .join('');
  return Buffer.from(sha256(new TextEncoder().encode(joined))).toString('base64').slice(0, 12);
}

export function keysetFromSeed(seedHex: string, unit: string, active: boolean, createdAt: number): Keyset {
  const pair = createNewMintKeys(KEY_COUNT, hexToBytes(seedHex));
  const pub: Record<string, string> = {};
  for (const [amount, key] of Object.entries(pair.pubKeys)) pub[amount] = bytesToHex(key);
  return { id: pair.keysetId, legacyId: legacyKeysetId(pub), unit, active, createdAt, pub, priv: pair.privKeys };
}

/** The pre-v1 hash_to_curve: sha256 again and again until `02 ‖ hash` is a point on the curve. */
export function legacyHashToCurve(secret: Uint8Array) {
  let msg = secret;
  for (let i = 0; i < 65_536; i++) {
    const hash = sha256(msg);
    try {
      return pointFromHex(`02${bytesToHex(hash)}`);
    } catch {
      msg = hash;
    }
  }
  throw new Error('No valid point found');
}

function point(hex: unknown, what: string) {
  if (typeof hex !== 'string' || !/^0[23][0-9a-f]{64}$/i.test(hex)) throw new MintError(10003, `Hibás ${what}: nem tömörített pont.`);
  try {
    return pointFromHex(hex.toLowerCase());
  } catch {
    throw new MintError(10003, `Hibás ${what}: a pont nincs a görbén.`);
  }
}

/** NUT-07's Y of a secret (v1 hash_to_curve), the key of the proof state. */
export function proofY(secret: string): string {
  return hashToCurve(new TextEncoder().encode(secret)).toHex(true);
}

/** Whether C = k·Y for the proof's amount key, with the hash of the API its keyset id belongs to. */
export function proofValid(ks: Keyset, proof: { id: string; amount: number; secret: string; C: string }): boolean {
  const k = ks.priv[String(proof.amount)];
  if (!k) return false;
  const C = point(proof.C, 'C');
  const msg = new TextEncoder().encode(proof.secret);
  const Y = proof.id === ks.legacyId ? legacyHashToCurve(msg) : hashToCurve(msg);
  return Y.multiply(bytesToNumberBE(k)).equals(C);
}

/** C_ = k·B_ for the amount, as compressed hex. */
export function blindSign(ks: Keyset, amount: number, B_: string, legacy: boolean): { id: string; amount: number; C_: string } {
  const k = ks.priv[String(amount)];
  if (!k) throw new MintError(11006, `Ehhez az összeghez nincs kulcs: ${amount}.`);
  const sig = createBlindSignature(point(B_, 'B_'), k, amount, legacy ? ks.legacyId : ks.id);
  return { id: sig.id, amount, C_: sig.C_.toHex(true) };
}
