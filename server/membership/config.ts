/**
 * Settings of the membership provider and the demo wallet, read once per server from the
 * environment (they are not part of ServerConfig because only this service uses them):
 *
 * - EXCHANGE_RATES: JSON object, currency code → price of one bitcoin in that currency, e.g.
 *   `{"USD":100000,"EUR":92000,"HUF":37000000}` (those are the defaults). Quotes convert the
 *   USD price of a plan to sats with the USD rate; membership_exchange_rate and the wallet's
 *   exchange_rate answer from the same table.
 * - DEMO_PAYMENTS: 1 enables `POST /api/demo/pay-quote`, which marks a quote paid. There is no
 *   lightning node behind this server, so that endpoint is the only way a quote gets paid.
 *   Default: on exactly when DEMO is on. Either way only on a loopback HOST or with DEMO_PUBLIC=1
 *   (demoAllowed in server/config.ts).
 *
 * Relays used by content rebroadcast must be public wss:// relays; FETCH_PRIVATE_ADDRESSES=1
 * (the server-wide switch for outbound connections to this machine and private networks) also
 * allows ws:// and loopback relays, which is what the tests use.
 */
import { demoAllowed } from '../config.ts';
import type { ServerContext } from '../context.ts';

export interface MembershipConfig {
  /** Currency code (upper case) → price of 1 BTC in that currency. */
  exchangeRates: Record<string, number>;
  demoPayments: boolean;
  /** How long a quote (and its invoice) can be paid. */
  quoteTtlSeconds: number;
  /** Per-relay time limit of one rebroadcast batch. */
  rebroadcastTimeoutMs: number;
}

export const DEFAULT_EXCHANGE_RATES: Readonly<Record<string, number>> = { USD: 100_000, EUR: 92_000, HUF: 37_000_000 };

const CURRENCY = /^[A-Z]{3}$/;

/** Parses EXCHANGE_RATES; a bad value stops the server at start rather than pricing plans wrong. */
export function parseExchangeRates(text: string | undefined): Record<string, number> {
  if (text === undefined || text.trim() === '') return { ...DEFAULT_EXCHANGE_RATES };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('EXCHANGE_RATES érvénytelen: JSON objektum kell, pl. {"USD":100000,"HUF":37000000}');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('EXCHANGE_RATES érvénytelen: JSON objektum kell');
  const out: Record<string, number> = {};
  for (const [code, rate] of Object.entries(parsed as Record<string, unknown>)) {
    const c = code.trim().toUpperCase();
    if (!CURRENCY.test(c) || typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) {
      throw new Error(`EXCHANGE_RATES érvénytelen elem: ${JSON.stringify(code)} (hárombetűs pénznemkód és pozitív árfolyam kell)`);
    }
    out[c] = rate;
  }
  // Prices are in dollars, so without a USD rate no plan could be quoted.
  if (!out.USD) throw new Error('EXCHANGE_RATES érvénytelen: az USD árfolyam kötelező');
  return out;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value.trim() === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.trim().toLowerCase());
}

export function readMembershipConfig(env: NodeJS.ProcessEnv, demo: boolean, allowed = true): MembershipConfig {
  return {
    exchangeRates: parseExchangeRates(env.EXCHANGE_RATES),
    demoPayments: allowed && flag(env.DEMO_PAYMENTS, demo),
    quoteTtlSeconds: 3600,
    rebroadcastTimeoutMs: 15_000,
  };
}

const configs = new WeakMap<ServerContext, MembershipConfig>();

export function membershipConfig(ctx: ServerContext): MembershipConfig {
  let c = configs.get(ctx);
  if (!c) configs.set(ctx, (c = readMembershipConfig(process.env, ctx.config.demo, demoAllowed(ctx.config))));
  return c;
}

/** Overrides settings of one running server (tests turn demo payments on this way). */
export function configureMembership(ctx: ServerContext, patch: Partial<MembershipConfig>): MembershipConfig {
  const c = { ...membershipConfig(ctx), ...patch };
  configs.set(ctx, c);
  return c;
}
