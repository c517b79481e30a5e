/**
 * The LNURL-pay callback (LUD-06) of the demo network, with NIP-57 zaps: an amount in msat, an
 * optional comment (LUD-12) and an optional kind-9734 zap request in `nostr`. The answer is a
 * ledger invoice paying the address's owner whose description hash commits to the zap request
 * JSON (or, for a plain payment, to the metadata); errors are LUD-06 `{status:"ERROR", reason}`.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import type { ServerContext } from '../context.ts';
import { createInvoice } from './ledger.ts';
import { LedgerError } from './rules.ts';
import { checkZapRequest } from './zap-request.ts';

export const MIN_SENDABLE_MSAT = 1_000;
/** 1M sats: receipts above 1.1M sats are not counted as zaps (server/ingest/zaps.ts). */
export const MAX_SENDABLE_MSAT = 1_000_000_000;
export const COMMENT_ALLOWED = 280;
const INVOICE_TTL = 600;

/** LUD-06 metadata; the plain payment's description hash is sha256 of exactly this string. */
export function payMetadata(address: string): string {
  return JSON.stringify([
    ['text/plain', `Zap ${address} részére`],
    ['text/identifier', address],
  ]);
}

export type LnurlAnswer = { pr: string; routes: [] } | { status: 'ERROR'; reason: string };

const error = (reason: string): LnurlAnswer => ({ status: 'ERROR', reason });

export async function lnurlCallback(ctx: ServerContext, owner: string, address: string, query: URLSearchParams): Promise<LnurlAnswer> {
  const amountText = query.get('amount') ?? '';
  if (!/^\d{1,16}$/.test(amountText)) return error('Hiányzó vagy hibás amount paraméter (millisatoshi).');
  const amount = Number(amountText);
  if (amount < MIN_SENDABLE_MSAT || amount > MAX_SENDABLE_MSAT) {
    return error(`Az összeg ${MIN_SENDABLE_MSAT} és ${MAX_SENDABLE_MSAT} millisatoshi között lehet.`);
  }
  if (amount % 1000 !== 0) return error('A demó hálózat csak egész satoshit fogad (az összeg 1000 msat többszöröse legyen).');
  const comment = query.get('comment') ?? '';
  if ([...comment].length > COMMENT_ALLOWED) return error(`A megjegyzés legfeljebb ${COMMENT_ALLOWED} karakter lehet.`);
  const nostr = query.get('nostr');
  let descriptionHash: string;
  let zapRequest: string | undefined;
  let description = comment;
  if (nostr !== null) {
    const checked = await checkZapRequest(nostr, amount, owner);
    if (typeof checked === 'string') return error(checked);
    zapRequest = checked.json;
    descriptionHash = bytesToHex(sha256(new TextEncoder().encode(checked.json)));
    // NIP-57: the zap's message is the request's content.
    description = checked.event.content;
  } else {
    descriptionHash = bytesToHex(sha256(new TextEncoder().encode(payMetadata(address))));
  }
  try {
    const row = await createInvoice(ctx, {
      payee: owner,
      amountSats: amount / 1000,
      description,
      descriptionHash,
      expirySeconds: INVOICE_TTL,
      zapRequest,
      comment,
    });
    return { pr: row.invoice, routes: [] };
  } catch (err) {
    if (err instanceof LedgerError) return error(err.message);
    throw err;
  }
}
