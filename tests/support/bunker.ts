/**
 * A minimal NIP-46 remote signer ("bunker") for tests, built on nostr-tools' primitives: it holds
 * the user's key, listens for kind 24133 requests on the given relays and answers with NIP-44.
 * Methods: connect (with the secret), get_public_key, sign_event, nip04/nip44 encrypt/decrypt,
 * ping. `refuse` makes it answer a method with an error, as a person pressing "reject" would.
 */
import { AbstractSimplePool } from 'nostr-tools/abstract-pool';
import * as nip04 from 'nostr-tools/nip04';
import * as nip44 from 'nostr-tools/nip44';
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent, type Event } from 'nostr-tools/pure';
import WebSocket from 'ws';

export interface BunkerRequest {
  client: string;
  method: string;
  params: string[];
}

export interface TestBunker {
  /** The user's pubkey (what get_public_key answers). */
  userPubkey: string;
  /** The bunker's own key, named in the URI. */
  bunkerPubkey: string;
  uri: string;
  requests: BunkerRequest[];
  /** Methods answered with an error from now on. */
  refuse: Set<string>;
  /**
   * Accepts a nostrconnect:// offer as a signer app that scanned its QR code would. The answer is
   * ephemeral, so it is repeated until the client's first request shows it listened.
   */
  acceptNostrConnect(uri: string): Promise<void>;
  close(): void;
}

export async function startBunker(relays: string[], userSecret: Uint8Array = generateSecretKey()): Promise<TestBunker> {
  // A bunker key of its own, unlike the user's, so the client must ask get_public_key.
  const bunkerSecret = generateSecretKey();
  const bunkerPubkey = getPublicKey(bunkerSecret);
  const secret = Math.random().toString(36).slice(2);
  const pool = new AbstractSimplePool({ verifyEvent, websocketImplementation: WebSocket as unknown as typeof globalThis.WebSocket, maxWaitForConnection: 5000 });
  const connected = new Set<string>();
  const requests: BunkerRequest[] = [];
  const refuse = new Set<string>();

  const answer = async (client: string, body: { id: string; result?: string; error?: string }) => {
    const key = nip44.v2.utils.getConversationKey(bunkerSecret, client);
    const event = finalizeEvent(
      { kind: 24133, tags: [['p', client]], content: nip44.v2.encrypt(JSON.stringify(body), key), created_at: Math.floor(Date.now() / 1000) },
      bunkerSecret,
    );
    await Promise.any(pool.publish(relays, event)).catch(() => undefined);
  };

  const handle = async (event: Event) => {
    let request: { id: string; method: string; params: string[] };
    try {
      request = JSON.parse(nip44.v2.decrypt(event.content, nip44.v2.utils.getConversationKey(bunkerSecret, event.pubkey)));
    } catch {
      return;
    }
    const client = event.pubkey;
    const { id, method, params } = request;
    requests.push({ client, method, params });
    if (refuse.has(method)) return answer(client, { id, error: 'rejected by user' });
    if (method === 'connect') {
      if (params[1] !== secret) return answer(client, { id, error: 'invalid secret' });
      connected.add(client);
      return answer(client, { id, result: 'ack' });
    }
    if (!connected.has(client)) return answer(client, { id, error: 'not connected' });
    try {
      switch (method) {
        case 'ping':
          return answer(client, { id, result: 'pong' });
        case 'get_public_key':
          return answer(client, { id, result: getPublicKey(userSecret) });
        case 'sign_event': {
          const template = JSON.parse(params[0]);
          const signed = finalizeEvent({ kind: template.kind, tags: template.tags, content: template.content, created_at: template.created_at }, userSecret);
          return answer(client, { id, result: JSON.stringify(signed) });
        }
        case 'nip04_encrypt':
          return answer(client, { id, result: nip04.encrypt(userSecret, params[0], params[1]) });
        case 'nip04_decrypt':
          return answer(client, { id, result: nip04.decrypt(userSecret, params[0], params[1]) });
        case 'nip44_encrypt':
          return answer(client, { id, result: nip44.v2.encrypt(params[1], nip44.v2.utils.getConversationKey(userSecret, params[0])) });
        case 'nip44_decrypt':
          return answer(client, { id, result: nip44.v2.decrypt(params[1], nip44.v2.utils.getConversationKey(userSecret, params[0])) });
        default:
          return answer(client, { id, error: `unsupported method ${method}` });
      }
    } catch (err) {
      return answer(client, { id, error: err instanceof Error ? err.message : String(err) });
    }
  };

  let subscribed!: () => void;
  const ready = new Promise<void>((resolve) => (subscribed = resolve));
  const sub = pool.subscribe(relays, { kinds: [24133], '#p': [bunkerPubkey], limit: 0 }, { onevent: (e) => void handle(e), oneose: () => subscribed() });
  await ready;

  const query = relays.map((r) => `relay=${encodeURIComponent(r)}`).join('&');
  const acceptNostrConnect = async (uri: string) => {
    const url = new URL(uri);
    const client = url.host || url.pathname.replace(/^\/\//, '');
    const secret = url.searchParams.get('secret') ?? '';
    connected.add(client);
    const heard = () => requests.some((r) => r.client === client);
    while (!heard()) {
      await answer(client, { id: Math.random().toString(36).slice(2), result: secret });
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  return {
    acceptNostrConnect,
    userPubkey: getPublicKey(userSecret),
    bunkerPubkey,
    uri: `bunker://${bunkerPubkey}?${query}&secret=${secret}`,
    requests,
    refuse,
    close: () => {
      sub.close();
      pool.destroy();
    },
  };
}
