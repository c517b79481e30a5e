/**
 * Demo notes with real ecash of the demo mint, so redeeming works on a fresh install: a few demo
 * users post cashuA tokens (tagged #ecash), some of them already redeemed. The proofs are issued
 * like any other (blinded, signed with the active keyset, unblinded — all with @cashu/crypto),
 * their signatures are stored for NUT-09, and the mint's ledger account is credited with what
 * is still unspent, so melting them pays out real demo sats. Made once, after the demo network
 * was seeded and the server listens (the tokens name the mint's URL).
 */
import { randomBytes } from 'node:crypto';
import { getEncodedToken } from '@cashu/cashu-ts';
import { blindMessage, unblindSignature } from '@cashu/crypto/modules/client';
import { pointFromHex } from '@cashu/crypto/modules/common';
import type { ServerContext } from '../context.ts';
import { demoUser } from '../demo/accounts.ts';
import { demoSigner } from '../demo/sign.ts';
import { blindSign, proofY, type Keyset } from './crypto.ts';
import { activeKeyset } from './keysets.ts';
import { MINT_ACCOUNT, splitAmount } from './quotes.ts';

interface TokenProof {
  id: string;
  amount: number;
  secret: string;
  C: string;
}

const DONE_KEY = 'demo_ecash';

export interface DemoEcashNote {
  user: number;
  amount: number;
  memo: string;
  text: string;
  spent: boolean;
}

export const DEMO_ECASH_NOTES: DemoEcashNote[] = [
  { user: 3, amount: 21, memo: 'Egy kávéra', text: 'Az első, aki beváltja, meghívva egy kávéra! ☕ #ecash', spent: false },
  { user: 4, amount: 64, memo: 'Ajándék', text: 'Karácsonyi ajándék a demó pénzverdéből, váltsd be bátran! #ecash', spent: false },
  { user: 5, amount: 100, memo: 'Ezt már beváltották', text: 'Ezt a tokent valaki már beváltotta, nézd meg, mit mond a tárcád. #ecash', spent: true },
  { user: 6, amount: 8, memo: '', text: 'Egy kis apró a pénzverdéből. #ecash', spent: true },
];

/** The mint's URL as this server reaches itself (a wildcard bind address is reached on loopback). */
export function mintUrlOf(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port}/mint`;
}

async function issue(ctx: ServerContext, ks: Keyset, amount: number): Promise<TokenProof> {
  const secret = randomBytes(32).toString('hex');
  const bm = blindMessage(new TextEncoder().encode(secret));
  const B_ = bm.B_.toHex(true);
  const sig = blindSign(ks, amount, B_, false);
  await ctx.db.run('INSERT INTO mint_promises (b_, c_, amount, keyset_id, created_at) VALUES (?, ?, ?, ?, ?)', [B_, sig.C_, amount, ks.id, ctx.now()]);
  const C = unblindSignature(pointFromHex(sig.C_), bm.r, pointFromHex(ks.pub[String(amount)]));
  return { id: ks.id, amount, secret, C: C.toHex(true) };
}

export async function seedDemoEcash(ctx: ServerContext, mintUrl: string): Promise<void> {
  if (!(await ctx.db.get("SELECT 1 AS x FROM meta WHERE key = 'demo_seeded'"))) return;
  if (await ctx.db.get('SELECT 1 AS x FROM meta WHERE key = ?', [DONE_KEY])) return;
  const ks = await activeKeyset(ctx);
  const sign = await demoSigner();
  const events = [];
  let unspent = 0;
  const now = ctx.now();
  for (const [i, n] of DEMO_ECASH_NOTES.entries()) {
    const proofs: TokenProof[] = [];
    for (const a of splitAmount(n.amount)) proofs.push(await issue(ctx, ks, a));
    if (n.spent) {
      for (const p of proofs) {
        await ctx.db.run('INSERT INTO mint_spent (secret, y, amount, keyset_id, state, quote, spent_at) VALUES (?, ?, ?, ?, ?, NULL, ?)', [
          p.secret,
          proofY(p.secret),
          p.amount,
          ks.id,
          'spent',
          now,
        ]);
      }
    } else unspent += n.amount;
    const token = getEncodedToken({ mint: mintUrl, proofs, memo: n.memo || undefined, unit: 'sat' }, { version: 3 });
    events.push(sign({ kind: 1, created_at: now - 60 * (i + 1), tags: [['t', 'ecash']], content: `${n.text}\n\n${token}` }, demoUser(n.user).secretKey));
  }
  await ctx.db.run(
    `INSERT INTO ln_accounts (pubkey, balance_sats, created_at) VALUES (?, ?, ?)
     ON CONFLICT (pubkey) DO UPDATE SET balance_sats = ln_accounts.balance_sats + excluded.balance_sats`,
    [MINT_ACCOUNT, unspent, now],
  );
  const results = await ctx.importer.importEvents(events, 'demo');
  const refused = results.filter((r) => !r.ok);
  if (refused.length) console.warn(`Demó ecash-jegyzetek: ${refused.length} elutasítva (${refused[0].reason})`);
  await ctx.db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [DONE_KEY, JSON.stringify({ mintUrl, at: now })]);
}
