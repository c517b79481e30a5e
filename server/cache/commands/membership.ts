/**
 * Membership commands (spec §4, §6, §7; protocol C.2 "Premium / membership"). They are served on
 * the wallet socket (/wallet) and, because clients also send them over the cache socket, on /v1.
 * Signed ones act only for the signer of `event_from_user`, signed for that very command, and
 * take their parameters from the signed content only: an unsigned kwarg next to a signed request
 * could otherwise change what a captured request does.
 */
import { membershipConfig } from '../../membership/config.ts';
import { contentBackup, contentStats, mediaDelete, mediaStats, mediaUploads, recoveryContactLists, serverOrigin } from '../../membership/content.ts';
import { customizationOf, isCustomizationChange, membershipDecorations, setCustomization } from '../../membership/legend.ts';
import { checkName, nameAvailable } from '../../membership/names.ts';
import { btcString, PRODUCTS, rateOf, usdString } from '../../membership/products.ts';
import { createQuote, quoteFields, quoteOf } from '../../membership/quotes.ts';
import { cancelRebroadcast, rebroadcastStatus, startRebroadcast } from '../../membership/rebroadcast.ts';
import { membershipOf, requireLegend, requirePremium, statusFields } from '../../membership/store.ts';
import { CommandError } from '../args.ts';
import type { AsyncCommand } from '../async.ts';
import type { CacheObject } from '../data.ts';
import { synthetic } from '../enrich.ts';
import type { Command, CommandEnv } from '../registry.ts';
import { requireSignedRequest } from '../signed.ts';
import { CacheKind } from '../../../core/kinds.ts';

const MONITOR_EVERY_MS = 1000;
const REBROADCAST_STATUS_EVERY_MS = 2000;
const MAX_QUOTE_ID = 64;

/** C.3 gives membership status, name and quote replies no kind of their own; they go out as wallet-operation responses. */
const reply = (content: unknown): CacheObject => synthetic(CacheKind.WALLET_OPERATION, content);

async function statusReply(env: CommandEnv, pubkey: string): Promise<CacheObject[]> {
  const m = await membershipOf(env.ctx.db, pubkey, env.ctx.now());
  return [reply(await statusFields(env.ctx, m)), ...(await membershipDecorations(env.ctx, pubkey))];
}

const membershipStatus: Command = async (args, env) => {
  const { ev } = await requireSignedRequest(args, env, 'membership_status');
  return statusReply(env, ev.pubkey);
};

const nameAvailableCommand: Command = async (args, env) => {
  const name = checkName(args.raw.name);
  const pubkey = args.optHex('pubkey');
  return [reply({ name, available: await nameAvailable(env.ctx, name, pubkey) })];
};

const changeName: Command = async (args, env) => {
  const { ev, params } = await requireSignedRequest(args, env, 'membership_change_name');
  const name = checkName(params.raw.name);
  await requirePremium(env.ctx, ev.pubkey);
  if (!(await nameAvailable(env.ctx, name, ev.pubkey))) throw new CommandError('A név már foglalt.');
  try {
    await env.ctx.db.run('UPDATE memberships SET name = ? WHERE pubkey = ?', [name, ev.pubkey]);
  } catch {
    // The unique index refused it: someone took the name a moment ago.
    throw new CommandError('A név már foglalt.');
  }
  return statusReply(env, ev.pubkey);
};

const purchaseProduct: Command = async (args, env) => {
  const { ev, params } = await requireSignedRequest(args, env, 'membership_purchase_product');
  const quote = await createQuote(env.ctx, ev.pubkey, params.raw);
  return [reply(quoteFields(quote))];
};

const purchaseMonitor: AsyncCommand = async (args, { ctx }) => {
  const id = args.optStr('membership_quote_id');
  if (!id || id.length > MAX_QUOTE_ID) throw new CommandError('missing membership_quote_id');
  if (!(await quoteOf(ctx.db, id, ctx.now()))) throw new CommandError('unknown membership_quote_id');
  let finished = false;
  return {
    everyMs: MONITOR_EVERY_MS,
    // Pushes the state each second while it is pending, then the final state once.
    poll: async () => {
      if (finished) return [];
      const q = await quoteOf(ctx.db, id, ctx.now());
      if (!q) return [];
      if (q.status !== 'pending') finished = true;
      return [reply(quoteFields(q))];
    },
  };
};

const purchaseHistory: Command = async (args, env) => {
  const { ev, params } = await requireSignedRequest(args, env, 'membership_purchase_history');
  await requirePremium(env.ctx, ev.pubkey);
  const limit = Math.max(1, params.limit(20, 100));
  const offset = params.offset();
  const until = params.optBound('until') ?? Number.MAX_SAFE_INTEGER;
  const rows = await env.ctx.db.all<{ product_id: string; amount_sats: number | string; amount_usd_cents: number | string; paid_at: number | string }>(
    `SELECT product_id, amount_sats, amount_usd_cents, paid_at FROM membership_quotes
     WHERE (payer = ? OR receiver = ?) AND status = 'paid' AND paid_at <= ? ORDER BY paid_at DESC, id LIMIT ? OFFSET ?`,
    [ev.pubkey, ev.pubkey, until, limit, offset],
  );
  const history = rows.map((r) => ({
    purchased_at: Number(r.paid_at),
    product_id: r.product_id,
    product_label: PRODUCTS.get(r.product_id)?.label ?? r.product_id,
    amount_btc: btcString(Number(r.amount_sats)),
    amount_usd: usdString(Number(r.amount_usd_cents)),
    currency: 'USD',
  }));
  return [synthetic(CacheKind.ORDER_HISTORY, history)];
};

/** Price of one bitcoin in the currency asked for (default USD, spec §7). */
export function exchangeRateReply(env: CommandEnv, currency: unknown): CacheObject {
  if (currency !== undefined && currency !== null && typeof currency !== 'string') throw new CommandError('invalid target_currency: expected a string');
  const code = (currency || 'USD').trim().toUpperCase();
  return synthetic(CacheKind.EXCHANGE_RATE, { rate: rateOf(membershipConfig(env.ctx).exchangeRates, code), target_currency: code });
}

const exchangeRate: Command = async (args, env) => {
  // The rate is public; a signed request may carry the currency in its content.
  const params = args.has('event_from_user') ? (await requireSignedRequest(args, env, 'membership_exchange_rate')).params : args;
  return [exchangeRateReply(env, params.raw.target_currency)];
};

const legendCustomization: Command = async (args, env) => {
  const { ev, params } = await requireSignedRequest(args, env, 'membership_legend_customization');
  if (isCustomizationChange(params.raw)) {
    await requireLegend(env.ctx, ev.pubkey);
    await setCustomization(env.ctx, ev.pubkey, params.raw);
  }
  const decorations = await membershipDecorations(env.ctx, ev.pubkey);
  // A non-legend still gets their (default) customization, so the settings page can render.
  if (!decorations.some((o) => o.kind === CacheKind.LEGEND_CUSTOMIZATION)) {
    decorations.unshift(synthetic(CacheKind.LEGEND_CUSTOMIZATION, { [ev.pubkey]: await customizationOf(env.ctx.db, ev.pubkey) }));
  }
  return decorations;
};

const stripeStatus: Command = async () => {
  throw new CommandError('Kártyás fizetés nem érhető el: ezen a szerveren csak Lightning-számlával lehet fizetni.');
};

const mediaStatsCommand: Command = async (args, env) => {
  const { ev } = await requireSignedRequest(args, env, 'membership_media_management_stats');
  await requirePremium(env.ctx, ev.pubkey);
  return [synthetic(CacheKind.MEDIA_STATS, await mediaStats(env.ctx, ev.pubkey))];
};

const mediaUploadsCommand: Command = async (args, env) => {
  const { ev, params } = await requireSignedRequest(args, env, 'membership_media_management_uploads');
  await requirePremium(env.ctx, ev.pubkey);
  return mediaUploads(env.ctx, ev.pubkey, params, serverOrigin(env.ctx, env.conn.localPort));
};

const mediaDeleteCommand: Command = async (args, env) => {
  const { ev, params } = await requireSignedRequest(args, env, 'membership_media_management_delete');
  await requirePremium(env.ctx, ev.pubkey);
  await mediaDelete(env.ctx, ev.pubkey, params.raw.url);
  return [synthetic(CacheKind.MEDIA_STATS, await mediaStats(env.ctx, ev.pubkey))];
};

const recoveryCommand: Command = async (args, env) => {
  const { ev } = await requireSignedRequest(args, env, 'membership_recovery_contact_lists');
  await requirePremium(env.ctx, ev.pubkey);
  return recoveryContactLists(env.ctx, ev.pubkey);
};

const contentStatsCommand: Command = async (args, env) => {
  const { ev } = await requireSignedRequest(args, env, 'membership_content_stats');
  return contentStats(env.ctx, ev.pubkey);
};

const contentBackupCommand: Command = async (args, env) => {
  const { ev, params } = await requireSignedRequest(args, env, 'membership_content_backup');
  await requirePremium(env.ctx, ev.pubkey);
  return contentBackup(env.ctx, ev.pubkey, params, params.optKinds());
};

const rebroadcastStart: Command = async (args, env) => {
  const { ev, params } = await requireSignedRequest(args, env, 'membership_content_rebroadcast_start');
  await requirePremium(env.ctx, ev.pubkey);
  await startRebroadcast(env.ctx, ev.pubkey, params.optKinds(), params.raw.relays);
  return [synthetic(CacheKind.BROADCAST_STATUS, await rebroadcastStatus(env.ctx, ev.pubkey))];
};

const rebroadcastCancel: Command = async (args, env) => {
  const { ev } = await requireSignedRequest(args, env, 'membership_content_rebroadcast_cancel');
  await cancelRebroadcast(env.ctx, ev.pubkey);
  return [synthetic(CacheKind.BROADCAST_STATUS, await rebroadcastStatus(env.ctx, ev.pubkey))];
};

const rebroadcastingStatus: AsyncCommand = async (args, env) => {
  const { ev } = await requireSignedRequest(args, env, 'rebroadcasting_status');
  const { ctx } = env;
  return {
    everyMs: REBROADCAST_STATUS_EVERY_MS,
    poll: async () => [synthetic(CacheKind.BROADCAST_STATUS, await rebroadcastStatus(ctx, ev.pubkey))],
  };
};

export const membershipCommands: [string, Command][] = [
  ['membership_status', membershipStatus],
  ['membership_name_available', nameAvailableCommand],
  ['membership_change_name', changeName],
  ['membership_purchase_product', purchaseProduct],
  ['membership_purchase_history', purchaseHistory],
  ['membership_exchange_rate', exchangeRate],
  ['membership_legend_customization', legendCustomization],
  ['membership_stripe_checkout_session_check_status', stripeStatus],
  ['membership_media_management_stats', mediaStatsCommand],
  ['membership_media_management_uploads', mediaUploadsCommand],
  ['membership_media_management_delete', mediaDeleteCommand],
  ['membership_recovery_contact_lists', recoveryCommand],
  ['membership_content_stats', contentStatsCommand],
  ['membership_content_backup', contentBackupCommand],
  ['membership_content_rebroadcast_start', rebroadcastStart],
  ['membership_content_rebroadcast_cancel', rebroadcastCancel],
];

export const membershipAsyncCommands: [string, AsyncCommand][] = [
  ['membership_purchase_monitor', purchaseMonitor],
  ['rebroadcasting_status', rebroadcastingStatus],
];
