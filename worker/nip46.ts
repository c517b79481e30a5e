/**
 * Remote signers (NIP-46): the worker holds one session with the bunker, over the relays its
 * bunker:// URI names, so every tab signs through the same connection. The session (our client
 * key and the bunker pointer) is stored with the login, so a reload reconnects without asking again.
 * The nostr-tools client is loaded on first use: most people never log in this way.
 */
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { AccountError, bytesToHex, isHexKey, secretFromHex } from '../core/keys.ts';
import type { NostrEvent, UnsignedEvent } from '../core/types.ts';

export interface BunkerSession {
  /** The bunker's own key: it answers requests and may differ from the user's key. */
  remotePubkey: string;
  relays: string[];
  /** Hex key of this client's side of the conversation; not the user's key. */
  clientSecret: string;
}

/** What the Signer needs of a live connection; BunkerSigner satisfies it, tests may fake it. */
export interface RemoteConnection {
  signEvent(event: Omit<UnsignedEvent, 'pubkey'>): Promise<NostrEvent>;
  nip04Encrypt(pubkey: string, plaintext: string): Promise<string>;
  nip04Decrypt(pubkey: string, ciphertext: string): Promise<string>;
  nip44Encrypt(pubkey: string, plaintext: string): Promise<string>;
  nip44Decrypt(pubkey: string, ciphertext: string): Promise<string>;
  close(): Promise<void>;
}

/** Every kind Strucc signs, so a signer app can grant them once at connect instead of prompting per event. */
const SIGNED_KINDS = [0, 1, 3, 4, 5, 6, 7, 16, 1018, 1068, 1111, 1984, 9734, 9802, 10000, 10002, 10003, 10030, 22242, 24242, 27235, 30000, 30023, 30078];

export const REQUESTED_PERMS = [
  ...SIGNED_KINDS.map((k) => `sign_event:${k}`),
  'nip04_encrypt',
  'nip04_decrypt',
  'nip44_encrypt',
  'nip44_decrypt',
].join(',');

function validRelay(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'wss:' || u.protocol === 'ws:';
  } catch {
    return false;
  }
}

/** bunker://<hex pubkey>?relay=wss://…&secret=… ; anything else is bunker-bad-uri. */
export function parseBunkerUri(input: string): { remotePubkey: string; relays: string[]; secret: string | null } {
  const value = input.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AccountError('bunker-bad-uri');
  }
  // URL keeps a non-special scheme's authority in host (Chromium) or pathname (older engines).
  const remotePubkey = (url.host || url.pathname.replace(/^\/\//, '')).toLowerCase();
  const relays = [...new Set(url.searchParams.getAll('relay').filter(validRelay))];
  if (url.protocol !== 'bunker:' || !isHexKey(remotePubkey) || relays.length === 0) throw new AccountError('bunker-bad-uri');
  return { remotePubkey, relays, secret: url.searchParams.get('secret') };
}

export function newBunkerSession(remotePubkey: string, relays: string[]): BunkerSession {
  return { remotePubkey, relays, clientSecret: bytesToHex(generateSecretKey()) };
}

export function isBunkerSession(value: unknown): value is BunkerSession {
  const v = value as Partial<BunkerSession> | undefined;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.remotePubkey === 'string' &&
    isHexKey(v.remotePubkey) &&
    typeof v.clientSecret === 'string' &&
    isHexKey(v.clientSecret) &&
    Array.isArray(v.relays) &&
    v.relays.length > 0 &&
    v.relays.every((r) => typeof r === 'string' && validRelay(r))
  );
}

/** A nostr-tools failure as one of our codes: a signer's own error text means it said no. */
export function remoteErrorCode(err: unknown): AccountError {
  if (err instanceof AccountError) return err;
  // pool.publish rejects every relay at once (AggregateError) when none of them can be reached.
  if (err instanceof AggregateError || (err instanceof Error && /connect|websocket|closed|not open/i.test(err.message))) {
    return new AccountError('bunker-unreachable');
  }
  return new AccountError('bunker-rejected');
}

/** Rejects with bunker-timeout when the signer does not answer in time. */
export function answerWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new AccountError('bunker-timeout')), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err) => {
        clearTimeout(timer);
        reject(remoteErrorCode(err));
      },
    );
  });
}

/**
 * Opens the connection. With `secret` (a fresh bunker:// login) it sends connect with the
 * permissions Strucc needs and asks for the user's pubkey; a stored session just resubscribes.
 */
async function loadClient() {
  const [{ BunkerSigner, createNostrConnectURI }, { AbstractSimplePool }, { verifyEvent }] = await Promise.all([
    import('nostr-tools/nip46'),
    import('nostr-tools/abstract-pool'),
    import('nostr-tools/pure'),
  ]);
  // The socket class is read now, not when nostr-tools first loaded (Node tests install it late).
  const newPool = () => new AbstractSimplePool({ verifyEvent, websocketImplementation: globalThis.WebSocket, maxWaitForConnection: 5000 });
  return { BunkerSigner, createNostrConnectURI, newPool };
}

type Bunker = import('nostr-tools/nip46').BunkerSigner;

function wrap(signer: Bunker, pool: { destroy(): void }): RemoteConnection {
  return {
    signEvent: (e) => signer.signEvent(e),
    nip04Encrypt: (p, t) => signer.nip04Encrypt(p, t),
    nip04Decrypt: (p, c) => signer.nip04Decrypt(p, c),
    nip44Encrypt: (p, t) => signer.nip44Encrypt(p, t),
    nip44Decrypt: (p, c) => signer.nip44Decrypt(p, c),
    close: async () => {
      await signer.close();
      pool.destroy();
    },
  };
}

/**
 * Opens the connection. With `login` (a fresh bunker:// login) it sends connect with the
 * permissions Strucc needs and asks for the user's pubkey; a stored session just resubscribes.
 */
export async function openBunker(
  session: BunkerSession,
  timeoutMs: number,
  login?: { secret: string | null },
): Promise<{ connection: RemoteConnection; pubkey?: string }> {
  const { BunkerSigner, newPool } = await loadClient();
  const pool = newPool();
  const bp = { pubkey: session.remotePubkey, relays: session.relays, secret: login?.secret ?? null };
  const signer = BunkerSigner.fromBunker(secretFromHex(session.clientSecret), bp, { pool });
  const connection = wrap(signer, pool);
  if (!login) return { connection };
  try {
    await answerWithin(signer.sendRequest('connect', [session.remotePubkey, login.secret ?? '', REQUESTED_PERMS]), timeoutMs);
    const pubkey = await answerWithin(signer.getPublicKey(), timeoutMs);
    if (!isHexKey(pubkey)) throw new AccountError('bunker-rejected');
    return { connection, pubkey };
  } catch (err) {
    await connection.close().catch(() => undefined);
    throw err;
  }
}

/** A nostrconnect:// offer shown as a QR code, waiting for a signer app to answer it. */
export interface NostrConnectOffer {
  uri: string;
  relays: string[];
  clientSecret: string;
  abort: AbortController;
}

export async function nostrConnectOffer(relays: string[]): Promise<NostrConnectOffer> {
  const { createNostrConnectURI } = await loadClient();
  const clientKey = generateSecretKey();
  const secret = bytesToHex(generateSecretKey()).slice(0, 16);
  const uri = createNostrConnectURI({ clientPubkey: getPublicKey(clientKey), relays, secret, perms: REQUESTED_PERMS.split(','), name: 'Strucc' });
  return { uri, relays, clientSecret: bytesToHex(clientKey), abort: new AbortController() };
}

/** Waits (up to waitMs, or until aborted) for the signer app to accept the offer; then asks for the user's pubkey. */
export async function acceptNostrConnect(
  offer: NostrConnectOffer,
  waitMs: number,
  timeoutMs: number,
): Promise<{ connection: RemoteConnection; pubkey: string; session: BunkerSession }> {
  const { BunkerSigner, newPool } = await loadClient();
  const pool = newPool();
  const timer = setTimeout(() => offer.abort.abort(), waitMs);
  let signer: Bunker;
  try {
    signer = await BunkerSigner.fromURI(secretFromHex(offer.clientSecret), offer.uri, { pool, skipSwitchRelays: true }, offer.abort.signal);
  } catch {
    // The library closes the subscription on abort and on its own wait limit alike: no signer came.
    pool.destroy();
    throw new AccountError('bunker-timeout');
  } finally {
    clearTimeout(timer);
  }
  const connection = wrap(signer, pool);
  try {
    const pubkey = await answerWithin(signer.getPublicKey(), timeoutMs);
    if (!isHexKey(pubkey)) throw new AccountError('bunker-rejected');
    return { connection, pubkey, session: { remotePubkey: signer.bp.pubkey, relays: offer.relays, clientSecret: offer.clientSecret } };
  } catch (err) {
    await connection.close().catch(() => undefined);
    throw err;
  }
}
