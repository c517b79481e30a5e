/**
 * A stand-in for a NIP-07 browser extension: window.nostr is defined in every page of the context
 * before the app's scripts run, as an extension's content script would. The key never enters the
 * page: each call crosses to the Node test process, which signs with nostr-tools (real BIP-340
 * Schnorr signatures) and encrypts with real NIP-04 and NIP-44, and records what it was asked to sign.
 */
import type { BrowserContext } from '@playwright/test';
import { finalizeEvent, getPublicKey, type EventTemplate, type VerifiedEvent } from 'nostr-tools/pure';
import * as nip04 from 'nostr-tools/nip04';
import { v2 as nip44 } from 'nostr-tools/nip44';

export interface Nip07Stub {
  pubkey: string;
  /** Every event the stub signed, in order. */
  signed: VerifiedEvent[];
}

type Call =
  | { method: 'getPublicKey' }
  | { method: 'signEvent'; event: EventTemplate }
  | { method: 'nip04.encrypt' | 'nip04.decrypt' | 'nip44.encrypt' | 'nip44.decrypt'; pubkey: string; text: string };

const BINDING = '__strucc_nip07_stub';

/** Runs in the page: the window.nostr shape extensions provide, each method forwarding to Node. */
function defineWindowNostr(binding: string): void {
  const call = (request: unknown) => (window as unknown as Record<string, (r: unknown) => Promise<unknown>>)[binding](request);
  Object.defineProperty(window, 'nostr', {
    configurable: true,
    value: {
      getPublicKey: () => call({ method: 'getPublicKey' }),
      signEvent: (event: unknown) => call({ method: 'signEvent', event }),
      nip04: {
        encrypt: (pubkey: string, text: string) => call({ method: 'nip04.encrypt', pubkey, text }),
        decrypt: (pubkey: string, text: string) => call({ method: 'nip04.decrypt', pubkey, text }),
      },
      nip44: {
        encrypt: (pubkey: string, text: string) => call({ method: 'nip44.encrypt', pubkey, text }),
        decrypt: (pubkey: string, text: string) => call({ method: 'nip44.decrypt', pubkey, text }),
      },
    },
  });
}

export async function installNip07Stub(context: BrowserContext, secretKey: Uint8Array): Promise<Nip07Stub> {
  const stub: Nip07Stub = { pubkey: getPublicKey(secretKey), signed: [] };
  await context.exposeFunction(BINDING, async (call: Call): Promise<unknown> => {
    switch (call.method) {
      case 'getPublicKey':
        return stub.pubkey;
      case 'signEvent': {
        // Only the template's fields: an extension sets pubkey, id and sig itself.
        const { kind, tags, content, created_at } = call.event;
        const event = finalizeEvent({ kind, tags, content, created_at }, secretKey);
        stub.signed.push(event);
        return event;
      }
      case 'nip04.encrypt':
        return nip04.encrypt(secretKey, call.pubkey, call.text);
      case 'nip04.decrypt':
        return nip04.decrypt(secretKey, call.pubkey, call.text);
      // NIP-17 private messages: seals and gift wraps are NIP-44.
      case 'nip44.encrypt':
        return nip44.encrypt(call.text, nip44.utils.getConversationKey(secretKey, call.pubkey));
      case 'nip44.decrypt':
        return nip44.decrypt(call.text, nip44.utils.getConversationKey(secretKey, call.pubkey));
    }
  });
  await context.addInitScript(defineWindowNostr, BINDING);
  return stub;
}

/** Turns on devMode (window.strucc) in every page of the context; timings shorten sleep and wake. */
export async function enableDevMode(context: BrowserContext, activityTimings?: { sleepMs: number; wakeMs: number }): Promise<void> {
  await context.addInitScript((timings) => {
    localStorage.setItem('devMode', 'true');
    if (timings) localStorage.setItem('activityTimings', JSON.stringify(timings));
    else localStorage.removeItem('activityTimings');
  }, activityTimings ?? null);
}

/**
 * devMode with shorter feed polling and cache request timeout (ClientConfig.devTimings), so a
 * test sees the new-notes pill or a failed save in seconds rather than the spec's 30 s and 20 s.
 */
export async function enableDevTimings(target: Pick<BrowserContext, 'addInitScript'>, timings: { feedPollMs?: number; requestTimeoutMs?: number }): Promise<void> {
  await target.addInitScript((t) => {
    localStorage.setItem('devMode', 'true');
    localStorage.setItem('devTimings', JSON.stringify(t));
  }, timings);
}
