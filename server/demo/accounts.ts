import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import { schnorr } from '@noble/curves/secp256k1';
import { nip19 } from 'nostr-tools';

/**
 * Every demo account's key is derived from a public label, so anyone can log in as a
 * demo user, tests can predict pubkeys, and a reset reproduces the same network.
 * These keys are public knowledge: they must never hold anything of value.
 */
export interface DemoAccount {
  label: string;
  secretKey: Uint8Array;
  pubkey: string;
}

const utf8 = new TextEncoder();
const cache = new Map<string, DemoAccount>();

export function demoSecretKey(label: string): Uint8Array {
  return sha256(utf8.encode(`strucc-demo:${label}`));
}

export function demoAccount(label: string): DemoAccount {
  let account = cache.get(label);
  if (!account) {
    const secretKey = demoSecretKey(label);
    account = { label, secretKey, pubkey: bytesToHex(schnorr.getPublicKey(secretKey)) };
    cache.set(label, account);
  }
  return account;
}

/** Ordinary demo user number i (1-based; user 1 is the demo login). */
export function demoUser(i: number): DemoAccount {
  if (!Number.isInteger(i) || i < 1) throw new RangeError(`demo user index must be a positive integer, got ${i}`);
  return demoAccount(`user:${i}`);
}

/** The "Strucc" house account: the guest's default home feed follows the network's most active users. */
export const HOUSE = demoAccount('house');
export const HOUSE_PUBKEY = HOUSE.pubkey;

/** The throwaway account offered as the one-click demo login. */
export const DEMO_LOGIN = demoUser(1);
export const DEMO_LOGIN_PUBKEY = DEMO_LOGIN.pubkey;
export const DEMO_LOGIN_NSEC = nip19.nsecEncode(DEMO_LOGIN.secretKey);
export const DEMO_LOGIN_NPUB = nip19.npubEncode(DEMO_LOGIN.pubkey);

/** The lightning service that signs zap receipts (its pubkey is the LNURL `nostrPubkey`). */
export const ZAPPER = demoAccount('zapper');
export const ZAPPER_PUBKEY = ZAPPER.pubkey;
