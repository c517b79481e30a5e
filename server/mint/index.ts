/**
 * The demo Cashu mint (MINT, on with the demo lightning network): keysets, proofs and quotes in
 * the server's store, Lightning through the demo ledger. Every process serves /mint once a
 * keyset exists (startMint); the leader rotates the keyset when the active one is older than
 * MINT_KEYSET_DAYS and, with the demo network, posts a few notes with real tokens (demo.ts).
 */
import type { ServerContext } from '../context.ts';
import { mintUrlOf, seedDemoEcash } from './demo.ts';
import { activeKeyset, rotateIfDue } from './keysets.ts';

const ROTATE_CHECK_MS = 3_600_000;
const timers = new WeakMap<ServerContext, NodeJS.Timeout>();

export async function startMint(ctx: ServerContext): Promise<void> {
  await activeKeyset(ctx);
}

export async function startMintJobs(ctx: ServerContext, port: number): Promise<void> {
  const maxAge = (ctx.config.mintKeysetDays ?? 30) * 86_400;
  await rotateIfDue(ctx, maxAge);
  clearInterval(timers.get(ctx));
  const timer = setInterval(() => {
    rotateIfDue(ctx, maxAge).catch((err: unknown) => {
      if (ctx.config.verbose) console.error('Kulcskészlet-csere hiba:', err);
    });
  }, ROTATE_CHECK_MS);
  timer.unref();
  timers.set(ctx, timer);
  if (ctx.config.demo) await seedDemoEcash(ctx, mintUrlOf(ctx.config.host, port));
}

export function stopMint(ctx: ServerContext): void {
  clearInterval(timers.get(ctx));
}
