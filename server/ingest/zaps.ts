import type { NostrEvent } from '../context.ts';
import { isHex64 } from './verify.ts';
import { bolt11Sats } from '../../core/bolt11.ts';

/** Receipts above this are treated as bogus (S §4.2). */
export const MAX_ZAP_SATS = 1_100_000;

export interface ZapReceipt {
  receiptId: string;
  sender: string;
  receiver: string;
  /** Last e tag of the receipt; null for a zap on a profile (or on an article named only by `address`). */
  target: string | null;
  /** The first `a` tag (kind:pubkey:d): some clients zap an article by its address alone. */
  address: string | null;
  amountSats: number;
  /** The zap request's comment. */
  message: string;
  createdAt: number;
}

/** Parses a kind-9735 receipt per S §4.2, or returns why it is not a countable zap. */
export function parseZapReceipt(event: NostrEvent): ZapReceipt | string {
  const tag = (name: string) => event.tags.find((t) => t[0] === name)?.[1];
  const receiver = tag('p');
  if (!isHex64(receiver)) return 'no p tag';
  const description = tag('description');
  if (description === undefined) return 'no description tag';
  let request: unknown;
  try {
    request = JSON.parse(description);
  } catch {
    return 'description is not JSON';
  }
  if (typeof request !== 'object' || request === null) return 'description is not a zap request';
  const req = request as { pubkey?: unknown; content?: unknown; tags?: unknown };
  if (!isHex64(req.pubkey)) return 'zap request has no pubkey';

  const bolt11 = tag('bolt11');
  let amount = bolt11 !== undefined ? bolt11Sats(bolt11) : null;
  if (amount === null && Array.isArray(req.tags)) {
    const amountTag = req.tags.find((t): t is unknown[] => Array.isArray(t) && t[0] === 'amount');
    const msats = Number(amountTag?.[1]);
    if (Number.isFinite(msats) && msats > 0) amount = Math.floor(msats / 1000);
  }
  if (!amount) return 'zero or missing amount';
  if (amount > MAX_ZAP_SATS) return 'amount above limit';

  let target: string | null = null;
  for (const t of event.tags) if (t[0] === 'e' && isHex64(t[1])) target = t[1];
  const a = event.tags.find((t) => t[0] === 'a' && typeof t[1] === 'string' && /^\d+:[0-9a-f]{64}:/.test(t[1]));
  return {
    receiptId: event.id,
    sender: req.pubkey,
    receiver,
    target,
    address: a ? a[1] : null,
    amountSats: amount,
    message: typeof req.content === 'string' ? req.content : '',
    createdAt: event.created_at,
  };
}
