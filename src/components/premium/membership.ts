/**
 * The premium pages' talk with the membership service: signed commands go through the worker
 * (membershipRequest signs them), public ones (name check, leaderboards, rate, the quote monitor)
 * through request/subscribe. Replies are parsed here so the screens only see plain values.
 */
import type { CacheObject, CacheReply } from '../../../core/types';
import { connect } from '../../worker-client';
import { reasonOf, useRequest } from '../../lib/useWorkerRequest';
import { CacheKind } from '../../../core/kinds';

/** Plans of the spec: 3 and 12 months at 7 and 6 dollars a month. */
export const PLANS = [
  { id: '3-months-premium', months: 3, usdPerMonth: 7 },
  { id: '12-months-premium', months: 12, usdPerMonth: 6 },
] as const;
export type PlanId = (typeof PLANS)[number]['id'];
export const LEGEND_PRODUCT = 'legend-premium';
/** Spec §6: legend is reached by a donation of 100,000 Ft. */
export const LEGEND_MIN_HUF = 100_000;
export const NAME_MIN = 3;
export const STORAGE_QUOTA_BYTES = 100 * 1024 ** 3;

export interface MembershipStatus {
  tier: 'none' | 'premium' | 'premium-legend';
  name: string;
  rename: boolean;
  nostrAddress: string;
  usedStorage: number;
  expiresOn: number | null;
  premiumSince: number | null;
  legendSince: number | null;
}

export interface Quote {
  id: string;
  invoice: string;
  sats: number;
  usd: string;
  status: 'pending' | 'paid' | 'expired';
  expiresAt: number;
  productLabel: string;
}

export class MembershipError extends Error {}

export function contentOf<T>(o: CacheObject | undefined): T | undefined {
  if (!o || typeof o.content !== 'string') return undefined;
  try {
    return JSON.parse(o.content) as T;
  } catch {
    return undefined;
  }
}

export const ofKind = (reply: CacheReply, kind: number) => reply.events.find((e) => e.kind === kind);

function check(reply: CacheReply): CacheReply {
  if (reply.notice !== undefined) throw new MembershipError(reply.notice);
  return reply;
}

/** A signed membership command; a NOTICE becomes a MembershipError carrying the server's text. */
export async function signed(command: string, params: Record<string, unknown> = {}): Promise<CacheReply> {
  return check(await (await connect()).membershipRequest(command, params));
}

export async function publicRequest(command: string, params: Record<string, unknown> = {}): Promise<CacheReply> {
  return check(await (await connect()).request(command, params));
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function parseStatus(reply: CacheReply): MembershipStatus {
  const c = contentOf<Record<string, unknown>>(ofKind(reply, CacheKind.WALLET_OPERATION)) ?? {};
  const tier = c.tier === 'premium' || c.tier === 'premium-legend' ? c.tier : 'none';
  return {
    tier,
    name: typeof c.name === 'string' ? c.name : '',
    rename: c.rename === true,
    nostrAddress: typeof c.nostr_address === 'string' ? c.nostr_address : '',
    usedStorage: num(c.used_storage) ?? 0,
    expiresOn: num(c.expires_on),
    premiumSince: num(c.premium_since),
    legendSince: num(c.legend_since),
  };
}

export function parseQuote(o: CacheObject | undefined): Quote | undefined {
  const c = contentOf<Record<string, unknown>>(o);
  if (!c || typeof c.membership_quote_id !== 'string' || typeof c.qr_code !== 'string') return undefined;
  const status = c.status === 'paid' || c.status === 'expired' ? c.status : 'pending';
  return {
    id: c.membership_quote_id,
    invoice: c.qr_code,
    sats: num(c.amount_sats) ?? Math.round(Number(c.amount_btc ?? 0) * 1e8),
    usd: typeof c.amount_usd === 'string' ? c.amount_usd : '',
    status,
    expiresAt: num(c.expires_at) ?? 0,
    productLabel: typeof c.product_label === 'string' ? c.product_label : '',
  };
}

/** Price of one bitcoin in USD and HUF, from the server's exchange rate. */
export interface Rates {
  usd: number;
  huf: number;
}

let ratesPromise: Promise<Rates> | undefined;

export function loadRates(): Promise<Rates> {
  const one = async (currency: string) => num(contentOf<{ rate?: unknown }>(ofKind(await publicRequest('membership_exchange_rate', { target_currency: currency }), CacheKind.EXCHANGE_RATE))?.rate);
  ratesPromise ??= Promise.all([one('USD'), one('HUF')]).then(([usd, huf]) => {
    if (!usd || !huf) throw new MembershipError('rate');
    return { usd, huf };
  });
  ratesPromise.catch(() => {
    ratesPromise = undefined;
  });
  return ratesPromise;
}

export function useRates(): Rates | null | 'error' {
  const { data, error } = useRequest(loadRates, []);
  return error !== undefined ? 'error' : (data ?? null);
}

export const usdToSats = (usd: number, r: Rates) => Math.round((usd / r.usd) * 1e8);
export const usdToHuf = (usd: number, r: Rates) => Math.round((usd * r.huf) / r.usd);
export const hufToUsd = (huf: number, r: Rates) => (huf * r.usd) / r.huf;

/** The signed-in user's membership_status; reload after a change. */
export function useMembershipStatus(pubkey: string | undefined, tier?: string): { status?: MembershipStatus; error?: string; loading: boolean; reload: () => void } {
  // The tier of the account snapshot changes when another tab buys: read the details again. The
  // details on screen stay while they are read again; a failed read shows its reason instead.
  const { data, error, loading, reload } = useRequest(pubkey ? () => signed('membership_status').then(parseStatus) : null, [pubkey, tier], { keep: true });
  if (!pubkey) return { loading: true, reload };
  return error !== undefined ? { error: reasonOf(error), loading, reload } : { status: data, loading, reload };
}

export function formatBytes(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toLocaleString(locale, { maximumFractionDigits: i === 0 ? 0 : 1 })} ${units[i]}`;
}

export const formatDay = (seconds: number, locale: string) => new Date(seconds * 1000).toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric' });
