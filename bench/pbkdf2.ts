/**
 * `npm run bench:pbkdf2`: what one PIN derivation costs (PBKDF2-HMAC-SHA-256 at PBKDF2_ITERATIONS,
 * Node's WebCrypto, as worker/pin.ts runs it in the browser), and what that means for someone who
 * copied a stored PIN-encrypted key and guesses PINs with the same code on one core. Prints a
 * Markdown section to append to bench/RESULTS.md.
 */
import { cpus } from 'node:os';
import { webcrypto } from 'node:crypto';
import { PBKDF2_ITERATIONS } from '../core/pin.ts';

const RUNS = Number(process.env.RUNS ?? 15);

async function deriveOnce(pin: string, salt: Uint8Array): Promise<number> {
  const subtle = webcrypto.subtle;
  const start = performance.now();
  const material = await subtle.importKey('raw', new TextEncoder().encode(pin), 'PBKDF2', false, ['deriveBits']);
  await subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: PBKDF2_ITERATIONS }, material, 256);
  return performance.now() - start;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const salt = webcrypto.getRandomValues(new Uint8Array(16));
await deriveOnce('bemelegítés', salt);
const times: number[] = [];
for (let i = 0; i < RUNS; i++) times.push(await deriveOnce(`pin${i}`, salt));

const ms = median(times);
const perSecond = 1000 / ms;
const exhaust = (space: number) => {
  const s = space / perSecond;
  return s < 3600 ? `${(s / 60).toFixed(1)} min` : s < 86400 * 2 ? `${(s / 3600).toFixed(1)} h` : `${(s / 86400).toFixed(1)} days`;
};
const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
console.log(`## ${stamp} — PBKDF2 cost of the PIN (bench/pbkdf2.ts)

| measure | value |
|---|---|
| machine | ${cpus().length} cores (${cpus()[0]?.model.trim() ?? '?'}), Node ${process.version} |
| PBKDF2-HMAC-SHA-256 iterations (core/pin.ts PBKDF2_ITERATIONS) | ${PBKDF2_ITERATIONS.toLocaleString('en')} |
| one derivation, ms (median of ${RUNS}) | ${ms.toFixed(1)} |
| fastest / slowest, ms | ${Math.min(...times).toFixed(1)} / ${Math.max(...times).toFixed(1)} |
| guesses per second, one core, same code | ${perSecond.toFixed(1)} |
| every 4-digit PIN, one core | ${exhaust(1e4)} |
| every 6-digit PIN, one core | ${exhaust(1e6)} |
| every 6-character lowercase+digit PIN, one core | ${exhaust(36 ** 6)} |
`);
