import { createCipheriv } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1';
import { sha256 } from '@noble/hashes/sha2';

const utf8 = new TextEncoder();

/**
 * NIP-04 encryption (AES-256-CBC over the ECDH x coordinate), written out here because
 * nostr-tools draws a random IV and the demo network must be reproducible. The IV is
 * derived from the conversation and the message, so it is still unique per message.
 * The output decrypts with any NIP-04 implementation (the tests use nostr-tools).
 */
export class Nip04Encryptor {
  private readonly keys = new Map<string, Uint8Array>();

  private sharedKey(secretKey: Uint8Array, pubkey: string): Uint8Array {
    const cacheKey = `${Buffer.from(secretKey).toString('hex')}:${pubkey}`;
    let key = this.keys.get(cacheKey);
    if (!key) {
      key = secp256k1.getSharedSecret(secretKey, `02${pubkey}`).slice(1, 33);
      this.keys.set(cacheKey, key);
    }
    return key;
  }

  encrypt(secretKey: Uint8Array, pubkey: string, text: string, nonceLabel: string): string {
    const key = this.sharedKey(secretKey, pubkey);
    const iv = sha256(utf8.encode(`strucc-demo-dm-iv:${pubkey}:${nonceLabel}`)).slice(0, 16);
    const cipher = createCipheriv('aes-256-cbc', key, iv);
    const ct = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return `${ct.toString('base64')}?iv=${Buffer.from(iv).toString('base64')}`;
  }
}
