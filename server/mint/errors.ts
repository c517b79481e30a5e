/**
 * Mint errors with NUT-00 codes. v1 answers {detail, code} with HTTP 400; the legacy API answers
 * {error, detail, code}, since its clients read `error` first and fall back to `detail` (spec §8).
 */
export class MintError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const ERR = {
  outputsSigned: 10002,
  proofInvalid: 10003,
  spent: 11001,
  unbalanced: 11002,
  unit: 11005,
  amountLimit: 11006,
  duplicate: 11007,
  keysetUnknown: 12001,
  keysetInactive: 12002,
  quoteUnpaid: 20001,
  quoteIssued: 20002,
  quotePending: 20005,
  invoicePaid: 20006,
  quoteExpired: 20007,
  other: 0,
} as const;
