/**
 * The demo lightning network's ledger: sat balances per account and the invoices of one demo
 * node. Invoices are real BOLT-11 strings signed by the node key (server/demo/bolt11.ts, the
 * one invoice maker, which membership quotes use through createInvoice too); the payment hash is
 * sha256 of a preimage only the ledger knows until the invoice is paid. A payment moves the
 * sats, marks the invoice paid and — for a membership quote — activates the membership, all in
 * one transaction; the zap receipt of a zap invoice is published after it commits.
 */
import { randomBytes } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils';
import type { ServerContext } from '../context.ts';
import { encodeBolt11, nodePubkey } from '../demo/bolt11.ts';
import { DEMO_LOGIN_PUBKEY } from '../demo/accounts.ts';
import { settleQuoteIn } from '../membership/quotes.ts';
import type { Queryable } from '../store/db.ts';
import { publishReceipt } from './receipts.ts';
import { budgetWindowStart, LedgerError, paymentRefusal, START_SATS, type BudgetRenewal } from './rules.ts';

const NODE_KEY = 'lightning_node_key';
/** Payee of membership quotes: sats paid for a plan leave the demo accounts for the operator. */
export const MEMBERSHIP_ACCOUNT = 'service:membership';
const MAX_DESCRIPTION = 640;
const MAX_EXPIRY = 7 * 86_400;

export interface InvoiceRow {
  payment_hash: string;
  invoice: string;
  preimage: string;
  payee: string;
  amount_sats: number;
  description: string;
  description_hash: string;
  zap_request: string | null;
  comment: string;
  quote_id: string | null;
  status: 'pending' | 'paid';
  created_at: number;
  expires_at: number;
  paid_at: number | null;
  payer: string | null;
  paid_via: string | null;
}

function toRow(r: Record<string, unknown>): InvoiceRow {
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    payment_hash: String(r.payment_hash),
    invoice: String(r.invoice),
    preimage: String(r.preimage),
    payee: String(r.payee),
    amount_sats: Number(r.amount_sats),
    description: String(r.description ?? ''),
    description_hash: String(r.description_hash),
    zap_request: s(r.zap_request),
    comment: String(r.comment ?? ''),
    quote_id: s(r.quote_id),
    status: r.status === 'paid' ? 'paid' : 'pending',
    created_at: Number(r.created_at),
    expires_at: Number(r.expires_at),
    paid_at: n(r.paid_at),
    payer: s(r.payer),
    paid_via: s(r.paid_via),
  };
}

/** The demo node's key, made once per database so every invoice names the same node. */
export async function nodeKey(db: Queryable): Promise<Uint8Array> {
  await db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [NODE_KEY, bytesToHex(randomBytes(32))]);
  const row = await db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [NODE_KEY]);
  if (!row) throw new Error('lightning node key missing');
  return hexToBytes(row.value);
}

export async function demoNodePubkey(db: Queryable): Promise<string> {
  return nodePubkey(await nodeKey(db));
}

/** The profile's lightning address when it is on our domain (what makes an account a demo account). */
export async function demoAddressOf(db: Queryable, domain: string, pubkey: string): Promise<string | undefined> {
  const row = await db.get<{ content: string }>(
    `SELECT e.content FROM replaceable r JOIN events e ON e.id = r.event_id WHERE r.pubkey = ? AND r.kind = 0 AND r.d = ''`,
    [pubkey],
  );
  if (!row) return undefined;
  try {
    const lud16 = (JSON.parse(row.content) as { lud16?: unknown }).lud16;
    if (typeof lud16 === 'string' && lud16.trim().toLowerCase().endsWith(`@${domain.toLowerCase()}`)) return lud16.trim().toLowerCase();
  } catch {
    // A broken profile has no address.
  }
  return undefined;
}

/**
 * Opens the account on first use: the demo login and every profile with a lightning address on
 * our domain start with START_SATS (the demo keys are public, so these sats are play money);
 * anyone else starts empty and can only receive.
 */
async function openAccount(db: Queryable, ctx: ServerContext, pubkey: string): Promise<void> {
  const exists = await db.get('SELECT 1 AS x FROM ln_accounts WHERE pubkey = ?', [pubkey]);
  if (exists) return;
  const demo = pubkey === DEMO_LOGIN_PUBKEY || (await demoAddressOf(db, ctx.config.nip05Domain, pubkey)) !== undefined;
  await db.run('INSERT INTO ln_accounts (pubkey, balance_sats, created_at) VALUES (?, ?, ?) ON CONFLICT (pubkey) DO NOTHING', [
    pubkey,
    demo ? START_SATS : 0,
    ctx.now(),
  ]);
}

export async function balanceOf(ctx: ServerContext, pubkey: string): Promise<number> {
  await openAccount(ctx.db, ctx, pubkey);
  const row = await ctx.db.get<{ b: number | string }>('SELECT balance_sats AS b FROM ln_accounts WHERE pubkey = ?', [pubkey]);
  return Number(row?.b ?? 0);
}

export interface NewInvoice {
  payee: string;
  amountSats: number;
  /** Shown to the payer; its sha256 is the description hash unless descriptionHash is given. */
  description?: string;
  /** Hex; LNURL-pay commits to the metadata or the zap request this way. */
  descriptionHash?: string;
  expirySeconds?: number;
  zapRequest?: string;
  comment?: string;
  quoteId?: string;
}

export async function createInvoice(ctx: ServerContext, inv: NewInvoice): Promise<InvoiceRow> {
  if (!Number.isSafeInteger(inv.amountSats) || inv.amountSats <= 0) throw new LedgerError('OTHER', 'Az összeg pozitív egész satoshi kell legyen.');
  const description = (inv.description ?? '').slice(0, MAX_DESCRIPTION);
  let descriptionHash: Uint8Array;
  if (inv.descriptionHash !== undefined) {
    if (!/^[0-9a-f]{64}$/i.test(inv.descriptionHash)) throw new LedgerError('OTHER', 'Hibás description_hash.');
    descriptionHash = hexToBytes(inv.descriptionHash.toLowerCase());
  } else descriptionHash = sha256(new TextEncoder().encode(description));
  const expiry = Math.min(Math.max(Math.floor(inv.expirySeconds ?? 3600), 60), MAX_EXPIRY);
  const now = ctx.now();
  const preimage = randomBytes(32);
  const paymentHash = sha256(preimage);
  const invoice = encodeBolt11({
    amountSats: inv.amountSats,
    timestamp: now,
    paymentHash,
    paymentSecret: randomBytes(32),
    descriptionHash,
    expirySeconds: expiry,
    nodeSecretKey: await nodeKey(ctx.db),
  });
  const row: InvoiceRow = {
    payment_hash: bytesToHex(paymentHash),
    invoice,
    preimage: bytesToHex(preimage),
    payee: inv.payee,
    amount_sats: inv.amountSats,
    description,
    description_hash: bytesToHex(descriptionHash),
    zap_request: inv.zapRequest ?? null,
    comment: inv.comment ?? '',
    quote_id: inv.quoteId ?? null,
    status: 'pending',
    created_at: now,
    expires_at: now + expiry,
    paid_at: null,
    payer: null,
    paid_via: null,
  };
  await ctx.db.run(
    `INSERT INTO ln_invoices (payment_hash, invoice, preimage, payee, amount_sats, description, description_hash, zap_request, comment,
       quote_id, status, created_at, expires_at, paid_at, payer, paid_via)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, NULL, NULL, NULL)`,
    [row.payment_hash, invoice, row.preimage, row.payee, row.amount_sats, description, row.description_hash, row.zap_request, row.comment, row.quote_id, now, row.expires_at],
  );
  return row;
}

/** An invoice by its payment hash or its BOLT-11 text (any letter case). */
export async function findInvoice(db: Queryable, by: { paymentHash?: string; invoice?: string }): Promise<InvoiceRow | undefined> {
  let r: Record<string, unknown> | undefined;
  if (by.paymentHash) r = await db.get('SELECT * FROM ln_invoices WHERE payment_hash = ?', [by.paymentHash.toLowerCase()]);
  else if (by.invoice) r = await db.get('SELECT * FROM ln_invoices WHERE invoice = ?', [by.invoice.trim().toLowerCase()]);
  return r && toRow(r);
}

export interface Spender {
  clientPubkey: string;
  budgetSats: number;
  renewal: BudgetRenewal;
}

/** Sats a connection paid within its current budget window. */
export async function spentInWindow(db: Queryable, clientPubkey: string, renewal: BudgetRenewal, now: number): Promise<number> {
  const row = await db.get<{ s: number | string | null }>(
    `SELECT SUM(amount_sats) AS s FROM ln_invoices WHERE paid_via = ? AND status = 'paid' AND paid_at > ?`,
    [clientPubkey, budgetWindowStart(renewal, now)],
  );
  return Number(row?.s ?? 0);
}

/**
 * Pays a ledger invoice from the payer's account. Refuses unknown (external), paid and expired
 * invoices, over-budget payments and missing balance; returns the paid invoice (its preimage).
 */
export async function payInvoice(ctx: ServerContext, payer: string, invoice: string, via?: Spender): Promise<InvoiceRow> {
  if (typeof invoice !== 'string' || !/^ln/i.test(invoice.trim())) throw new LedgerError('OTHER', 'Hibás számla.');
  const paid = await ctx.db.transaction(async (tx) => {
    const inv = await findInvoice(tx, { invoice });
    if (!inv) throw new LedgerError('PAYMENT_FAILED', 'Ez a számla nem a demó hálózaté: a demó pénztárca csak a demó hálózat számláit tudja kifizetni.');
    const now = ctx.now();
    await openAccount(tx, ctx, payer);
    await openAccount(tx, ctx, inv.payee);
    const bal = await tx.get<{ b: number | string }>('SELECT balance_sats AS b FROM ln_accounts WHERE pubkey = ?', [payer]);
    const refusal = paymentRefusal({
      status: inv.status,
      expiresAt: inv.expires_at,
      amountSats: inv.amount_sats,
      payee: inv.payee,
      payer,
      payerBalance: Number(bal?.b ?? 0),
      now,
      spentSats: via && via.budgetSats > 0 ? await spentInWindow(tx, via.clientPubkey, via.renewal, now) : 0,
      budgetSats: via?.budgetSats ?? 0,
    });
    if (refusal) throw refusal;
    // A quote paid meanwhile through the operator's demo endpoint must not be paid again.
    if (inv.quote_id && !(await settleQuoteIn(tx, inv.quote_id, now))) throw new LedgerError('PAYMENT_FAILED', 'Az árajánlatot már kifizették vagy lejárt.');
    const debit = await tx.run('UPDATE ln_accounts SET balance_sats = balance_sats - ? WHERE pubkey = ? AND balance_sats >= ?', [
      inv.amount_sats,
      payer,
      inv.amount_sats,
    ]);
    if (!debit.changes) throw new LedgerError('INSUFFICIENT_BALANCE', 'Nincs elég egyenleg.');
    await tx.run('UPDATE ln_accounts SET balance_sats = balance_sats + ? WHERE pubkey = ?', [inv.amount_sats, inv.payee]);
    const marked = await tx.run(
      `UPDATE ln_invoices SET status = 'paid', paid_at = ?, payer = ?, paid_via = ? WHERE payment_hash = ? AND status = 'pending'`,
      [now, payer, via?.clientPubkey ?? null, inv.payment_hash],
    );
    if (!marked.changes) throw new LedgerError('PAYMENT_FAILED', 'A számlát már kifizették.');
    return { ...inv, status: 'paid' as const, paid_at: now, payer, paid_via: via?.clientPubkey ?? null };
  });
  if (paid.zap_request) {
    // Awaited, so a wallet that gets the preimage finds the receipt already counted.
    await publishReceipt(ctx, paid).catch((err: unknown) => {
      // The payment stands; a receipt that could not be published is logged, not undone.
      if (ctx.config.verbose) console.error('Zap-nyugta hiba:', err);
    });
  }
  return paid;
}

/**
 * Forgets unpaid invoices a day after they expired: anyone can ask the LNURL callback for one, so
 * they must not pile up. Paid ones are the accounts' history; a quote's stays with the quote.
 */
export async function pruneInvoices(db: Queryable, now: number): Promise<number> {
  const r = await db.run(`DELETE FROM ln_invoices WHERE status = 'pending' AND expires_at < ? AND quote_id IS NULL`, [now - 86_400]);
  return r.changes;
}

/** The invoices where the account paid or was paid, newest first (NIP-47 list_transactions). */
export async function transactionsOf(
  db: Queryable,
  pubkey: string,
  opts: { from?: number; until?: number; limit: number; offset: number; unpaid: boolean; type?: 'incoming' | 'outgoing' },
): Promise<InvoiceRow[]> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (opts.type !== 'outgoing') {
    where.push(opts.unpaid ? 'payee = ?' : `(payee = ? AND status = 'paid')`);
    params.push(pubkey);
  }
  if (opts.type !== 'incoming') {
    where.push('payer = ?');
    params.push(pubkey);
  }
  const range: string[] = [];
  if (opts.from !== undefined) {
    range.push('created_at >= ?');
    params.push(opts.from);
  }
  if (opts.until !== undefined) {
    range.push('created_at <= ?');
    params.push(opts.until);
  }
  const rows = await db.all<Record<string, unknown>>(
    `SELECT * FROM ln_invoices WHERE (${where.join(' OR ')})${range.map((r) => ` AND ${r}`).join('')}
     ORDER BY created_at DESC, payment_hash LIMIT ? OFFSET ?`,
    [...params, opts.limit, opts.offset],
  );
  return rows.map(toRow);
}
