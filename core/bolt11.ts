/** Amounts of bolt11 invoices, read the same way by the server's zap counting and the client's zap cards. */

const DIVISORS: Record<string, bigint> = { m: 1_000n, u: 1_000_000n, n: 1_000_000_000n, p: 1_000_000_000_000n };

/**
 * Sats encoded in a mainnet bolt11 invoice's human-readable part (S §4.2): the digits after
 * "lnbc", times 1e8, integer-divided by the multiplier's divisor (whole BTC with none).
 * The human-readable part ends at the last "1" (the bech32 separator), so an amountless
 * invoice ("lnbc1…") yields null rather than being misread. Other networks yield null.
 */
export function bolt11Sats(invoice: string): number | null {
  const lower = invoice.trim().toLowerCase();
  if (!lower.startsWith('lnbc')) return null;
  const sep = lower.lastIndexOf('1');
  if (sep < 4) return null;
  const m = /^lnbc(\d+)([munp]?)$/.exec(lower.slice(0, sep));
  if (!m) return null;
  const digits = BigInt(m[1]);
  const sats = m[2] ? (digits * 100_000_000n) / DIVISORS[m[2]] : digits * 100_000_000n;
  return sats > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(sats);
}
