/**
 * Blossom authorisation (BUD-01): `Authorization: Nostr <base64 of a signed kind-24242 event>`
 * whose `t` tag names the action, whose `expiration` lies ahead, and whose `x` tags (when
 * present) name the blob the request is about.
 */
import type { NostrEvent } from '../context.ts';
import { initVerifier, validateShape, verifySignature } from '../ingest/verify.ts';

export const BLOSSOM_AUTH_KIND = 24242;
const MAX_HEADER_CHARS = 16_384;

export type BlossomAction = 'upload' | 'delete' | 'list' | 'get';

export class AuthError extends Error {}

/**
 * The verified event from the header, or an AuthError with a short English reason (it goes into
 * the X-Reason header, which must stay ASCII).
 */
export async function verifyBlossomAuth(header: string | undefined, action: BlossomAction, now: number): Promise<NostrEvent> {
  if (!header) throw new AuthError('missing Authorization header');
  if (header.length > MAX_HEADER_CHARS) throw new AuthError('Authorization header too long');
  const m = /^Nostr\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!m) throw new AuthError('Authorization must be "Nostr <base64 event>"');
  let raw: unknown;
  try {
    // Some clients use the URL-safe alphabet; Buffer accepts both.
    raw = JSON.parse(Buffer.from(m[1], 'base64').toString('utf8'));
  } catch {
    throw new AuthError('Authorization event is not valid base64 JSON');
  }
  const ev = validateShape(raw);
  if (typeof ev === 'string') throw new AuthError(`invalid auth event: ${ev}`);
  if (ev.kind !== BLOSSOM_AUTH_KIND) throw new AuthError('auth event must be kind 24242');
  if (ev.created_at > now) throw new AuthError('auth event created_at is in the future');
  const expiration = Number(ev.tags.find((t) => t[0] === 'expiration')?.[1]);
  if (!Number.isFinite(expiration) || expiration <= now) throw new AuthError('auth event is expired or has no expiration');
  if (!ev.tags.some((t) => t[0] === 't' && t[1] === action)) throw new AuthError(`auth event is not for ${action}`);
  await initVerifier();
  if (!verifySignature(ev)) throw new AuthError('auth event has a bad signature');
  return ev;
}

/** The blob hashes an auth event is limited to (lowercase); empty means any. */
export function authHashes(ev: NostrEvent): string[] {
  return ev.tags.filter((t) => t[0] === 'x' && typeof t[1] === 'string').map((t) => t[1].toLowerCase());
}
