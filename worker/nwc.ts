/**
 * The NIP-47 client half, in the worker only: the connection secret signs and encrypts requests
 * here and never goes to a tab. One short-lived socket per request keeps a wallet relay that is
 * slow or gone from holding anything else up.
 */
import { hexToBytes } from '@noble/hashes/utils.js';
import { finalizeEvent } from 'nostr-tools/pure';
import * as nip04 from 'nostr-tools/nip04';
import * as nip44 from 'nostr-tools/nip44';
import type { NwcParts } from '../machines/wallet.ts';
import type { NostrEvent } from '../core/types.ts';

export const NWC_REQUEST_TIMEOUT_MS = 30_000;

export type SocketFactory = (url: string) => WebSocket;

const defaultSocket: SocketFactory = (url) => new WebSocket(url);

/** A NIP-47 error answer; `code` is the wallet's (INSUFFICIENT_BALANCE, RESTRICTED, ...). */
export class NwcError extends Error {
  constructor(readonly code: string, message: string) {
    super(code || message);
  }
}

function randomSub(): string {
  const b = new Uint8Array(6);
  crypto.getRandomValues(b);
  return `nwc${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`;
}

async function decrypt(secret: Uint8Array, walletPubkey: string, content: string): Promise<string> {
  // The wallet answers in the scheme the request used, but a NIP-44 reply is told apart by its shape.
  if (content.includes('?iv=')) return nip04.decrypt(secret, walletPubkey, content);
  return nip44.v2.decrypt(content, nip44.v2.utils.getConversationKey(secret, walletPubkey));
}

/**
 * One NIP-47 request: subscribes for the answer first (so a fast wallet cannot answer before we
 * listen), then sends the kind-23194 request; resolves with `result` or rejects with NwcError.
 */
export async function nwcRequest(
  parts: NwcParts,
  method: string,
  params: Record<string, unknown>,
  opts: { timeoutMs?: number; socket?: SocketFactory } = {},
): Promise<Record<string, unknown>> {
  const secret = hexToBytes(parts.secret);
  const content = await nip04.encrypt(secret, parts.walletPubkey, JSON.stringify({ method, params }));
  const request = finalizeEvent({ kind: 23194, created_at: Math.floor(Date.now() / 1000), tags: [['p', parts.walletPubkey]], content }, secret) as NostrEvent;
  const sub = randomSub();
  const ws = (opts.socket ?? defaultSocket)(parts.relays[0]);
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (f: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        ws.close();
      } catch {
        // already closed
      }
      f();
    };
    const timer = setTimeout(() => finish(() => reject(new NwcError('timeout', 'timeout'))), opts.timeoutMs ?? NWC_REQUEST_TIMEOUT_MS);
    ws.onopen = () => ws.send(JSON.stringify(['REQ', sub, { kinds: [23195], authors: [parts.walletPubkey], '#e': [request.id] }]));
    ws.onerror = () => finish(() => reject(new NwcError('relay', 'relay')));
    ws.onclose = () => finish(() => reject(new NwcError('relay', 'relay')));
    ws.onmessage = (m) => {
      let msg: unknown[];
      try {
        msg = JSON.parse(String(m.data)) as unknown[];
      } catch {
        return;
      }
      if (msg[1] !== sub && msg[0] !== 'OK') return;
      if (msg[0] === 'EOSE') ws.send(JSON.stringify(['EVENT', request]));
      else if (msg[0] === 'OK' && msg[1] === request.id && msg[2] === false) finish(() => reject(new NwcError('relay', String(msg[3] ?? 'relay'))));
      else if (msg[0] === 'EVENT') {
        const answer = msg[2] as NostrEvent;
        void decrypt(secret, parts.walletPubkey, answer.content)
          .then((text) => {
            const body = JSON.parse(text) as { error?: { code?: string; message?: string } | null; result?: Record<string, unknown> | null };
            if (body.error) finish(() => reject(new NwcError(String(body.error?.code ?? 'OTHER'), String(body.error?.message ?? ''))));
            else finish(() => resolve(body.result ?? {}));
          })
          .catch(() => finish(() => reject(new NwcError('OTHER', 'undecryptable answer'))));
      }
    };
  });
}

export interface WalletTransaction {
  type: 'incoming' | 'outgoing';
  amountSats: number;
  description: string;
  createdAt: number;
}

export interface WalletDetails {
  balanceSats: number;
  transactions: WalletTransaction[];
}

/** get_balance and the ten newest list_transactions, in the units a page shows (sats). */
export async function walletDetails(parts: NwcParts, socket?: SocketFactory): Promise<WalletDetails> {
  const balance = await nwcRequest(parts, 'get_balance', {}, { socket });
  let transactions: WalletTransaction[] = [];
  try {
    const list = await nwcRequest(parts, 'list_transactions', { limit: 10 }, { socket });
    const raw = Array.isArray(list.transactions) ? (list.transactions as Record<string, unknown>[]) : [];
    transactions = raw.map((t) => ({
      type: t.type === 'outgoing' ? 'outgoing' : 'incoming',
      amountSats: Math.floor(Number(t.amount ?? 0) / 1000),
      description: typeof t.description === 'string' ? t.description : '',
      createdAt: Number(t.created_at ?? t.settled_at ?? 0),
    }));
  } catch {
    // A wallet without list_transactions still shows its balance.
  }
  return { balanceSats: Math.floor(Number(balance.balance ?? 0) / 1000), transactions };
}

/** pay_invoice; resolves to the preimage. */
export async function payInvoice(parts: NwcParts, invoice: string, socket?: SocketFactory): Promise<string> {
  const result = await nwcRequest(parts, 'pay_invoice', { invoice }, { socket, timeoutMs: 60_000 });
  return typeof result.preimage === 'string' ? result.preimage : '';
}
