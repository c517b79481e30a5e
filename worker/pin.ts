/**
 * PIN protection of the stored secret (spec §4 Login, §5 PIN rules): PBKDF2-SHA-256 stretches the
 * PIN into an AES-GCM key; salt and IV are fresh for every encryption. GCM's tag is what tells a
 * wrong PIN from a right one, so a wrong PIN can never yield a wrong key silently.
 */
import { AccountError, MSG_PIN_TOO_SHORT } from '../core/keys.ts';
import { isPinEncrypted, PBKDF2_ITERATIONS, PIN_MIN_LENGTH, PIN_PREFIX } from '../core/pin.ts';

const SALT_BYTES = 16;
const IV_BYTES = 12;

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  // WebCrypto exists only in secure contexts (https, localhost); elsewhere a PIN cannot be honoured.
  if (!s) throw new AccountError('not-secure-env');
  return s;
}

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

function fromBase64(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function deriveKey(pin: string, salt: Uint8Array, iterations: number): Promise<CryptoKey> {
  const s = subtle();
  const material = await s.importKey('raw', new TextEncoder().encode(pin), 'PBKDF2', false, ['deriveKey']);
  return s.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/**
 * `strucc-pin1:<iterations>:<salt b64>:<iv b64>:<ciphertext b64>`. The iteration count travels
 * with the secret so that raising it later still opens secrets stored before.
 */
export async function encryptWithPin(secret: string, pin: string): Promise<string> {
  if (pin.length < PIN_MIN_LENGTH) throw new Error(MSG_PIN_TOO_SHORT);
  return sealWithPin(secret, pin);
}

/** The encryption without the length rule: what stored secrets of shorter, older PINs look like (tests build them with it). */
export async function sealWithPin(secret: string, pin: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const key = await deriveKey(pin, salt, PBKDF2_ITERATIONS);
  const cipher = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(secret)));
  return `${PIN_PREFIX}${PBKDF2_ITERATIONS}:${toBase64(salt)}:${toBase64(iv)}:${toBase64(cipher)}`;
}

/** The secret behind a PIN; a wrong PIN or a damaged blob is bad-cipher. */
export async function decryptWithPin(stored: string, pin: string): Promise<string> {
  if (!isPinEncrypted(stored)) throw new AccountError('bad-cipher');
  const parts = stored.slice(PIN_PREFIX.length).split(':');
  if (parts.length !== 4) throw new AccountError('bad-cipher');
  const [iterText, saltText, ivText, cipherText] = parts;
  const iterations = Number(iterText);
  if (!Number.isInteger(iterations) || iterations < 1) throw new AccountError('bad-cipher');
  const s = subtle();
  try {
    const key = await deriveKey(pin, fromBase64(saltText), iterations);
    const plain = await s.decrypt({ name: 'AES-GCM', iv: fromBase64(ivText) as BufferSource }, key, fromBase64(cipherText) as BufferSource);
    return new TextDecoder().decode(plain);
  } catch {
    throw new AccountError('bad-cipher');
  }
}
