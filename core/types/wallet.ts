/** Wallet connections as a tab sees them (worker/wallet.ts): never a connection secret. */
import type { NostrEvent } from './events.ts';

/** What a tab may see of a connection: no secret. */
export interface PublicConnection {
  id: string;
  name: string;
  walletPubkey: string;
  relays: string[];
  lud16?: string;
}

export type PaymentStatus = 'paid' | 'failed' | 'timeout';

export interface PaymentResult {
  status: PaymentStatus;
  invoice?: string;
  preimage?: string;
  /** 'no-wallet', 'no-invoice', or the wallet's / LNURL server's message. */
  reason?: string;
}

export interface WalletSnapshot {
  /** 'none' while nobody who can sign is logged in. */
  state: 'none' | 'loading' | 'ready' | 'saving';
  connections: PublicConnection[];
  active: string | null;
  /** 'invalid-uri' or 'duplicate' after a refused add. */
  error?: string;
  saveError?: string;
}

export type WalletAction =
  | { type: 'add'; uri: string; name?: string }
  | { type: 'rename'; id: string; name: string }
  | { type: 'remove'; id: string }
  | { type: 'activate'; id: string | null };

export interface WalletTransactionView {
  type: 'incoming' | 'outgoing';
  amountSats: number;
  description: string;
  createdAt: number;
}

export type WalletDetailsResult = { balanceSats: number; transactions: WalletTransactionView[] } | { error: string };

/** A zap as a tab asks for it: the author's addresses come from the profile the tab shows. */
export interface ZapRequestInput {
  recipient: string;
  lud16: string;
  lud06: string;
  /** The zapped note or article; absent for a profile zap. */
  event?: NostrEvent;
  amountSats: number;
  comment: string;
}

/** One recipient's part of a split zap (NIP-57 appendix G). */
export interface ZapPart {
  pubkey: string;
  amountSats: number;
  status: PaymentResult['status'];
  reason?: string;
}

/** A zap's outcome: 'partial' when a split zap reached some recipients but not all. */
export interface ZapResult {
  status: PaymentResult['status'] | 'partial';
  reason?: string;
  /** The sats that were paid. */
  paidSats: number;
  /** Only for a split zap: each recipient's share and result. */
  parts?: ZapPart[];
}

/** What the custom zap shows before sending: the LNURL service's limits. */
export type ZapEndpointInfo = { commentAllowed: number; minSats: number; maxSats: number } | { error: string };

/** The price of one bitcoin in a currency, from the wallet service (server `wallet` exchange_rate). */
export interface ExchangeRate {
  currency: string;
  /** Price of 1 BTC; 0 when the service does not know the currency. */
  rate: number;
  /** The demo network's configured rate rather than a market price. */
  demo: boolean;
}
