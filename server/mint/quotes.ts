/**
 * Lightning in and out of the mint through the demo ledger (server/lightning/ledger.ts): a mint
 * quote is a ledger invoice to the mint's account, and its ecash is issued once that invoice is
 * paid (NUT-04, legacy GET/POST /mint); a melt quote names a ledger invoice the mint pays from
 * its account with the inputs' sats, returning the unused fee reserve as change (NUT-05/08,
 * legacy /checkfees and /melt). The mint's ledger balance is what all its ecash is worth.
 */
import { randomBytes } from 'node:crypto';
import type { ServerContext } from '../context.ts';
import { createInvoice, findInvoice, payInvoice } from '../lightning/ledger.ts';
import { ERR, MintError } from './errors.ts';
import { checkInputs, commit, signOutputs, sum, type Signature } from './ops.ts';

/** Ledger account holding the sats behind the mint's ecash. */
export const MINT_ACCOUNT = 'service:mint';
export const MAX_MINT_SATS = 1_000_000;
const QUOTE_SECONDS = 3600;

export type QuoteState = 'UNPAID' | 'PENDING' | 'PAID' | 'ISSUED';

export interface QuoteRow {
  quote: string;
  kind: 'mint' | 'melt';
  request: string;
  payment_hash: string;
  amount: number;
  fee_reserve: number;
  state: QuoteState;
  preimage: string | null;
  expiry: number;
}

function toQuote(r: Record<string, unknown>): QuoteRow {
  return {
    quote: String(r.quote),
    kind: r.kind === 'melt' ? 'melt' : 'mint',
    request: String(r.request),
    payment_hash: String(r.payment_hash),
    amount: Number(r.amount),
    fee_reserve: Number(r.fee_reserve),
    state: String(r.state) as QuoteState,
    preimage: r.preimage === null || r.preimage === undefined ? null : String(r.preimage),
    expiry: Number(r.expiry),
  };
}

/** What a payment may cost on top of its amount: 1 %, at least 2 sats (the demo network charges nothing, so it all comes back as change). */
export function feeReserve(amount: number): number {
  return Math.max(2, Math.ceil(amount / 100));
}

async function quoteById(ctx: ServerContext, id: unknown, kind: 'mint' | 'melt'): Promise<QuoteRow> {
  const r = typeof id === 'string' && id.length <= 128 ? await ctx.db.get('SELECT * FROM mint_quotes WHERE quote = ? AND kind = ?', [id, kind]) : undefined;
  if (!r) throw new MintError(ERR.other, 'Ismeretlen árajánlat (quote).');
  return toQuote(r);
}

export async function createMintQuote(ctx: ServerContext, amount: unknown, unit: unknown = 'sat'): Promise<QuoteRow> {
  if (unit !== 'sat') throw new MintError(ERR.unit, 'Csak satoshi (sat) egység van.');
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 1 || amount > MAX_MINT_SATS) {
    throw new MintError(ERR.amountLimit, `Az összeg 1 és ${MAX_MINT_SATS} satoshi között lehet.`);
  }
  const inv = await createInvoice(ctx, { payee: MINT_ACCOUNT, amountSats: amount, description: 'Strucc demó pénzverde: ecash vásárlás', expirySeconds: QUOTE_SECONDS });
  const q: QuoteRow = { quote: randomBytes(16).toString('hex'), kind: 'mint', request: inv.invoice, payment_hash: inv.payment_hash, amount, fee_reserve: 0, state: 'UNPAID', preimage: null, expiry: inv.expires_at };
  await ctx.db.run(
    `INSERT INTO mint_quotes (quote, kind, request, payment_hash, amount, fee_reserve, state, preimage, expiry, created_at) VALUES (?, 'mint', ?, ?, ?, 0, 'UNPAID', NULL, ?, ?)`,
    [q.quote, q.request, q.payment_hash, amount, q.expiry, ctx.now()],
  );
  return q;
}

/** The quote with its state brought up to date from the ledger (PAID once the invoice is). */
export async function mintQuote(ctx: ServerContext, id: unknown): Promise<QuoteRow> {
  const q = await quoteById(ctx, id, 'mint');
  if (q.state !== 'UNPAID') return q;
  const inv = await findInvoice(ctx.db, { paymentHash: q.payment_hash });
  if (inv?.status !== 'paid') return q;
  await ctx.db.run(`UPDATE mint_quotes SET state = 'PAID' WHERE quote = ? AND state = 'UNPAID'`, [q.quote]);
  return { ...q, state: 'PAID' };
}

/** Issues the quote's ecash, once: the quote turns ISSUED in the transaction that stores the signatures. */
export async function mintTokens(ctx: ServerContext, id: unknown, rawOutputs: unknown, legacy: boolean): Promise<Signature[]> {
  const q = await mintQuote(ctx, id);
  if (q.state === 'ISSUED') throw new MintError(ERR.quoteIssued, 'Ezt az árajánlatot már beváltották.');
  if (q.state !== 'PAID') throw new MintError(ERR.quoteUnpaid, 'A számla még nincs kifizetve.');
  const { outputs, sigs } = await signOutputs(ctx, rawOutputs, legacy);
  if (sum(outputs) !== q.amount) throw new MintError(ERR.unbalanced, `A kimenetek összege (${sum(outputs)}) nem egyezik a kifizetett összeggel (${q.amount}).`);
  await ctx.db.transaction(async (tx) => {
    const r = await tx.run(`UPDATE mint_quotes SET state = 'ISSUED' WHERE quote = ? AND state = 'PAID'`, [q.quote]);
    if (!r.changes) throw new MintError(ERR.quoteIssued, 'Ezt az árajánlatot már beváltották.');
    await commit(tx, ctx.now(), [], outputs, sigs);
  });
  return sigs;
}

export async function createMeltQuote(ctx: ServerContext, request: unknown, unit: unknown = 'sat'): Promise<QuoteRow> {
  if (unit !== 'sat') throw new MintError(ERR.unit, 'Csak satoshi (sat) egység van.');
  if (typeof request !== 'string' || !/^ln/i.test(request.trim()) || request.length > 4000) throw new MintError(ERR.other, 'Hibás számla.');
  const inv = await findInvoice(ctx.db, { invoice: request });
  if (!inv) throw new MintError(ERR.other, 'Ez a számla nem a demó hálózaté: a demó pénzverde csak a demó hálózat számláit tudja kifizetni.');
  if (inv.status === 'paid') throw new MintError(ERR.invoicePaid, 'A számlát már kifizették.');
  if (ctx.now() >= inv.expires_at) throw new MintError(ERR.quoteExpired, 'A számla lejárt.');
  const q: QuoteRow = {
    quote: randomBytes(16).toString('hex'),
    kind: 'melt',
    request: inv.invoice,
    payment_hash: inv.payment_hash,
    amount: inv.amount_sats,
    fee_reserve: feeReserve(inv.amount_sats),
    state: 'UNPAID',
    preimage: null,
    expiry: Math.min(inv.expires_at, ctx.now() + QUOTE_SECONDS),
  };
  await ctx.db.run(
    `INSERT INTO mint_quotes (quote, kind, request, payment_hash, amount, fee_reserve, state, preimage, expiry, created_at) VALUES (?, 'melt', ?, ?, ?, ?, 'UNPAID', NULL, ?, ?)`,
    [q.quote, q.request, q.payment_hash, q.amount, q.fee_reserve, q.expiry, ctx.now()],
  );
  return q;
}

export async function meltQuote(ctx: ServerContext, id: unknown): Promise<QuoteRow> {
  return quoteById(ctx, id, 'melt');
}

/** Powers of two adding up to n, smallest first. */
export function splitAmount(n: number): number[] {
  const out: number[] = [];
  for (let bit = 1; n > 0 && bit <= 2 ** 31; bit *= 2) {
    if (n % (bit * 2) !== 0) {
      out.push(bit);
      n -= bit;
    }
  }
  return out;
}

/**
 * Pays the quote's invoice with the inputs. The inputs are marked pending with the quote in one
 * transaction first, so neither a second melt nor a swap can use them while the ledger pays; a
 * refused payment releases them, a paid one makes them spent and signs the change.
 */
export async function melt(ctx: ServerContext, id: unknown, rawInputs: unknown, rawOutputs: unknown, legacy: boolean): Promise<{ quote: QuoteRow; change: Signature[] }> {
  const q = await meltQuote(ctx, id);
  if (q.state === 'PAID') throw new MintError(ERR.invoicePaid, 'A számlát már kifizették.');
  if (q.state === 'PENDING') throw new MintError(ERR.quotePending, 'A fizetés folyamatban van.');
  if (ctx.now() >= q.expiry) throw new MintError(ERR.quoteExpired, 'Az árajánlat lejárt.');
  const inputs = await checkInputs(ctx, rawInputs);
  const paidIn = sum(inputs);
  if (paidIn < q.amount + q.fee_reserve) {
    throw new MintError(ERR.unbalanced, `Nem elég az ecash: ${q.amount + q.fee_reserve} satoshi kell (díjtartalékkal), ${paidIn} érkezett.`);
  }
  const blanks = Array.isArray(rawOutputs) ? rawOutputs.slice(0, 64) : [];
  const changeAmounts = splitAmount(paidIn - q.amount).slice(0, blanks.length);
  // NUT-08: the wallet's blank outputs get the change amounts the mint chooses.
  const priced = blanks.slice(0, changeAmounts.length).map((b, i) => ({ ...(b as Record<string, unknown>), amount: changeAmounts[i] }));
  const { outputs, sigs } = await signOutputs(ctx, priced, legacy, true);
  await ctx.db.transaction(async (tx) => {
    const r = await tx.run(`UPDATE mint_quotes SET state = 'PENDING' WHERE quote = ? AND state = 'UNPAID'`, [q.quote]);
    if (!r.changes) throw new MintError(ERR.quotePending, 'A fizetés folyamatban van.');
    await commit(tx, ctx.now(), inputs, [], [], { state: 'pending', quote: q.quote });
  });
  let preimage: string;
  try {
    preimage = (await payInvoice(ctx, MINT_ACCOUNT, q.request)).preimage;
  } catch (err) {
    await ctx.db.transaction(async (tx) => {
      await tx.run(`DELETE FROM mint_spent WHERE quote = ? AND state = 'pending'`, [q.quote]);
      await tx.run(`UPDATE mint_quotes SET state = 'UNPAID' WHERE quote = ?`, [q.quote]);
    });
    throw new MintError(ERR.other, `A fizetés nem sikerült: ${err instanceof Error ? err.message : String(err)}`);
  }
  await ctx.db.transaction(async (tx) => {
    await tx.run(`UPDATE mint_spent SET state = 'spent' WHERE quote = ?`, [q.quote]);
    await tx.run(`UPDATE mint_quotes SET state = 'PAID', preimage = ? WHERE quote = ?`, [preimage, q.quote]);
    await commit(tx, ctx.now(), [], outputs, sigs);
  });
  return { quote: { ...q, state: 'PAID', preimage }, change: sigs };
}
