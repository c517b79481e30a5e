/** Wallet connections as a tab sees them (worker/wallet.ts): never a connection secret. */
import type { PaymentResult, PublicConnection } from '../../machines/wallet.ts';
import type { NostrEvent } from './events.ts';

export type { PaymentResult, PublicConnection };

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
