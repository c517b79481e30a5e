/**
 * What can be bought (spec §9): premium for 3 or 12 months at 7 and 6 dollars a month, and
 * legend-premium, a donation of at least 100,000 Ft that makes the membership permanent.
 * Prices are in US dollars (the spec's default currency) and converted to sats at the
 * configured exchange rate when the quote is made.
 */
import { CommandError } from '../cache/args.ts';
import { DEFAULT_EXCHANGE_RATES } from './config.ts';

export interface Product {
  id: string;
  /** Shown in the purchase history. */
  label: string;
  /** Plan length; null for legend, which never expires. */
  months: number | null;
  /** Fixed price in cents; null when the buyer names the amount (legend). */
  priceUsdCents: number | null;
}

export const LEGEND_PRODUCT_ID = 'legend-premium';
/** Spec §6: legend is reached by a donation of 100,000 Ft. */
export const LEGEND_MIN_HUF = 100_000;
/** A typo of many digits must not produce an absurd invoice. */
const MAX_USD_CENTS = 100_000_000;

export const PRODUCTS: ReadonlyMap<string, Product> = new Map(
  [
    { id: '3-months-premium', label: 'Prémium tagság – 3 hónap', months: 3, priceUsdCents: 3 * 700 },
    { id: '12-months-premium', label: 'Prémium tagság – 12 hónap', months: 12, priceUsdCents: 12 * 600 },
    { id: LEGEND_PRODUCT_ID, label: 'Legenda tagság', months: null, priceUsdCents: null },
  ].map((p) => [p.id, p]),
);

export function productOf(id: unknown): Product {
  const p = typeof id === 'string' ? PRODUCTS.get(id) : undefined;
  if (!p) throw new CommandError(`invalid product_id: one of ${[...PRODUCTS.keys()].join(', ')}`);
  return p;
}

/** Price of one bitcoin in `currency`, or a NOTICE naming the currencies we have rates for. */
export function rateOf(rates: Record<string, number>, currency: string): number {
  const rate = rates[currency.trim().toUpperCase()];
  if (!rate) throw new CommandError(`unknown target_currency: one of ${Object.keys(rates).join(', ')}`);
  return rate;
}

export function usdCentsToSats(cents: number, rates: Record<string, number>): number {
  return Math.max(1, Math.round((cents / 100 / rateOf(rates, 'USD')) * 1e8));
}

/** The legend threshold in US cents; without a configured HUF rate, the default HUF/USD ratio. */
export function legendMinimumUsdCents(rates: Record<string, number>): number {
  const hufPerUsd = rates.HUF && rates.USD ? rates.HUF / rates.USD : DEFAULT_EXCHANGE_RATES.HUF / DEFAULT_EXCHANGE_RATES.USD;
  return Math.ceil((LEGEND_MIN_HUF / hufPerUsd) * 100);
}

/** The amount a quote is made for, in cents: the fixed price, or the donation checked against the legend threshold. */
export function priceCents(product: Product, amountUsd: unknown, rates: Record<string, number>): number {
  if (product.priceUsdCents !== null) return product.priceUsdCents;
  const value = typeof amountUsd === 'string' ? Number(amountUsd) : amountUsd;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new CommandError('invalid amount_usd: expected a positive number');
  const cents = Math.round(value * 100);
  if (cents > MAX_USD_CENTS) throw new CommandError('amount_usd too big');
  const min = legendMinimumUsdCents(rates);
  if (cents < min) {
    throw new CommandError(`A legenda tagsághoz legalább ${LEGEND_MIN_HUF.toLocaleString('hu-HU')} Ft (${(min / 100).toFixed(2)} USD) támogatás szükséges.`);
  }
  return cents;
}

export const btcString = (sats: number) => (sats / 1e8).toFixed(8);
export const usdString = (cents: number) => (cents / 100).toFixed(2);

/** `months` calendar months after `from` (unix seconds), in UTC; the 31st becomes the month's last day. */
export function addMonths(from: number, months: number): number {
  const d = new Date(from * 1000);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return Math.floor(d.getTime() / 1000);
}
