/**
 * Checks the signed `event_from_user` (or `settings_event`) that authenticates a write or a
 * private read on the cache socket. Only the signature proves who is asking, so commands act
 * on the returned event's pubkey and never on a pubkey argument.
 */
import type { NostrEvent } from '../context.ts';
import { initVerifier, validateShape, verifySignature } from '../ingest/verify.ts';

/** Clients' clocks drift; Primal accepts events up to five minutes ahead (S §3.9). */
export const MAX_FUTURE_SECONDS = 300;
const MAX_SIGNED_CHARS = 100_000;

export interface VerifyOptions {
  /** Accepted kinds; any kind when absent. */
  kinds?: readonly number[];
  /** Current unix time in seconds. */
  now: number;
  /** Largest accepted event as JSON text; upload chunks carry up to a megabyte of base64. */
  maxChars?: number;
}

/**
 * Returns the verified event, or a short reason suitable for a NOTICE. Accepts the event as an
 * object or as a JSON string, as clients send both.
 */
export async function verifyUserEvent(raw: unknown, opts: VerifyOptions): Promise<NostrEvent | string> {
  if (raw === undefined || raw === null) return 'missing event_from_user';
  const maxChars = opts.maxChars ?? MAX_SIGNED_CHARS;
  let value = raw;
  if (typeof raw === 'string') {
    if (raw.length > maxChars) return 'invalid event_from_user: too big';
    try {
      value = JSON.parse(raw);
    } catch {
      return 'invalid event_from_user: not JSON';
    }
  }
  // Clients sign some requests with Primal's synthetic kinds (upload chunks are 10000135), above the
  // NIP-01 range validateShape allows; an explicitly accepted kind is checked here instead.
  const kind = (value as { kind?: unknown } | null)?.kind;
  const synthetic = typeof kind === 'number' && kind > 65535 && !!opts.kinds?.includes(kind);
  const shaped = validateShape(synthetic ? { ...(value as object), kind: 0 } : value);
  if (typeof shaped === 'string') return `invalid event_from_user: ${shaped}`;
  if (synthetic) shaped.kind = kind;
  if (JSON.stringify(shaped).length > maxChars) return 'invalid event_from_user: too big';
  if (opts.kinds && !opts.kinds.includes(shaped.kind)) return 'invalid event_from_user: wrong kind';
  if (shaped.created_at > opts.now + MAX_FUTURE_SECONDS) return 'invalid event_from_user: created_at is in the future';
  await initVerifier();
  if (!verifySignature(shaped)) return 'invalid event_from_user: bad signature';
  return shaped;
}
