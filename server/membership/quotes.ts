/**
 * Membership quotes: a price in dollars turned into a real, signed BOLT-11 invoice, and the
 * payment that activates the membership. The invoice is a demo-ledger invoice
 * (server/lightning/ledger.ts), so a quote is paid either by paying that invoice from a demo
 * wallet (NIP-47) or through the operator's demo endpoint (see config.ts); everything after
 * that — the membership, the name, the history, the monitor's push — is the real path.
 */
import { randomUUID } from 'node:crypto';
import { CommandError, isHex64 } from '../cache/args.ts';
import type { ServerContext } from '../context.ts';
import { createInvoice, MEMBERSHIP_ACCOUNT } from '../lightning/ledger.ts';
import type { Queryable } from '../store/db.ts';
import { membershipConfig } from './config.ts';
import { checkName, nameAvailable } from './names.ts';
import { addMonths, btcString, priceCents, productOf, PRODUCTS, usdCentsToSats, usdString, type Product } from './products.ts';
import { isPremium, membershipOf, membershipRow } from './store.ts';

export type QuoteStatus = 'pending' | 'paid' | 'expired';

export interface Quote {
  id: string;
  payer: string;
  receiver: string;
  product_id: string;
  name: string | null;
  amount_sats: number;
  amount_usd_cents: number;
  invoice: string;
  status: QuoteStatus;
  created_at: number;
  expires_at: number;
  paid_at: number | null;
}

/** Unpaid quotes one user may hold open at once; each is a row and an invoice. */
const MAX_OPEN_QUOTES = 20;

function toQuote(r: Record<string, unknown>): Quote {
  const n = (v: unknown) => Number(v);
  return {
    id: String(r.id),
    payer: String(r.payer),
    receiver: String(r.receiver),
    product_id: String(r.product_id),
    name: r.name === null ? null : String(r.name),
    amount_sats: n(r.amount_sats),
    amount_usd_cents: n(r.amount_usd_cents),
    invoice: String(r.invoice),
    status: r.status === 'paid' || r.status === 'expired' ? r.status : 'pending',
    created_at: n(r.created_at),
    expires_at: n(r.expires_at),
    paid_at: r.paid_at === null ? null : n(r.paid_at),
  };
}

/** The quote with an unpaid one past its end settled to expired. */
export async function quoteOf(db: Queryable, id: string, now: number): Promise<Quote | undefined> {
  const row = await db.get<Record<string, unknown>>('SELECT * FROM membership_quotes WHERE id = ?', [id]);
  if (!row) return undefined;
  const q = toQuote(row);
  if (q.status === 'pending' && now >= q.expires_at) {
    await db.run(`UPDATE membership_quotes SET status = 'expired' WHERE id = ? AND status = 'pending'`, [id]);
    return { ...q, status: 'expired' };
  }
  return q;
}

export function quoteFields(q: Quote): Record<string, unknown> {
  const product = PRODUCTS.get(q.product_id);
  return {
    membership_quote_id: q.id,
    qr_code: q.invoice,
    amount_btc: btcString(q.amount_sats),
    amount_usd: usdString(q.amount_usd_cents),
    amount_sats: q.amount_sats,
    currency: 'USD',
    product_id: q.product_id,
    product_label: product?.label ?? q.product_id,
    receiver_pubkey: q.receiver,
    name: q.name ?? '',
    status: q.status,
    paid: q.status === 'paid',
    created_at: q.created_at,
    expires_at: q.expires_at,
    paid_at: q.paid_at,
  };
}

/** membership_purchase_product: checks the order, prices it and issues the invoice. */
export async function createQuote(ctx: ServerContext, payer: string, params: Record<string, unknown>): Promise<Quote> {
  if (params.stripe_subscription) throw new CommandError('Kártyás fizetés nem érhető el: ezen a szerveren csak Lightning-számlával lehet fizetni.');
  if (params.onchain === true) throw new CommandError('Láncon belüli (on-chain) fizetés nem érhető el: csak Lightning-számlával lehet fizetni.');
  const product = productOf(params.product_id);
  const receiverRaw = params.receiver_pubkey ?? payer;
  if (!isHex64(receiverRaw)) throw new CommandError('invalid receiver_pubkey: expected 64 hex characters');
  const receiver = receiverRaw.toLowerCase();
  const now = ctx.now();
  const current = await membershipOf(ctx.db, receiver, now);
  if (product.months !== null && current.tier === 'premium-legend') {
    throw new CommandError('Legenda tagként már lejárat nélküli prémium tagság jár; prémium csomagot nem kell venni.');
  }
  // A renewal may keep the current name; a first purchase must choose one.
  let name: string | null = null;
  if (params.name !== undefined && params.name !== null && params.name !== '') name = checkName(params.name);
  else if (!current.name) throw new CommandError('missing name');
  if (name !== null && !(await nameAvailable(ctx, name, receiver))) throw new CommandError('A név már foglalt.');
  const config = membershipConfig(ctx);
  const cents = priceCents(product, params.amount_usd, config.exchangeRates);
  const sats = usdCentsToSats(cents, config.exchangeRates);
  const open = await ctx.db.get<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM membership_quotes WHERE payer = ? AND status = 'pending' AND expires_at > ?`,
    [payer, now],
  );
  if (Number(open?.n ?? 0) >= MAX_OPEN_QUOTES) throw new CommandError('too many open quotes');

  const ttl = config.quoteTtlSeconds;
  const description = `Strucc: ${product.label}${name ? ` (${name})` : ''}`;
  const id = randomUUID();
  const { invoice } = await createInvoice(ctx, { payee: MEMBERSHIP_ACCOUNT, amountSats: sats, description, expirySeconds: ttl, quoteId: id });
  const quote: Quote = {
    id,
    payer,
    receiver,
    product_id: product.id,
    name,
    amount_sats: sats,
    amount_usd_cents: cents,
    invoice,
    status: 'pending',
    created_at: now,
    expires_at: now + ttl,
    paid_at: null,
  };
  await ctx.db.run(
    `INSERT INTO membership_quotes (id, payer, receiver, product_id, name, amount_sats, amount_usd_cents, invoice, status, created_at, expires_at, paid_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
    [quote.id, payer, receiver, product.id, name, sats, cents, invoice, 'pending', now, quote.expires_at],
  );
  return quote;
}

export class PaymentError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Marks the quote paid and applies it to the receiver's membership, in one transaction. Paying
 * a paid quote again changes nothing, so a retried request cannot extend a plan twice.
 */
export async function payQuote(ctx: ServerContext, id: string): Promise<Quote> {
  const now = ctx.now();
  const q = await quoteOf(ctx.db, id, now);
  if (!q) throw new PaymentError(404, 'Nincs ilyen árajánlat.');
  if (q.status === 'paid') return q;
  if (q.status === 'expired') throw new PaymentError(409, 'Az árajánlat lejárt.');
  const product = PRODUCTS.get(q.product_id);
  if (!product) throw new PaymentError(409, 'Ismeretlen termék.');
  return ctx.db.transaction(async (tx) => {
    if (!(await applyQuote(tx, q, product, now))) {
      const again = await quoteOf(tx, id, now);
      if (again?.status === 'paid') return again;
      throw new PaymentError(409, 'Az árajánlat lejárt.');
    }
    // The quote's ledger invoice is settled too, so it cannot be paid a second time from a wallet.
    await tx.run(`UPDATE ln_invoices SET status = 'paid', paid_at = ? WHERE quote_id = ? AND status = 'pending'`, [now, id]);
    return { ...q, status: 'paid' as const, paid_at: now };
  });
}

/**
 * Marks a pending quote paid inside the caller's transaction (a ledger payment of the quote's
 * invoice); false when it is already paid, expired or unknown, so the payment is refused.
 */
export async function settleQuoteIn(tx: Queryable, id: string, now: number): Promise<boolean> {
  const q = await quoteOf(tx, id, now);
  if (!q || q.status !== 'pending') return false;
  const product = PRODUCTS.get(q.product_id);
  if (!product) return false;
  return applyQuote(tx, q, product, now);
}

/** Marks the quote paid and applies it to the receiver's membership; false if it was no longer pending. */
async function applyQuote(tx: Queryable, q: Quote, product: Product, now: number): Promise<boolean> {
  const marked = await tx.run(`UPDATE membership_quotes SET status = 'paid', paid_at = ? WHERE id = ? AND status = 'pending'`, [now, q.id]);
  if (!marked.changes) return false;
  const cur = await membershipRow(tx, q.receiver);
  const active = !!cur && isPremium(cur) && (cur.expires_on === null || cur.expires_on > now);
  // The name chosen at purchase is kept only if nobody took it meanwhile; else the member renames later.
  let name = cur?.name ?? null;
  if (q.name) {
    const holder = await tx.get<{ pubkey: string }>('SELECT pubkey FROM memberships WHERE name = ?', [q.name]);
    if (!holder || holder.pubkey === q.receiver) name = q.name;
  }
  const legend = product.months === null || cur?.tier === 'premium-legend';
  const tier = legend ? 'premium-legend' : 'premium';
  // Leaderboards rank by the first day of membership, so a renewal after a gap keeps it.
  const premiumSince = cur?.premium_since ?? now;
  const legendSince = legend ? (cur?.legend_since ?? now) : null;
  const expiresOn = legend ? null : addMonths(active && cur?.expires_on ? Math.max(now, cur.expires_on) : now, product.months ?? 0);
  const donated = (cur?.donated_sats ?? 0) + (product.months === null ? q.amount_sats : 0);
  const lastDonation = product.months === null ? now : (cur?.last_donation ?? null);
  await tx.run(
    `INSERT INTO memberships (pubkey, tier, name, premium_since, legend_since, expires_on, donated_sats, last_donation)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (pubkey) DO UPDATE SET tier = excluded.tier, name = excluded.name, premium_since = excluded.premium_since,
       legend_since = excluded.legend_since, expires_on = excluded.expires_on, donated_sats = excluded.donated_sats,
       last_donation = excluded.last_donation`,
    [q.receiver, tier, name, premiumSince, legendSince, expiresOn, donated, lastDonation],
  );
  return true;
}
