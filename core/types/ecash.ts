/** The ecash wallet as a tab sees it (worker/ecash.ts): balances and history, never a proof or the seed unless asked. */

export type EcashFailure = 'spent' | 'funds' | 'mint' | 'network' | 'invalid';

/** A melt (pay an invoice with ecash) quote: the fee reserve is shown before anything is spent. */
export interface MeltQuoteInfo {
  quote: string;
  mint: string;
  amount: number;
  fee: number;
}

export interface EcashMintView {
  url: string;
  name: string;
  balance: number;
}

export interface EcashHistoryView {
  id: string;
  type: 'receive' | 'send' | 'mint' | 'melt' | 'restore' | 'claimed';
  amount: number;
  mint: string;
  at: number;
  memo?: string;
  fee?: number;
}

export interface EcashPendingView {
  id: string;
  mint: string;
  amount: number;
  token: string;
  at: number;
}

export interface EcashFailedView {
  id: string;
  mint: string;
  amount: number;
  failure: string;
  message: string;
  at: number;
}

export interface EcashSnapshot {
  /** 'none' without a signed-in account that can encrypt; 'error' when the wallet could not be opened. */
  state: 'none' | 'loading' | 'ready' | 'error';
  mints: EcashMintView[];
  total: number;
  history: EcashHistoryView[];
  pending: EcashPendingView[];
  failed: EcashFailedView[];
  hasSeed: boolean;
}

export type EcashResult<T = object> = ({ ok: true } & T) | { ok: false; failure: EcashFailure; message: string };

export interface TokenSummary {
  amount: number;
  mint: string;
  memo: string;
  unit: string;
}

/** Spec §4: send `count` proofs of `amount` (a power of two) first, the rest by its bits. */
export interface AmountPreference {
  amount: number;
  count: number;
}
