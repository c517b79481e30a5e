/**
 * NIP-57 zap receipts of the demo LNURL service: when a ledger invoice issued for a zap request
 * is paid, the zapper key signs the kind-9735 receipt and it goes through the server's own
 * importer — the same path a relay's event takes, so counts, top zaps, the zap lists and the
 * receiver's notification update as for any zap — and, best effort, to the relays the zap
 * request named (public wss:// relays only, unless FETCH_PRIVATE_ADDRESSES is on).
 */
import { finalizeEvent } from 'nostr-tools/pure';
import type { NostrEvent, ServerContext } from '../context.ts';
import { ZAPPER } from '../demo/accounts.ts';
import { publishToRelay } from '../ingest/publish.ts';
import { relayProblem } from '../membership/rebroadcast.ts';
import type { InvoiceRow } from './ledger.ts';

const MAX_RECEIPT_RELAYS = 5;
const ownRelays = new WeakMap<ServerContext, string>();

/** Our own relay's URL: it gets the receipt through the importer, not a second time over a socket. */
export function setOwnRelay(ctx: ServerContext, url: string): void {
  ownRelays.set(ctx, url.replace(/\/+$/, ''));
}
const RELAY_TIMEOUT_MS = 10_000;

/** The receipt for a paid zap invoice; null when the invoice was not a zap. */
export function buildReceipt(paid: InvoiceRow): NostrEvent | null {
  if (!paid.zap_request) return null;
  const request = JSON.parse(paid.zap_request) as NostrEvent;
  const first = (name: string) => request.tags.find((t) => t[0] === name)?.[1];
  const tags: string[][] = [['p', paid.payee]];
  const e = first('e');
  if (e) tags.push(['e', e]);
  const a = first('a');
  if (a) tags.push(['a', a]);
  tags.push(['P', request.pubkey], ['bolt11', paid.invoice], ['description', paid.zap_request], ['preimage', paid.preimage]);
  return finalizeEvent({ kind: 9735, created_at: paid.paid_at ?? paid.created_at, tags, content: '' }, ZAPPER.secretKey);
}

/** Relays named by the zap request other than our own (which gets the receipt through the importer). */
function requestedRelays(paid: InvoiceRow, ownRelay: string | undefined): string[] {
  const request = JSON.parse(paid.zap_request ?? '{}') as { tags?: string[][] };
  const relays = request.tags?.find((t) => t[0] === 'relays')?.slice(1) ?? [];
  return [...new Set(relays)].filter((r) => r.replace(/\/+$/, '') !== ownRelay).slice(0, MAX_RECEIPT_RELAYS);
}

export async function publishReceipt(ctx: ServerContext, paid: InvoiceRow): Promise<NostrEvent | null> {
  const receipt = buildReceipt(paid);
  if (!receipt) return null;
  const [result] = await ctx.importer.importEvents([receipt], 'lightning');
  if (!result?.ok && ctx.config.verbose) console.error('A zap-nyugta importja nem sikerült:', result?.reason);
  for (const url of requestedRelays(paid, ownRelays.get(ctx))) {
    // Not awaited: the payer's wallet must not wait for strangers' relays.
    void relayProblem(url, ctx.config.fetchPrivateAddresses).then(async (problem) => {
      if (problem) return;
      const [answer] = await publishToRelay(url, [receipt], RELAY_TIMEOUT_MS, ctx.config.fetchPrivateAddresses);
      if (ctx.config.verbose && answer && !answer[1]) console.error(`Zap-nyugta: ${url} nem fogadta el: ${answer[2]}`);
    });
  }
  return receipt;
}
