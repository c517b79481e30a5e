/**
 * Web Push subscriptions: one row per browser endpoint (a push service URL is one browser profile's
 * channel, so a second user subscribing it takes it over), with the key material the payload is
 * encrypted to and the kinds of news its owner asked for. New tables only, so databases of the
 * current schema version pick them up at the next start.
 */
export const PUSH_SCHEMA: string[] = [
  `CREATE TABLE IF NOT EXISTS push_subscriptions (
     endpoint TEXT PRIMARY KEY, pubkey TEXT NOT NULL, p256dh TEXT NOT NULL, auth TEXT NOT NULL, types TEXT NOT NULL,
     created_at BIGINT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS push_subscriptions_pubkey ON push_subscriptions (pubkey)`,
];

/** The kinds of news a subscription may ask for; settings → notifications names them the same way. */
export const PUSH_TYPES = ['dm', 'mention', 'reply', 'zap'] as const;
export type PushType = (typeof PUSH_TYPES)[number];

export function isPushType(v: unknown): v is PushType {
  return typeof v === 'string' && (PUSH_TYPES as readonly string[]).includes(v);
}
