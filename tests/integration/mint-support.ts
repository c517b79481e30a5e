/**
 * Pieces of the mint tests: a server whose store survives a restart (same DATA_DIR or
 * DATABASE_URL), and minting through the demo ledger (the demo login pays the mint's invoice).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CashuMint, CashuWallet, type Proof } from '@cashu/cashu-ts';
import { startServer, type RunningServer } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import { DEMO_LOGIN_PUBKEY } from '../../server/demo/accounts.ts';
import { payInvoice } from '../../server/lightning/ledger.ts';

export interface MintServer {
  server: RunningServer;
  mintUrl: string;
  clock: { now: number };
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startMintServer(databaseUrl: string, env: Record<string, string> = {}): Promise<MintServer> {
  const dir = await mkdtemp(join(tmpdir(), 'strucc-mint-'));
  const clock = { now: Math.floor(Date.now() / 1000) };
  const config = readConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: join(dir, 'data'), DIST_DIR: join(dir, 'dist'), DEMO: '0', DEMO_LIGHTNING: '1', DATABASE_URL: databaseUrl, ...env });
  const out: MintServer = {
    server: await startServer(config, { now: () => clock.now }),
    mintUrl: '',
    clock,
    async restart() {
      await out.server.close();
      out.server = await startServer(config, { now: () => clock.now });
      out.mintUrl = `${out.server.url}/mint`;
    },
    async stop() {
      await out.server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  out.mintUrl = `${out.server.url}/mint`;
  return out;
}

export async function wallet(m: MintServer, bip39seed?: Uint8Array): Promise<CashuWallet> {
  const w = new CashuWallet(new CashuMint(m.mintUrl), bip39seed ? { bip39seed } : {});
  await w.loadMint();
  return w;
}

/** Buys `amount` sats of ecash with the demo login's ledger sats. */
export async function mintEcash(m: MintServer, w: CashuWallet, amount: number, counter?: number): Promise<Proof[]> {
  const q = await w.createMintQuote(amount);
  await payInvoice(m.server.ctx, DEMO_LOGIN_PUBKEY, q.request);
  return w.mintProofs(amount, q.quote, counter === undefined ? {} : { counter });
}

export const total = (ps: { amount: number }[]) => ps.reduce((a, p) => a + p.amount, 0);
export const isPow2 = (n: number) => n > 0 && (n & (n - 1)) === 0;
