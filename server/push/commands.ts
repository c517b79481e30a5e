/**
 * push_subscribe / push_unsubscribe: a browser's Web Push subscription for the signer of the request
 * (kind 30078, d tag naming the op, fresh; server/cache/signed.ts), never for a pubkey argument.
 * The VAPID public key the browser subscribes with is in /api/info (vapidPublicKey).
 */
import { type Args, CommandError } from '../cache/args.ts';
import type { Command } from '../cache/registry.ts';
import { requireSignedRequest } from '../cache/signed.ts';
import { assertPublicHost } from '../media/guard.ts';
import { PUSH_TYPES, isPushType } from './schema.ts';
import { pushServiceOf } from './service.ts';

/** Browsers of one person: phone, laptop, a few profiles. More is a script, not a person. */
export const MAX_SUBSCRIPTIONS_PER_USER = 20;
const MAX_ENDPOINT_CHARS = 1024;

function endpointOf(params: Args, allowPrivate: boolean): string {
  const raw = params.raw.endpoint;
  if (typeof raw !== 'string' || raw.length > MAX_ENDPOINT_CHARS) throw new CommandError('invalid endpoint');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CommandError('invalid endpoint: not a URL');
  }
  // Push services are https; plain http only for one on this machine's network (tests, FETCH_PRIVATE_ADDRESSES=1).
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw new CommandError('invalid endpoint: must be https');
  if (url.username || url.password) throw new CommandError('invalid endpoint: credentials in URL');
  if (assertPublicHost(url.hostname, allowPrivate)) throw new CommandError('invalid endpoint: private address');
  return url.href;
}

/** base64url of the browser's P-256 public key (65 bytes) and auth secret (16 bytes). */
function keyOf(v: unknown, name: string, bytes: number): string {
  if (typeof v !== 'string' || !/^[A-Za-z0-9_-]+={0,2}$/.test(v)) throw new CommandError(`invalid keys.${name}`);
  const plain = v.replace(/=+$/, '');
  if (Buffer.from(plain, 'base64url').length !== bytes) throw new CommandError(`invalid keys.${name}: must be ${bytes} bytes`);
  return plain;
}

const pushSubscribe: Command = async (args, env) => {
  const { ctx } = env;
  const service = pushServiceOf(ctx);
  if (!service) throw new CommandError('push notifications are not running on this server');
  const { ev, params } = await requireSignedRequest(args, env, 'push_subscribe');
  const endpoint = endpointOf(params, ctx.config.fetchPrivateAddresses);
  const keys = params.raw.keys;
  if (typeof keys !== 'object' || keys === null) throw new CommandError('invalid keys: need p256dh and auth');
  const p256dh = keyOf((keys as Record<string, unknown>).p256dh, 'p256dh', 65);
  const auth = keyOf((keys as Record<string, unknown>).auth, 'auth', 16);
  const rawTypes = params.raw.types;
  if (!Array.isArray(rawTypes) || !rawTypes.every(isPushType)) throw new CommandError(`invalid types: a list of ${PUSH_TYPES.join(', ')}`);
  const types = PUSH_TYPES.filter((t) => rawTypes.includes(t));
  await ctx.db.transaction(async (tx) => {
    const count = await tx.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM push_subscriptions WHERE pubkey = ? AND endpoint <> ?', [
      ev.pubkey,
      endpoint,
    ]);
    if (Number(count?.n ?? 0) >= MAX_SUBSCRIPTIONS_PER_USER) throw new CommandError(`too many push subscriptions (at most ${MAX_SUBSCRIPTIONS_PER_USER})`);
    const previous = await tx.get<{ pubkey: string }>('SELECT pubkey FROM push_subscriptions WHERE endpoint = ?', [endpoint]);
    await tx.run(
      `INSERT INTO push_subscriptions (endpoint, pubkey, p256dh, auth, types, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (endpoint) DO UPDATE SET pubkey = excluded.pubkey, p256dh = excluded.p256dh, auth = excluded.auth,
         types = excluded.types, created_at = excluded.created_at`,
      [endpoint, ev.pubkey, p256dh, auth, JSON.stringify(types), ctx.now()],
    );
    return previous?.pubkey;
  }).then((previous) => (previous && previous !== ev.pubkey ? service.refresh(previous) : undefined));
  await service.refresh(ev.pubkey);
  return [];
};

/** With an endpoint, that browser's subscription; without one, every subscription of the signer (logout everywhere). */
const pushUnsubscribe: Command = async (args, env) => {
  const { ctx } = env;
  const { ev, params } = await requireSignedRequest(args, env, 'push_unsubscribe');
  const raw = params.raw.endpoint;
  if (raw !== undefined && typeof raw !== 'string') throw new CommandError('invalid endpoint');
  if (typeof raw === 'string') await ctx.db.run('DELETE FROM push_subscriptions WHERE endpoint = ? AND pubkey = ?', [raw, ev.pubkey]);
  else await ctx.db.run('DELETE FROM push_subscriptions WHERE pubkey = ?', [ev.pubkey]);
  await pushServiceOf(ctx)?.refresh(ev.pubkey);
  return [];
};

export const pushCommands: [string, Command][] = [
  ['push_subscribe', pushSubscribe],
  ['push_unsubscribe', pushUnsubscribe],
];
