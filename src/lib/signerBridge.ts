/**
 * Lends this tab's NIP-07 extension to the shared worker, which cannot see window.nostr, and
 * mirrors the signed-in pubkey into this tab's localStorage (cleared here when any tab logs out).
 * Extensions inject window.nostr late, so it is looked up on every call, never cached.
 */
import { Comlink, connect, tabId, type Api } from '../worker-client';
import type { AccountSnapshot, NostrEvent, SignerBridge, StruccApi, UnsignedEvent } from '../../core/types';

interface Nip07Cipher {
  encrypt(pubkey: string, plaintext: string): Promise<string>;
  decrypt(pubkey: string, ciphertext: string): Promise<string>;
}

interface Nip07 {
  getPublicKey(): Promise<string>;
  signEvent(event: UnsignedEvent): Promise<NostrEvent>;
  nip04?: Nip07Cipher;
  nip44?: Nip07Cipher;
}

/** The worker retries and falls back on exactly this message (spec §8). */
const NOT_FOUND = 'Nostr extension not found';
const PUBKEY_KEY = 'pubkey';

function extension(): Nip07 {
  const nostr = (window as { nostr?: Nip07 }).nostr;
  if (!nostr || typeof nostr.signEvent !== 'function') throw new Error(NOT_FOUND);
  return nostr;
}

function cipher(name: 'nip04' | 'nip44'): Nip07Cipher {
  const c = extension()[name];
  // A code the DM screen words in Hungarian (an older extension without NIP-44 cannot do NIP-17).
  if (!c) throw new Error(`${name}-unsupported`);
  return c;
}

const bridge: SignerBridge = {
  async available() {
    try {
      extension();
      return true;
    } catch {
      return false;
    }
  },
  getPublicKey: () => extension().getPublicKey(),
  signEvent: (event) => extension().signEvent(event),
  nip04Encrypt: (pubkey, text) => cipher('nip04').encrypt(pubkey, text),
  nip04Decrypt: (pubkey, text) => cipher('nip04').decrypt(pubkey, text),
  nip44Encrypt: (pubkey, text) => cipher('nip44').encrypt(pubkey, text),
  nip44Decrypt: (pubkey, text) => cipher('nip44').decrypt(pubkey, text),
};

function mirrorPubkey(s: AccountSnapshot): void {
  // Only settled states: a login in progress must not clear the key another tab just stored.
  const settled = ['signedIn', 'readOnly', 'locked', 'pinPrompt', 'loggedOut'].includes(s.login.state);
  if (!settled) return;
  try {
    if (s.login.pubkey) localStorage.setItem(PUBKEY_KEY, s.login.pubkey);
    else localStorage.removeItem(PUBKEY_KEY);
  } catch {
    // Storage can be blocked (privacy mode); the worker's state is the truth anyway.
  }
}

/** Comlink's Remote type cannot call an optional method; the worker always implements these. */
type AccountRemote = Required<Pick<StruccApi, 'registerSigner' | 'watchAccount'>>;

async function register(api: Api): Promise<void> {
  const remote = api as unknown as AccountRemote;
  await remote.registerSigner(tabId, Comlink.proxy(bridge));
  await remote.watchAccount(tabId, Comlink.proxy(mirrorPubkey));
}

/** Called once per tab; registers again after a back-forward-cache restore (the worker dropped the tab). */
export function startSignerBridge(): void {
  void connect()
    .then(register)
    .catch(() => undefined);
  window.addEventListener('strucc:rehello', () => {
    const api = connect();
    void api.then(register).catch(() => undefined);
  });
}
