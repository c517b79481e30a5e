/**
 * The demo Cashu mint (MINT, on with the demo lightning network): keysets, proofs and quotes in
 * the server's store, Lightning through the demo ledger. Started after the ledger; rotates its
 * keyset when the active one is older than MINT_KEYSET_DAYS.
 */
import type { ServerContext } from '../context.ts';
import { activeKeyset, rotateIfDue } from './keysets.ts';

const ROTATE_CHECK_MS = 3_600_000;
const timers = new WeakMap<ServerContext, NodeJS.Timeout>();

export async function startMint(ctx: ServerContext): Promise<void> {
  await activeKeyset(ctx);
  const maxAge = (ctx.config.mintKeysetDays ?? 30) * 86_400;
  await rotateIfDue(ctx, maxAge);
  const timer = setInterval(() => {
    rotateIfDue(ctx, maxAge).catch((err: unknown) => {
      if (ctx.config.verbose) console.error('Kulcskészlet-csere hiba:', err);
    });
  }, ROTATE_CHECK_MS);
  timer.unref();
  timers.set(ctx, timer);
}

export function stopMint(ctx: ServerContext): void {
  clearInterval(timers.get(ctx));
}
