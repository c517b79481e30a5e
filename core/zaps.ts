/** Zap receipts (kind 9735) to the top-zap summaries a note card shows (spec §3 "Zap"). */
import type { CacheObject, NostrEvent, TopZap } from './types.ts';
import { bolt11Sats } from './bolt11.ts';

function tag(event: Pick<NostrEvent, 'tags'>, name: string): string | undefined {
  return event.tags.find((t) => t[0] === name)?.[1];
}

function lastTag(event: Pick<NostrEvent, 'tags'>, name: string): string | undefined {
  for (let i = event.tags.length - 1; i >= 0; i--) if (event.tags[i][0] === name) return event.tags[i][1];
  return undefined;
}

interface ZapRequest {
  pubkey: string;
  content: string;
  tags: string[][];
}

function zapRequestOf(receipt: NostrEvent): ZapRequest | undefined {
  const description = tag(receipt, 'description');
  if (!description) return undefined;
  try {
    const req = JSON.parse(description) as Partial<ZapRequest>;
    if (typeof req !== 'object' || req === null || typeof req.pubkey !== 'string') return undefined;
    return { pubkey: req.pubkey, content: typeof req.content === 'string' ? req.content : '', tags: Array.isArray(req.tags) ? req.tags : [] };
  } catch {
    return undefined;
  }
}

/** A receipt's summary; the invoice amount wins, the zap request's amount tag (msats) is the fallback. */
export function zapFromReceipt(receipt: NostrEvent): TopZap | undefined {
  const request = zapRequestOf(receipt);
  const eventId = lastTag(receipt, 'e');
  if (!eventId) return undefined;
  // An invoice of 0 sats counts as none, so the request's amount tag is read instead.
  let amount = bolt11Sats(tag(receipt, 'bolt11') ?? '') || undefined;
  if (amount === undefined && request) {
    const msats = Number(request.tags.find((t) => t[0] === 'amount')?.[1]);
    if (Number.isFinite(msats) && msats > 0) amount = Math.floor(msats / 1000);
  }
  if (amount === undefined) return undefined;
  return { id: receipt.id, amount, pubkey: request?.pubkey ?? receipt.pubkey, message: request?.content ?? '', eventId };
}

/** A 10000129 EventZapInfo, which carries the server's own reading of amount and sender. */
export function zapFromInfo(info: CacheObject): TopZap | undefined {
  let c: Record<string, unknown>;
  try {
    c = JSON.parse(info.content ?? '') as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof c !== 'object' || c === null) return undefined;
  const id = c.zap_receipt_id, eventId = c.event_id, sender = c.sender, amount = Number(c.amount_sats);
  if (typeof id !== 'string' || typeof eventId !== 'string' || !Number.isFinite(amount)) return undefined;
  return { id, amount, pubkey: typeof sender === 'string' ? sender : '', message: typeof c.content === 'string' ? c.content : '', eventId };
}

/** Sorted by amount descending, one entry per receipt id, at most 10 (spec §3). */
export function topZaps(zaps: Iterable<TopZap>, limit = 10): TopZap[] {
  const byId = new Map<string, TopZap>();
  for (const z of zaps) {
    const seen = byId.get(z.id);
    // The receipt knows the message, the 10000129 may not: keep whichever has more to show.
    byId.set(z.id, seen ? { ...seen, ...z, message: seen.message || z.message, pubkey: z.pubkey || seen.pubkey } : z);
  }
  return [...byId.values()].sort((a, b) => b.amount - a.amount).slice(0, limit);
}
