/**
 * The ledger's arithmetic and refusal rules, kept free of storage so they are unit-tested on
 * their own: which payment is refused and why (in NIP-47 error codes), budget windows, and
 * the msat ↔ sat conversion (the ledger and its invoices count whole sats).
 */

/** NIP-47 error codes the ledger can answer with. */
export type LedgerCode = 'NOT_FOUND' | 'PAYMENT_FAILED' | 'INSUFFICIENT_BALANCE' | 'QUOTA_EXCEEDED' | 'RESTRICTED' | 'OTHER';

export class LedgerError extends Error {
  constructor(
    readonly code: LedgerCode,
    message: string,
  ) {
    super(message);
  }
}

/** What a demo account holds when it is first used. */
export const START_SATS = 100_000;

export type BudgetRenewal = 'never' | 'daily' | 'weekly' | 'monthly' | 'yearly';
export const BUDGET_RENEWALS: readonly BudgetRenewal[] = ['never', 'daily', 'weekly', 'monthly', 'yearly'];

const DAY = 86_400;
// Rolling windows: simpler than calendar months and never lets a connection spend two budgets
// within one window around a month boundary.
const WINDOW: Record<BudgetRenewal, number> = { never: Infinity, daily: DAY, weekly: 7 * DAY, monthly: 30 * DAY, yearly: 365 * DAY };

/** Payments after this moment (unix seconds, exclusive) count against the budget; -1 for 'never'. */
export function budgetWindowStart(renewal: BudgetRenewal, now: number): number {
  const w = WINDOW[renewal];
  return Number.isFinite(w) ? now - w : -1;
}

/** NIP-47 and LNURL amounts are msat; the ledger only takes whole sats. */
export function msatToSats(msat: unknown): number {
  if (typeof msat !== 'number' || !Number.isSafeInteger(msat) || msat <= 0) throw new LedgerError('OTHER', 'Az összeg pozitív egész millisatoshi kell legyen.');
  if (msat % 1000 !== 0) throw new LedgerError('OTHER', 'A demó hálózat csak egész satoshit kezel (az összeg 1000 msat többszöröse legyen).');
  return msat / 1000;
}

export interface PaymentCheck {
  status: string;
  expiresAt: number;
  amountSats: number;
  payee: string;
  payer: string;
  payerBalance: number;
  now: number;
  /** Sats this connection already paid in the current budget window, and its budget (0 = none). */
  spentSats?: number;
  budgetSats?: number;
}

/** Why this payment must not happen, or null when it may. Order matters: a paid invoice stays "paid" even once expired. */
export function paymentRefusal(p: PaymentCheck): LedgerError | null {
  if (p.status === 'paid') return new LedgerError('PAYMENT_FAILED', 'A számlát már kifizették.');
  if (p.now >= p.expiresAt) return new LedgerError('PAYMENT_FAILED', 'A számla lejárt.');
  if (p.payer === p.payee) return new LedgerError('PAYMENT_FAILED', 'Saját számlát nem lehet kifizetni.');
  if (p.budgetSats && (p.spentSats ?? 0) + p.amountSats > p.budgetSats) {
    return new LedgerError('QUOTA_EXCEEDED', 'A kapcsolat költési kerete nem elég ehhez a fizetéshez.');
  }
  if (p.payerBalance < p.amountSats) return new LedgerError('INSUFFICIENT_BALANCE', 'Nincs elég egyenleg.');
  return null;
}
