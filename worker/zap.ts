/**
 * The LNURL-pay half of a zap (LUD-06/16, NIP-57), run in the worker: the author's address to its
 * pay endpoint, the signed kind-9734 zap request, and the invoice from the callback. An address on
 * the demo server's own NIP-05 domain is served by that server, which the browser reaches through
 * the cache server's origin (the domain itself need not resolve).
 */
import { bech32 } from '@scure/base';
import { makeZapRequest } from 'nostr-tools/nip57';
import type { NostrEvent, UnsignedEvent } from '../core/types.ts';

export class ZapError extends Error {}

/** 'no-address' when the author has neither lud16 nor lud06 ('author cannot be zapped'). */
export function lnurlEndpoint(lud16: string, lud06: string, ownDomain?: { domain: string; origin: string }): string {
  const address = lud16.trim().toLowerCase();
  const at = address.indexOf('@');
  if (at > 0 && at < address.length - 1) {
    const name = address.slice(0, at);
    const domain = address.slice(at + 1);
    if (!/^[a-z0-9._+-]+$/.test(name) || !/^[a-z0-9.-]+(:\d+)?$/.test(domain)) throw new ZapError('no-address');
    if (ownDomain && domain === ownDomain.domain) return `${ownDomain.origin}/.well-known/lnurlp/${name}`;
    return `https://${domain}/.well-known/lnurlp/${name}`;
  }
  const lnurl = lud06.trim().toLowerCase();
  if (lnurl.startsWith('lnurl1')) {
    try {
      const { words } = bech32.decode(lnurl as `${string}1${string}`, 2000);
      const url = new TextDecoder().decode(bech32.fromWords(words));
      if (/^https?:\/\//.test(url)) return url;
    } catch {
      // falls through to no-address
    }
  }
  throw new ZapError('no-address');
}

export interface PayEndpoint {
  callback: string;
  minSendable: number;
  maxSendable: number;
  commentAllowed: number;
  allowsNostr: boolean;
  nostrPubkey?: string;
}

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

async function getJson(fetcher: Fetch, url: string): Promise<Record<string, unknown>> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), 15_000);
  try {
    const res = await fetcher(url, { signal: ctrl.signal });
    const body = (await res.json()) as Record<string, unknown>;
    if (body.status === 'ERROR') throw new ZapError(typeof body.reason === 'string' ? body.reason : 'lnurl-error');
    return body;
  } catch (e) {
    // A fetch to another origin without CORS headers fails here, like a network error.
    throw e instanceof ZapError ? e : new ZapError('lnurl-unreachable');
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A fetch that asks the LNURL server from the browser, as any client does, and only when that
 * fails at the network level (a server without CORS headers looks exactly so) asks our server's
 * guarded proxy (server/http/lnurlp.ts) for the same URL. The demo domain is served by our own
 * origin and never needs it.
 */
export function withLnurlProxy(fetcher: Fetch, origin: string | undefined): Fetch {
  if (!origin) return fetcher;
  return async (url, init) => {
    if (url.startsWith(`${origin}/`)) return fetcher(url, init);
    try {
      return await fetcher(url, init);
    } catch (e) {
      if (init?.signal?.aborted) throw e;
      return fetcher(`${origin}/lnurlp/proxy?url=${encodeURIComponent(url)}`, init);
    }
  };
}

export async function payEndpoint(fetcher: Fetch, url: string): Promise<PayEndpoint> {
  const b = await getJson(fetcher, url);
  if (typeof b.callback !== 'string') throw new ZapError('lnurl-error');
  return {
    callback: b.callback,
    minSendable: Number(b.minSendable ?? 1),
    maxSendable: Number(b.maxSendable ?? Number.MAX_SAFE_INTEGER),
    commentAllowed: Number(b.commentAllowed ?? 0),
    allowsNostr: b.allowsNostr === true,
    nostrPubkey: typeof b.nostrPubkey === 'string' ? b.nostrPubkey : undefined,
  };
}

export interface ZapParams {
  recipient: string;
  /** The zapped note, or none for a profile zap. */
  event?: NostrEvent;
  amountSats: number;
  comment: string;
  relays: string[];
  lnurl: string;
}

/** Signs the zap request (when the endpoint speaks NIP-57) and returns the callback's bolt11. */
export async function fetchZapInvoice(fetcher: Fetch, sign: (t: UnsignedEvent) => Promise<NostrEvent>, p: ZapParams): Promise<string> {
  const endpoint = await payEndpoint(fetcher, p.lnurl);
  const msats = p.amountSats * 1000;
  if (msats < endpoint.minSendable || msats > endpoint.maxSendable) throw new ZapError('amount-out-of-range');
  const comment = endpoint.commentAllowed > 0 ? p.comment.slice(0, endpoint.commentAllowed) : '';
  const url = new URL(endpoint.callback);
  url.searchParams.set('amount', String(msats));
  if (endpoint.allowsNostr && endpoint.nostrPubkey) {
    const template = p.event
      ? makeZapRequest({ event: p.event, amount: msats, comment: p.comment, relays: p.relays })
      : makeZapRequest({ pubkey: p.recipient, amount: msats, comment: p.comment, relays: p.relays });
    // A split share (appendix G) zaps the event but pays, and names, another recipient.
    if (p.event && p.recipient !== p.event.pubkey) template.tags = template.tags.map((t) => (t[0] === 'p' ? ['p', p.recipient] : t));
    // The lnurl tag lets the service check the request was meant for it (NIP-57 appendix A).
    template.tags.push(['lnurl', bech32.encode('lnurl', bech32.toWords(new TextEncoder().encode(p.lnurl)), 2000)]);
    const request = await sign(template as UnsignedEvent);
    url.searchParams.set('nostr', JSON.stringify(request));
  } else if (comment) url.searchParams.set('comment', comment);
  const answer = await getJson(fetcher, url.toString());
  if (typeof answer.pr !== 'string') throw new ZapError('lnurl-error');
  return answer.pr;
}

export interface SplitShare {
  pubkey: string;
  amountSats: number;
}

/**
 * NIP-57 appendix G: the event's `zap` tags name who gets the zap, by weight. Without weights the
 * split is even; with some weighted, the unweighted get nothing. The sats are divided by weight
 * (largest remainders get the odd sats, so the total stays exact) and zero shares are dropped.
 * No zap tags: undefined, the author gets it all.
 */
export function zapSplits(event: Pick<NostrEvent, 'tags'> | undefined, amountSats: number): SplitShare[] | undefined {
  const tags = (event?.tags ?? []).filter((t) => t[0] === 'zap' && /^[0-9a-f]{64}$/.test(t[1] ?? ''));
  if (tags.length === 0) return undefined;
  const weighted = tags.some((t) => t[3] !== undefined && t[3] !== '');
  const weights = new Map<string, number>();
  for (const t of tags) {
    const w = weighted ? Number(t[3]) : 1;
    if (Number.isFinite(w) && w > 0) weights.set(t[1], (weights.get(t[1]) ?? 0) + w);
  }
  const total = [...weights.values()].reduce((a, b) => a + b, 0);
  if (total <= 0) return undefined;
  const shares = [...weights].map(([pubkey, w]) => {
    const exact = (amountSats * w) / total;
    return { pubkey, amountSats: Math.floor(exact), rest: exact - Math.floor(exact) };
  });
  let left = amountSats - shares.reduce((a, s) => a + s.amountSats, 0);
  for (const s of [...shares].sort((a, b) => b.rest - a.rest)) {
    if (left <= 0) break;
    s.amountSats += 1;
    left -= 1;
  }
  return shares.filter((s) => s.amountSats > 0).map(({ pubkey, amountSats: sats }) => ({ pubkey, amountSats: sats }));
}
