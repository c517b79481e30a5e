import { initNostrWasm } from 'nostr-wasm';
import type { NostrEvent } from '../context.ts';

export interface EventDraft {
  kind: number;
  created_at: number;
  tags: string[][];
  content: string;
}

export type Signer = (draft: EventDraft, secretKey: Uint8Array) => NostrEvent;

// Passing an entropy buffer stops nostr-wasm from drawing fresh randomness for the BIP-340
// aux data, so signatures are reproducible. That matters beyond cosmetics: a zap receipt
// embeds its signed zap request, so a random signature would change the receipt's id.
const FIXED_AUX = new Uint8Array(32);

let signerPromise: Promise<Signer> | undefined;

/**
 * A private nostr-wasm instance (about 2,500–3,000 signatures a second, six times the pure
 * JS signer). It is not shared through nostr-tools' setNostrWasm so that nothing else can
 * disturb its state between our deterministic signatures.
 */
export function demoSigner(): Promise<Signer> {
  signerPromise ??= initNostrWasm().then((wasm) => (draft, secretKey) => {
    const event: NostrEvent = { ...draft, id: '', pubkey: '', sig: '' };
    wasm.finalizeEvent(event, secretKey, FIXED_AUX);
    return event;
  });
  return signerPromise;
}
