/** Wallet connections as a tab sees them (worker/wallet.ts): never a connection secret. */
import type { PaymentResult, PublicConnection } from '../../machines/wallet.ts';

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
