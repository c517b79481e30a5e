/**
 * Tables of the demo Cashu mint (server/mint). New tables, so existing databases gain them through
 * CREATE TABLE IF NOT EXISTS without a schema version change.
 */
export const MINT_SCHEMA: string[] = [
  // One row per keyset; only the seed is stored, the 32 amount keys are derived from it (NUT-02).
  // legacy_id is the same keys' 12-character base64 id of the spec's legacy API.
  `CREATE TABLE IF NOT EXISTS mint_keysets (
     id TEXT PRIMARY KEY, legacy_id TEXT NOT NULL, seed TEXT NOT NULL, unit TEXT NOT NULL,
     active INTEGER NOT NULL, created_at BIGINT NOT NULL)`,
  // Every secret ever redeemed: the primary key is what makes a double spend impossible, since
  // a swap or melt inserts its inputs here in the same transaction that issues its outputs.
  // y is the NUT-07 hash_to_curve point of the secret; state 'pending' while a melt pays.
  `CREATE TABLE IF NOT EXISTS mint_spent (
     secret TEXT PRIMARY KEY, y TEXT NOT NULL, amount BIGINT NOT NULL, keyset_id TEXT NOT NULL,
     state TEXT NOT NULL, quote TEXT, spent_at BIGINT NOT NULL)`,
  `CREATE UNIQUE INDEX IF NOT EXISTS mint_spent_y ON mint_spent (y)`,
  // Blind signatures handed out, by blinded message: NUT-09 restore answers from here, and the
  // primary key refuses signing one blinded message twice.
  `CREATE TABLE IF NOT EXISTS mint_promises (
     b_ TEXT PRIMARY KEY, c_ TEXT NOT NULL, amount BIGINT NOT NULL, keyset_id TEXT NOT NULL, created_at BIGINT NOT NULL)`,
  // Mint (kind 'mint': an invoice of the mint to be paid) and melt (kind 'melt': an invoice the
  // mint pays) quotes of NUT-04/05; the legacy API's hash is a mint quote id.
  `CREATE TABLE IF NOT EXISTS mint_quotes (
     quote TEXT PRIMARY KEY, kind TEXT NOT NULL, request TEXT NOT NULL, payment_hash TEXT NOT NULL,
     amount BIGINT NOT NULL, fee_reserve BIGINT NOT NULL, state TEXT NOT NULL, preimage TEXT,
     expiry BIGINT NOT NULL, created_at BIGINT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS mint_quotes_hash ON mint_quotes (payment_hash)`,
];
