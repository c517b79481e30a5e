/**
 * Tables of the demo lightning network (server/lightning). They are new tables, so existing
 * databases gain them through CREATE TABLE IF NOT EXISTS without a schema version change.
 */
export const LIGHTNING_SCHEMA: string[] = [
  // Sat balances; an account row is made on first use (a demo account starts with DEMO_START_SATS).
  `CREATE TABLE IF NOT EXISTS ln_accounts (pubkey TEXT PRIMARY KEY, balance_sats BIGINT NOT NULL, created_at BIGINT NOT NULL)`,
  // Every invoice the demo node issued, with the preimage it reveals when paid. zap_request is the
  // NIP-57 kind-9734 JSON exactly as received (its sha256 is the description hash); quote_id ties a
  // membership quote's invoice to the quote. paid_via is the NWC client key that paid, for budgets.
  `CREATE TABLE IF NOT EXISTS ln_invoices (
     payment_hash TEXT PRIMARY KEY, invoice TEXT NOT NULL, preimage TEXT NOT NULL, payee TEXT NOT NULL,
     amount_sats BIGINT NOT NULL, description TEXT NOT NULL DEFAULT '', description_hash TEXT NOT NULL,
     zap_request TEXT, comment TEXT NOT NULL DEFAULT '', quote_id TEXT, status TEXT NOT NULL,
     created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, paid_at BIGINT, payer TEXT, paid_via TEXT)`,
  `CREATE INDEX IF NOT EXISTS ln_invoices_invoice ON ln_invoices (invoice)`,
  `CREATE INDEX IF NOT EXISTS ln_invoices_payee ON ln_invoices (payee, created_at)`,
  `CREATE INDEX IF NOT EXISTS ln_invoices_payer ON ln_invoices (payer, paid_at)`,
  `CREATE INDEX IF NOT EXISTS ln_invoices_via ON ln_invoices (paid_via, paid_at)`,
  `CREATE INDEX IF NOT EXISTS ln_invoices_quote ON ln_invoices (quote_id)`,
  // Permissions and budget of each NIP-47 connection (wallet_nwc_connections holds who owns it).
  `CREATE TABLE IF NOT EXISTS ln_nwc_limits (
     client_pubkey TEXT PRIMARY KEY, methods TEXT NOT NULL, budget_sats BIGINT NOT NULL, budget_renewal TEXT NOT NULL)`,
];
