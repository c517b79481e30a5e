/**
 * The demo lightning network (DEMO_LIGHTNING, on with DEMO): a ledger of sat balances with real
 * BOLT-11 invoices (ledger.ts), LNURL-pay with NIP-57 zaps (lnurl.ts, served by
 * server/http/lnurlp.ts) whose receipts go through our importer (receipts.ts), and a NIP-47
 * wallet service per connection on our own relay (nwc.ts). Started once the server listens,
 * because the wallet service is a client of our own /relay.
 */
import type { ServerContext } from '../context.ts';
import { pruneInvoices } from './ledger.ts';
import { startWalletService, stopWalletService } from './nwc.ts';
import { setOwnRelay } from './receipts.ts';

const PRUNE_INTERVAL_MS = 3_600_000;
const pruners = new WeakMap<ServerContext, NodeJS.Timeout>();

/** ws:// URL of our relay as seen from this process (a wildcard bind address is reached on loopback). */
export function ownRelayUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  return `ws://${h}:${port}/relay`;
}

/** Every process: receipts are published into the relay this process serves. */
export function startLightning(ctx: ServerContext, port: number): void {
  setOwnRelay(ctx, ownRelayUrl(ctx.config.host, port));
}

/**
 * The leading process only (server/cluster/leader.ts): invoice pruning and the NIP-47 wallet
 * service, whose requests reach every process and must be answered once.
 */
export async function startLightningJobs(ctx: ServerContext, port: number): Promise<void> {
  const prune = () =>
    pruneInvoices(ctx.db, ctx.now()).catch((err: unknown) => {
      if (ctx.config.verbose) console.error('Számlatörlési hiba:', err);
    });
  await prune();
  const timer = setInterval(prune, PRUNE_INTERVAL_MS);
  timer.unref();
  pruners.set(ctx, timer);
  await startWalletService(ctx, ownRelayUrl(ctx.config.host, port));
}

export async function stopLightning(ctx: ServerContext): Promise<void> {
  clearInterval(pruners.get(ctx));
  pruners.delete(ctx);
  await stopWalletService(ctx);
}
