/**
 * The one Signer of the worker: everything that needs a signature or NIP-04/44 goes through it.
 * It signs with a local secret held in memory only, or forwards to a tab's NIP-07 extension
 * (workers cannot see window.nostr), or to a remote signer (NIP-46) the worker keeps one session with.
 * Whatever an extension or a remote signer hands back is verified before use.
 */
import { finalizeEvent, verifyEvent } from 'nostr-tools/pure';
import { AccountError, EXTENSION_NOT_FOUND, isHexKey, pubkeyOf } from '../core/keys.ts';
import { APP_SETTINGS_CLIENT, REMOTE_SIGNER_TIMEOUT_MS } from '../core/config.ts';
import { answerWithin, type RemoteConnection } from './nip46.ts';
import type { NostrEvent, SignerBridge, UnsignedEvent } from '../core/types.ts';

// Encryption (DMs, private mutes) is not needed to show the first screen; its ciphers load on first use.
const nip04 = () => import('nostr-tools/nip04');
const nip44 = () => import('nostr-tools/nip44');

export type SignerMode =
  | { kind: 'none' }
  | { kind: 'readonly'; pubkey: string }
  | { kind: 'local'; pubkey: string; secret: Uint8Array }
  | { kind: 'extension'; pubkey: string }
  | { kind: 'remote'; pubkey: string; relays: string[]; connection: RemoteConnection };

/** A closed tab's Comlink port never answers; a live one answers a probe at once. */
const PROBE_TIMEOUT_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
    );
  });
}

function isNotFound(err: unknown): boolean {
  return err instanceof Error && err.message.includes(EXTENSION_NOT_FOUND);
}

/** A fresh plain copy: verifyEvent caches its verdict on the object, and extensions may add fields. */
function plainEvent(e: NostrEvent): NostrEvent {
  return { id: e.id, pubkey: e.pubkey, created_at: e.created_at, kind: e.kind, tags: e.tags, content: e.content, sig: e.sig };
}

export class Signer {
  private readonly bridges = new Map<string, SignerBridge>();
  private mode: SignerMode = { kind: 'none' };
  private readonly remoteTimeoutMs: number;

  constructor(options: { remoteTimeoutMs?: number } = {}) {
    this.remoteTimeoutMs = options.remoteTimeoutMs ?? REMOTE_SIGNER_TIMEOUT_MS;
  }

  get timeoutMs(): number {
    return this.remoteTimeoutMs;
  }

  addBridge(tabId: string, bridge: SignerBridge): void {
    this.bridges.set(tabId, bridge);
  }

  removeBridge(tabId: string): void {
    this.bridges.delete(tabId);
  }

  get bridgeCount(): number {
    return this.bridges.size;
  }

  get current(): SignerMode {
    return this.mode;
  }

  get pubkey(): string | undefined {
    return this.mode.kind === 'none' ? undefined : this.mode.pubkey;
  }

  get canSign(): boolean {
    return this.mode.kind === 'local' || this.mode.kind === 'extension' || this.mode.kind === 'remote';
  }

  useLocal(secret: Uint8Array): string {
    const pubkey = pubkeyOf(secret);
    this.mode = { kind: 'local', pubkey, secret: secret.slice() };
    return pubkey;
  }

  useExtension(pubkey: string): void {
    this.mode = { kind: 'extension', pubkey };
  }

  /** Takes over a connected remote signer; the previous one, if any, is closed. */
  useRemote(pubkey: string, relays: string[], connection: RemoteConnection): void {
    this.clear();
    this.mode = { kind: 'remote', pubkey, relays, connection };
  }

  useReadOnly(pubkey: string): void {
    this.mode = { kind: 'readonly', pubkey };
  }

  /** Forgets the key; the secret's bytes are overwritten rather than left to the collector. */
  clear(): void {
    if (this.mode.kind === 'local') this.mode.secret.fill(0);
    if (this.mode.kind === 'remote') void this.mode.connection.close().catch(() => undefined);
    this.mode = { kind: 'none' };
  }

  /** The pubkey of the first live tab whose extension answers; 'Nostr extension not found' otherwise. */
  async detectExtension(): Promise<string> {
    const pubkey = await this.viaBridge((b) => b.getPublicKey());
    if (typeof pubkey !== 'string' || !isHexKey(pubkey)) throw new Error(EXTENSION_NOT_FOUND);
    return pubkey;
  }

  async getPublicKey(): Promise<string> {
    if (this.mode.kind === 'local') return this.mode.pubkey;
    if (this.mode.kind === 'extension') return this.extension((b) => b.getPublicKey());
    if (this.mode.kind === 'remote') return this.mode.pubkey;
    throw new AccountError('pubkey-no-nsec');
  }

  async sign(template: UnsignedEvent): Promise<NostrEvent> {
    const base = { kind: template.kind, tags: template.tags, content: template.content, created_at: template.created_at };
    if (this.mode.kind === 'local') return plainEvent(finalizeEvent(base, this.mode.secret));
    if (this.mode.kind === 'readonly') throw new AccountError('sign-no-nsec');
    if (this.mode.kind === 'none') throw new AccountError('no_nostr_extension');
    const pubkey = this.mode.pubkey;
    const returned =
      this.mode.kind === 'remote'
        ? await this.remote((c) => c.signEvent(base))
        : await this.extension((b) => b.signEvent({ ...base, pubkey }));
    if (!returned || typeof returned.sig !== 'string' || typeof returned.id !== 'string' || returned.sig === '') {
      throw new AccountError('event_not_signed');
    }
    const event = plainEvent(returned);
    // An extension signing with another key, or altering the event, is as bad as a broken signature.
    const same =
      event.pubkey === pubkey &&
      event.kind === base.kind &&
      event.content === base.content &&
      JSON.stringify(event.tags) === JSON.stringify(base.tags);
    if (!same || !verifyEvent(event)) throw new AccountError('event-sig-not-verified');
    return event;
  }

  /** A signed-request event (protocol C.1): kind 30078 tagged ["d", "Primal-Web App", op]. */
  signRequest(op: string, content: unknown = { description: op }): Promise<NostrEvent> {
    return this.sign({
      kind: 30078,
      tags: [['d', APP_SETTINGS_CLIENT, op]],
      content: typeof content === 'string' ? content : JSON.stringify(content),
      created_at: Math.floor(Date.now() / 1000),
    });
  }

  async nip04Encrypt(pubkey: string, plaintext: string): Promise<string> {
    if (this.mode.kind === 'local') return (await nip04()).encrypt(this.mode.secret, pubkey, plaintext);
    if (this.mode.kind === 'extension') return this.extension((b) => b.nip04Encrypt(pubkey, plaintext));
    if (this.mode.kind === 'remote') return this.remote((c) => c.nip04Encrypt(pubkey, plaintext));
    throw new AccountError('encrypt-no-nsec');
  }

  async nip04Decrypt(pubkey: string, ciphertext: string): Promise<string> {
    if (this.mode.kind === 'local') return (await nip04()).decrypt(this.mode.secret, pubkey, ciphertext);
    if (this.mode.kind === 'extension') return this.extension((b) => b.nip04Decrypt(pubkey, ciphertext));
    if (this.mode.kind === 'remote') return this.remote((c) => c.nip04Decrypt(pubkey, ciphertext));
    throw new AccountError('decrypt-no-nsec');
  }

  async nip44Encrypt(pubkey: string, plaintext: string): Promise<string> {
    if (this.mode.kind === 'local') {
      const { v2 } = await nip44();
      return v2.encrypt(plaintext, v2.utils.getConversationKey(this.mode.secret, pubkey));
    }
    if (this.mode.kind === 'extension') return this.extension((b) => b.nip44Encrypt(pubkey, plaintext));
    if (this.mode.kind === 'remote') return this.remote((c) => c.nip44Encrypt(pubkey, plaintext));
    throw new AccountError('encrypt-no-nsec');
  }

  async nip44Decrypt(pubkey: string, ciphertext: string): Promise<string> {
    if (this.mode.kind === 'local') {
      const { v2 } = await nip44();
      return v2.decrypt(ciphertext, v2.utils.getConversationKey(this.mode.secret, pubkey));
    }
    if (this.mode.kind === 'extension') return this.extension((b) => b.nip44Decrypt(pubkey, ciphertext));
    if (this.mode.kind === 'remote') return this.remote((c) => c.nip44Decrypt(pubkey, ciphertext));
    throw new AccountError('decrypt-no-nsec');
  }

  /** One request to the remote signer, with our timeout and error codes (the library has neither). */
  private remote<T>(call: (c: RemoteConnection) => Promise<T>): Promise<T> {
    if (this.mode.kind !== 'remote') return Promise.reject(new AccountError('no_nostr_extension'));
    return answerWithin(call(this.mode.connection), this.remoteTimeoutMs);
  }

  /** Signed in through an extension, but no tab can lend one right now: no_nostr_extension. */
  private async extension<T>(call: (b: SignerBridge) => Promise<T>): Promise<T> {
    try {
      return await this.viaBridge(call);
    } catch (err) {
      if (isNotFound(err)) throw new AccountError('no_nostr_extension');
      throw err;
    }
  }

  /**
   * Tries the tabs in turn: one that does not answer the probe is gone (and dropped), one whose
   * extension vanished is skipped. Any other error (the user refused) is final, so that one
   * refusal does not open a prompt in every other tab.
   */
  private async viaBridge<T>(call: (b: SignerBridge) => Promise<T>): Promise<T> {
    for (const [tabId, bridge] of [...this.bridges]) {
      let alive: boolean | undefined;
      try {
        alive = await withTimeout(bridge.available(), PROBE_TIMEOUT_MS);
      } catch {
        alive = undefined;
      }
      if (alive === undefined) {
        this.bridges.delete(tabId);
        continue;
      }
      if (!alive) continue;
      try {
        return await call(bridge);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    throw new Error(EXTENSION_NOT_FOUND);
  }
}
