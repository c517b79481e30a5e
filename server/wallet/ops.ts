/**
 * The `wallet` command (protocol C.2 "Wallet"): a signed `operation_event` whose content is
 * `[op, params]`. This server is its own custodial demo wallet without a lightning node: it
 * answers exchange rates, tells whether a user's wallet is active, and hands out NIP-47
 * connections, each with its permissions and budget, which the demo network's wallet service
 * (server/lightning/nwc.ts) serves on our relay; moving money out is refused with a clear reason.
 *
 * is_user answers "2" when the pubkey has an active wallet (a wallet becomes active with its
 * first nwc_connect), "1" when we know the user (a membership or a profile) but they have no
 * wallet yet, and "0" for a pubkey we know nothing about.
 */
import { randomBytes } from 'node:crypto';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils';
import { getPublicKey } from 'nostr-tools/pure';
import { Args, CommandError } from '../cache/args.ts';
import { exchangeRateReply } from '../cache/commands/membership.ts';
import type { CacheObject } from '../cache/data.ts';
import type { Command, CommandEnv } from '../cache/registry.ts';
import { MAX_AGE_SECONDS, verifySignedRequest, WALLET_OP_KINDS } from '../cache/signed.ts';
import type { NostrEvent } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { serverOrigin } from '../membership/content.ts';
import { isPremium, membershipOf } from '../membership/store.ts';
import { demoAddressOf } from '../lightning/ledger.ts';
import { NWC_METHODS, saveLimits, serveConnection, type NwcLimits } from '../lightning/nwc.ts';
import { BUDGET_RENEWALS, type BudgetRenewal } from '../lightning/rules.ts';
import { CacheKind } from '../../core/kinds.ts';

const MAX_CONNECTIONS = 20;
/**
 * nwc_connect hands out a spending secret to whoever sends the signed event: beyond the five-minute
 * window every signed request has (cache/signed.ts), its event is accepted once.
 */
const MAX_CONNECT_AGE_SECONDS = MAX_AGE_SECONDS;
const USED_CONNECT_EVENTS = 10_000;
const usedConnectEvents = new WeakMap<object, Map<string, number>>();
const MAX_APPNAME = 64;
const SERVICE_KEY = 'wallet_service_key';

/** The wallet service's own key, made once per database; NWC requests will be addressed to its pubkey. */
export async function serviceKey(db: Queryable): Promise<Uint8Array> {
  await db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [SERVICE_KEY, bytesToHex(randomBytes(32))]);
  const row = await db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [SERVICE_KEY]);
  if (!row) throw new Error('wallet service key missing');
  return hexToBytes(row.value);
}

async function isUser(env: CommandEnv, params: Args): Promise<CacheObject> {
  const pubkey = params.hex('pubkey');
  const { db } = env.ctx;
  const wallet = await db.get('SELECT 1 AS x FROM wallet_nwc_connections WHERE pubkey = ? LIMIT 1', [pubkey]);
  let answer = '0';
  if (wallet) answer = '2';
  else {
    const known =
      (await db.get('SELECT 1 AS x FROM memberships WHERE pubkey = ?', [pubkey])) ??
      (await db.get(`SELECT 1 AS x FROM replaceable WHERE pubkey = ? AND kind = 0 AND d = ''`, [pubkey]));
    if (known) answer = '1';
  }
  return { kind: CacheKind.WALLET_NWC_ACTIVE, content: answer };
}

/** Optional permissions and budget of a new connection: methods (subset of NWC_METHODS), budget_sats (0 = none), budget_renewal. */
function limitsFrom(params: Args): NwcLimits {
  const raw = params.raw;
  let methods = [...NWC_METHODS];
  if (raw.methods !== undefined) {
    if (!Array.isArray(raw.methods) || raw.methods.length === 0 || raw.methods.some((m) => !(NWC_METHODS as readonly unknown[]).includes(m))) {
      throw new CommandError(`invalid methods: a non-empty list of ${NWC_METHODS.join(', ')}`);
    }
    methods = NWC_METHODS.filter((m) => (raw.methods as unknown[]).includes(m));
  }
  const budget = raw.budget_sats ?? 0;
  if (typeof budget !== 'number' || !Number.isSafeInteger(budget) || budget < 0) throw new CommandError('invalid budget_sats: expected a non-negative integer');
  const renewal = raw.budget_renewal ?? 'never';
  if (!(BUDGET_RENEWALS as readonly unknown[]).includes(renewal)) throw new CommandError(`invalid budget_renewal: expected ${BUDGET_RENEWALS.join(', ')}`);
  return { methods, budgetSats: budget, renewal: renewal as BudgetRenewal };
}

/**
 * A new NIP-47 connection for the signer: the secret goes to the client once; we keep only its
 * pubkey. With the demo lightning network on, the URI is handed out once the wallet service
 * listens for it, so the client's first request is not lost.
 */
async function nwcConnect(env: CommandEnv, ev: NostrEvent, params: Args): Promise<CacheObject> {
  const appname = params.optStr('appname')?.trim();
  if (!appname) throw new CommandError('missing appname');
  if ([...appname].length > MAX_APPNAME) throw new CommandError(`invalid appname: at most ${MAX_APPNAME} characters`);
  const limits = limitsFrom(params);
  const now = env.ctx.now();
  let used = usedConnectEvents.get(env.ctx);
  if (!used) usedConnectEvents.set(env.ctx, (used = new Map()));
  for (const [id, at] of used) if (at < now - MAX_CONNECT_AGE_SECONDS || used.size > USED_CONNECT_EVENTS) used.delete(id);
  if (used.has(ev.id)) throw new CommandError('invalid operation_event: already used, sign a new one');
  used.set(ev.id, ev.created_at);
  const { ctx } = env;
  const count = await ctx.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM wallet_nwc_connections WHERE pubkey = ?', [ev.pubkey]);
  if (Number(count?.n ?? 0) >= MAX_CONNECTIONS) throw new CommandError(`Legfeljebb ${MAX_CONNECTIONS} alkalmazás kapcsolódhat a pénztárcához.`);
  const secret = randomBytes(32);
  const clientPubkey = getPublicKey(secret);
  await ctx.db.run('INSERT INTO wallet_nwc_connections (client_pubkey, pubkey, appname, created_at) VALUES (?, ?, ?, ?)', [
    clientPubkey,
    ev.pubkey,
    appname,
    ctx.now(),
  ]);
  await saveLimits(ctx.db, clientPubkey, limits);
  if (ctx.config.demoLightning) await serveConnection(ctx, clientPubkey, ev.pubkey);
  const relay = `${serverOrigin(ctx, env.conn.localPort).replace(/^http/, 'ws')}/relay`;
  const query = new URLSearchParams({ relay, secret: bytesToHex(secret) });
  const m = await membershipOf(ctx.db, ev.pubkey, ctx.now());
  const lud16 = isPremium(m) && m.name ? `${m.name}@${ctx.config.nip05Domain}` : await demoAddressOf(ctx.db, ctx.config.nip05Domain, ev.pubkey);
  if (lud16) query.set('lud16', lud16);
  const uri = `nostr+walletconnect://${getPublicKey(await serviceKey(ctx.db))}?${query.toString()}`;
  return { kind: CacheKind.WALLET_NWC_CONNECTION, content: JSON.stringify({ uri }) };
}

/**
 * The operation is named three times and all three must agree: the kind (protocol C.2), the
 * `d` tag's op (the shared signed-request check) and the content's first element.
 */
const wallet: Command = async (args, env) => {
  const req = await verifySignedRequest(args.raw.operation_event, 'wallet', {
    now: env.ctx.now(),
    field: 'operation_event',
    kinds: [...new Set(Object.values(WALLET_OP_KINDS))],
  });
  if (typeof req === 'string') throw new CommandError(req);
  const { ev } = req;
  let content: unknown;
  try {
    content = JSON.parse(ev.content);
  } catch {
    throw new CommandError('invalid operation_event: content is not JSON');
  }
  if (!Array.isArray(content) || typeof content[0] !== 'string') throw new CommandError('invalid operation_event: content must be [operation, params]');
  const op = content[0];
  const rawParams: unknown = content[1] ?? {};
  if (!rawParams || typeof rawParams !== 'object' || Array.isArray(rawParams)) throw new CommandError('invalid operation_event: params must be an object');
  const kind = WALLET_OP_KINDS[op];
  if (kind === undefined) throw new CommandError(`unknown wallet operation: ${op.slice(0, 40)}`);
  if (req.op !== op) throw new CommandError(`invalid operation_event: signed for ${req.op}, not for ${op}`);
  if (ev.kind !== kind) throw new CommandError(`invalid operation_event: ${op} must be signed as kind ${kind}`);
  const params = new Args(rawParams as Record<string, unknown>);
  switch (op) {
    case 'exchange_rate':
      return [exchangeRateReply(env, params.raw.target_currency)];
    case 'is_user':
      return [await isUser(env, params)];
    case 'nwc_connect':
      return [await nwcConnect(env, ev, params)];
    default:
      throw new CommandError('A kifizetés nem érhető el: ez a demó pénztárca nem kapcsolódik a Lightning-hálózathoz.');
  }
};

export const walletCommands: [string, Command][] = [['wallet', wallet]];
