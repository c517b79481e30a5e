/**
 * NIP-57 appendix D: the checks an LNURL server makes on the kind-9734 zap request it gets in
 * the callback's `nostr` parameter before it issues an invoice. Pure apart from the signature
 * check, so the rules are unit-tested directly.
 */
import type { NostrEvent } from '../context.ts';
import { initVerifier, validateShape, verifySignature } from '../ingest/verify.ts';

const HEX64 = /^[0-9a-f]{64}$/;
const COORDINATE = /^\d+:[0-9a-f]{64}:.*$/;
const MAX_ZAP_REQUEST_CHARS = 20_000;

export interface ZapRequest {
  event: NostrEvent;
  /** The JSON exactly as received: its sha256 is the invoice's description hash. */
  json: string;
  recipient: string;
  eventId: string | null;
  coordinate: string | null;
  relays: string[];
}

/**
 * Returns the checked zap request, or the reason (Hungarian, for the LNURL error) it is refused.
 * `recipient` is the pubkey behind the lightning address the callback belongs to.
 */
export async function checkZapRequest(json: string, amountMsat: number, recipient: string): Promise<ZapRequest | string> {
  if (json.length > MAX_ZAP_REQUEST_CHARS) return 'A zap-kérés túl nagy.';
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return 'A zap-kérés (nostr paraméter) nem érvényes JSON.';
  }
  const event = validateShape(raw);
  if (typeof event === 'string') return `Hibás zap-kérés: ${event}.`;
  await initVerifier();
  if (!verifySignature(event)) return 'A zap-kérés aláírása érvénytelen.';
  return checkZapRequestTags(event, json, amountMsat, recipient);
}

/** The tag rules of appendix D, on an event whose signature is already checked. */
export function checkZapRequestTags(event: NostrEvent, json: string, amountMsat: number, recipient: string): ZapRequest | string {
  if (event.kind !== 9734) return 'A zap-kérés nem 9734-es típusú esemény.';
  if (!Array.isArray(event.tags) || event.tags.length === 0) return 'A zap-kérésnek nincsenek címkéi.';
  const all = (name: string) => event.tags.filter((t) => t[0] === name);
  const p = all('p');
  if (p.length !== 1) return p.length === 0 ? 'A zap-kérésből hiányzik a p címke.' : 'A zap-kérésben pontosan egy p címke lehet.';
  if (!HEX64.test(p[0][1] ?? '')) return 'A zap-kérés p címkéje nem érvényes pubkey.';
  // The invoice pays this lightning address, so the request must zap its owner.
  if (p[0][1] !== recipient) return 'A zap-kérés p címkéje nem ennek a villámcímnek a tulajdonosa.';
  const e = all('e');
  if (e.length > 1) return 'A zap-kérésben legfeljebb egy e címke lehet.';
  if (e.length === 1 && !HEX64.test(e[0][1] ?? '')) return 'A zap-kérés e címkéje nem érvényes eseményazonosító.';
  const a = all('a');
  if (a.length > 1) return 'A zap-kérésben legfeljebb egy a címke lehet.';
  if (a.length === 1 && !COORDINATE.test(a[0][1] ?? '')) return 'A zap-kérés a címkéje nem érvényes eseménykoordináta.';
  const bigP = all('P');
  if (bigP.length > 1) return 'A zap-kérésben legfeljebb egy P címke lehet.';
  if (bigP.length === 1 && bigP[0][1] !== event.pubkey) return 'A zap-kérés P címkéje nem a kérés aláírója.';
  const amount = all('amount');
  if (amount.length > 1) return 'A zap-kérésben legfeljebb egy amount címke lehet.';
  if (amount.length === 1 && amount[0][1] !== String(amountMsat)) return 'A zap-kérés amount címkéje nem egyezik a kért összeggel.';
  const relayTag = all('relays')[0];
  const relays = (relayTag?.slice(1) ?? []).filter((r) => typeof r === 'string' && /^wss?:\/\//i.test(r));
  if (relays.length === 0) return 'A zap-kérésből hiányzik a relays címke (hová kerüljön a nyugta).';
  return {
    event,
    json,
    recipient,
    eventId: e[0]?.[1] ?? null,
    coordinate: a[0]?.[1] ?? null,
    relays,
  };
}
