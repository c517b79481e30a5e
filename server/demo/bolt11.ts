import { bech32 } from '@scure/base';
import { secp256k1 } from '@noble/curves/secp256k1';
import { sha256 } from '@noble/hashes/sha2';

/**
 * A BOLT-11 invoice writer: real, checksummed, node-signed mainnet invoices, so zap
 * receipts in the demo network parse and verify like the ones wallets produce.
 */
export interface InvoiceFields {
  amountSats: number;
  /** Unix seconds. */
  timestamp: number;
  paymentHash: Uint8Array;
  paymentSecret: Uint8Array;
  /** sha256 of the zap request JSON (tag h). */
  descriptionHash: Uint8Array;
  expirySeconds: number;
  /** The paying-to node's key; its pubkey is recoverable from the signature. */
  nodeSecretKey: Uint8Array;
}

const TAG = { paymentHash: 1, features: 5, expiry: 6, paymentSecret: 16, descriptionHash: 23, minFinalCltv: 24 } as const;
const MIN_FINAL_CLTV_EXPIRY = 80;
// var_onion_optin (bit 8) and payment_secret (bit 14), the features BOLT-11 asks writers to set.
const FEATURE_BITS = (1n << 8n) | (1n << 14n);

/** The BOLT-11 human-readable part: the shortest exact amount with a multiplier. */
export function invoicePrefix(amountSats: number): string {
  if (!Number.isSafeInteger(amountSats) || amountSats <= 0) throw new RangeError(`invalid invoice amount ${amountSats}`);
  if (amountSats % 100_000 === 0) return `lnbc${amountSats / 100_000}m`;
  if (amountSats % 100 === 0) return `lnbc${amountSats / 100}u`;
  return `lnbc${amountSats * 10}n`;
}

/** Big-endian base-32 digits of a non-negative integer, at least minWords long. */
function intToWords(value: bigint, minWords = 1): number[] {
  const words: number[] = [];
  let v = value;
  while (v > 0n) {
    words.unshift(Number(v & 31n));
    v >>= 5n;
  }
  while (words.length < minWords) words.unshift(0);
  return words;
}

function taggedField(type: number, data: number[]): number[] {
  if (data.length >= 1024) throw new RangeError('tagged field too long');
  return [type, data.length >> 5, data.length & 31, ...data];
}

/** 5-bit words to bytes, zero-padding the tail, as the BOLT-11 signature hash requires. */
function wordsToPaddedBytes(words: number[]): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const w of words) {
    acc = (acc << 5) | w;
    bits += 5;
    while (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out.push((acc << (8 - bits)) & 0xff);
  return Uint8Array.from(out);
}

function check32(name: string, bytes: Uint8Array): void {
  if (bytes.length !== 32) throw new RangeError(`${name} must be 32 bytes`);
}

export function encodeBolt11(f: InvoiceFields): string {
  check32('paymentHash', f.paymentHash);
  check32('paymentSecret', f.paymentSecret);
  check32('descriptionHash', f.descriptionHash);
  const prefix = invoicePrefix(f.amountSats);
  const words = [
    ...intToWords(BigInt(f.timestamp), 7),
    ...taggedField(TAG.paymentHash, bech32.toWords(f.paymentHash)),
    ...taggedField(TAG.paymentSecret, bech32.toWords(f.paymentSecret)),
    ...taggedField(TAG.descriptionHash, bech32.toWords(f.descriptionHash)),
    ...taggedField(TAG.expiry, intToWords(BigInt(f.expirySeconds))),
    ...taggedField(TAG.minFinalCltv, intToWords(BigInt(MIN_FINAL_CLTV_EXPIRY))),
    ...taggedField(TAG.features, intToWords(FEATURE_BITS)),
  ];
  const prefixBytes = new TextEncoder().encode(prefix);
  const dataBytes = wordsToPaddedBytes(words);
  const preimage = new Uint8Array(prefixBytes.length + dataBytes.length);
  preimage.set(prefixBytes);
  preimage.set(dataBytes, prefixBytes.length);
  const sig = secp256k1.sign(sha256(preimage), f.nodeSecretKey);
  const sigBytes = new Uint8Array(65);
  sigBytes.set(sig.toCompactRawBytes());
  sigBytes[64] = sig.recovery;
  // Invoices are far longer than bech32's 90-character limit for addresses.
  return bech32.encode(prefix, [...words, ...bech32.toWords(sigBytes)], false);
}

/** The node pubkey (33-byte compressed hex) that signs invoices made with this key. */
export function nodePubkey(nodeSecretKey: Uint8Array): string {
  return Buffer.from(secp256k1.getPublicKey(nodeSecretKey, true)).toString('hex');
}
