import { createHash } from 'node:crypto';
import { setNostrWasm, verifyEvent } from 'nostr-tools/wasm';
import { initNostrWasm } from 'nostr-wasm';
import type { NostrEvent } from '../context.ts';

/** Largest accepted event, measured as its JSON text (protocol S §5.2 step 1). */
export const MAX_EVENT_CHARS = 500_000;

const HEX64 = /^[0-9a-f]{64}$/;
const HEX128 = /^[0-9a-f]{128}$/;

export function isHex64(value: unknown): value is string {
  return typeof value === 'string' && HEX64.test(value);
}

let ready: Promise<void> | null = null;
let wasm: Awaited<ReturnType<typeof initNostrWasm>> | null = null;

/** Loads the WASM Schnorr verifier once per process (or worker thread); it is ~5× faster than the pure-JS one. */
export function initVerifier(): Promise<void> {
  ready ??= initNostrWasm().then((nw) => {
    wasm = nw;
    setNostrWasm(nw);
  });
  return ready;
}

/** Outcome codes of a signature check, small so a whole batch travels back from a worker as one byte array. */
export const VERIFY_OK = 0;
export const VERIFY_BAD_ID = 1;
export const VERIFY_BAD_SIG = 2;
export type VerifyCode = typeof VERIFY_OK | typeof VERIFY_BAD_ID | typeof VERIFY_BAD_SIG;

/** The NIP-01 serialisation whose sha256 is the event id. */
export function serialiseEvent(e: NostrEvent): string {
  return JSON.stringify([0, e.pubkey, e.created_at, e.kind, e.tags, e.content]);
}

/**
 * Checks one event given as its id, pubkey, sig and NIP-01 serialisation (the form the verify pool
 * sends to its workers, since one string clones far faster than a nested object).
 * The id is compared with the serialisation's sha256 first, which also tells a bad id from a bad sig.
 * initVerifier must have resolved in this thread.
 */
export function checkSerialised(id: string, pubkey: string, sig: string, serialised: string): VerifyCode {
  if (createHash('sha256').update(serialised).digest('hex') !== id) return VERIFY_BAD_ID;
  let fields: unknown;
  try {
    fields = JSON.parse(serialised);
  } catch {
    return VERIFY_BAD_ID;
  }
  if (!Array.isArray(fields) || fields.length !== 6 || fields[1] !== pubkey || !wasm) return VERIFY_BAD_ID;
  const event = { id, pubkey, sig, created_at: fields[2], kind: fields[3], tags: fields[4], content: fields[5] };
  try {
    wasm.verifyEvent(event);
    return VERIFY_OK;
  } catch {
    return VERIFY_BAD_SIG;
  }
}

/**
 * Checks the event's structure and returns a clean copy holding only the NIP-01 fields,
 * or the reason it is malformed. The copy matters: objects handed in by callers may carry
 * nostr-tools' "already verified" marker, which must never let an event skip verification.
 */
export function validateShape(raw: unknown): NostrEvent | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'event is not an object';
  const e = raw as Record<string, unknown>;
  if (!isHex64(e.id)) return 'id must be 64 lowercase hex characters';
  if (!isHex64(e.pubkey)) return 'pubkey must be 64 lowercase hex characters';
  if (typeof e.sig !== 'string' || !HEX128.test(e.sig)) return 'sig must be 128 lowercase hex characters';
  if (typeof e.created_at !== 'number' || !Number.isSafeInteger(e.created_at) || e.created_at < 0) {
    return 'created_at must be a non-negative integer';
  }
  if (typeof e.kind !== 'number' || !Number.isInteger(e.kind) || e.kind < 0 || e.kind > 65535) {
    return 'kind must be an integer between 0 and 65535';
  }
  if (typeof e.content !== 'string') return 'content must be a string';
  if (!Array.isArray(e.tags)) return 'tags must be an array';
  for (const tag of e.tags) {
    if (!Array.isArray(tag) || !tag.every((v) => typeof v === 'string')) return 'tags must be arrays of strings';
  }
  return {
    id: e.id,
    pubkey: e.pubkey,
    created_at: e.created_at,
    kind: e.kind,
    tags: (e.tags as string[][]).map((t) => [...t]),
    content: e.content,
    sig: e.sig,
  };
}

/** True when id is the hash of the event and sig is the author's BIP-340 signature of it. initVerifier must have resolved. */
export function verifySignature(event: NostrEvent): boolean {
  try {
    return verifyEvent({ ...event });
  } catch {
    return false;
  }
}
