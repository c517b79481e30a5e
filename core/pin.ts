/**
 * The PIN rules (spec §4 Login, §5 PIN rules) that the login machine, the worker and the pages
 * share. The encryption itself is an effect and lives in worker/pin.ts.
 */
import { MSG_PIN_MISMATCH, MSG_PIN_TOO_SHORT } from './keys.ts';
/** A stored secret starting with this is PIN-encrypted and opens the PIN prompt (spec §4). */
export const PIN_PREFIX = 'strucc-pin1:';
/**
 * New PINs: 6 characters at least. A short PIN is few guesses from the key for anyone who copies
 * the stored blob, whatever the work factor; PINs set before this rule (4–5 characters) still
 * unlock, and the person is then asked to choose a longer one (isWeakPin).
 */
export const PIN_MIN_LENGTH = 6;
/**
 * OWASP's 2023 floor for PBKDF2-HMAC-SHA256; a PIN has little entropy, so the work factor matters.
 * Measured with `npm run bench:pbkdf2` (Node 20 WebCrypto, 2-core AMD EPYC, 2026-11-26): 42 ms per
 * derivation, so one CPU core tries about 24 PINs a second: every 4-digit PIN in 7 minutes, every
 * 6-digit one in about 12 hours (bench/RESULTS.md, "PBKDF2 cost of the PIN").
 */
export const PBKDF2_ITERATIONS = 210_000;

/** A PIN that unlocks but would no longer be accepted as a new one. */
export function isWeakPin(pin: string): boolean {
  return pin.length < PIN_MIN_LENGTH;
}

export function isPinEncrypted(stored: string | undefined): boolean {
  return typeof stored === 'string' && stored.startsWith(PIN_PREFIX);
}

/** The spec §5 message for a PIN pair, or undefined when it is acceptable. */
export function pinProblem(pin: string, confirm: string): string | undefined {
  if (pin.length < PIN_MIN_LENGTH) return MSG_PIN_TOO_SHORT;
  if (pin !== confirm) return MSG_PIN_MISMATCH;
  return undefined;
}

