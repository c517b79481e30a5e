/**
 * Checks the signed `event_from_user` (or `settings_event`, `operation_event`) that authenticates
 * a write or a private read. Only the signature proves who is asking, so commands act on the
 * returned event's pubkey and never on a pubkey argument.
 *
 * A signature alone proves too little: a request captured on the wire (or left in a log) could be
 * sent again later, or sent to another command that happens to accept the same kind. So every
 * signed request names its command in its `d` tag (protocol C.1: `["d","Primal-Web App",<op>]`),
 * is fresh (±5 minutes of our clock), and carries its parameters inside the signed content.
 */
import type { NostrEvent } from '../context.ts';
import { initVerifier, validateShape, verifySignature } from '../ingest/verify.ts';
import { Args, CommandError } from './args.ts';
import type { CommandEnv } from './registry.ts';
import { CacheKind } from '../../core/kinds.ts';

/** Clients' clocks drift; Primal accepts events up to five minutes ahead (S §3.9). */
export const MAX_FUTURE_SECONDS = 300;
/** How long a captured signed request stays usable: the same five minutes, backwards. */
export const MAX_AGE_SECONDS = 300;
const MAX_SIGNED_CHARS = 100_000;
export const APP_CLIENT = 'Primal-Web App';
/** NIP-78 application data: what clients sign for settings and for every private request. */
export const KIND_APP_DATA = 30078;

/**
 * Command → the op names its `d` tag may carry. The reference (protocol C.1) spells some ops
 * differently from the command (`notifications_laste_seen` [sic], `mark_all_dms_as_read`); both
 * spellings are accepted where our client and the reference differ, never another command's op.
 * Subsettings ops name the subkey too, and the subkey in the content must agree (SUBSETTINGS_OP_SUFFIX).
 */
export const SIGNED_OPS: Readonly<Record<string, readonly string[]>> = {
  get_app_settings: ['get_app_settings'],
  get_app_settings_2: ['get_app_settings'],
  set_app_settings: ['set_app_settings'],
  get_app_subsettings: ['get_app_subsettings_home', 'get_app_subsettings_reads', 'get_app_subsettings_nwc'],
  set_app_subsettings: ['set_app_subsettings_home', 'set_app_subsettings_reads', 'set_app_subsettings_nwc'],
  reset_directmsg_count: ['reset_direct_message_count', 'reset_directmsg_count'],
  reset_directmsg_counts: ['mark_all_dms_as_read', 'reset_directmsg_counts'],
  get_directmsg_contacts: ['get_directmsg_contacts'],
  directmsg_count: ['directmsg_count'],
  directmsg_count_2: ['directmsg_count'],
  set_notifications_seen: ['notifications_laste_seen', 'notifications_last_seen', 'set_notifications_seen'],
  get_notifications_seen: ['get_notifications_seen'],
  notification_counts: ['notification_counts'],
  notification_counts_2: ['notification_counts'],
  notifications: ['notifications'],
  report_user: ['report_user'],
  report_note: ['report_note'],
  set_last_time_user_was_online: ['set_last_time_user_was_online'],
  membership_status: ['get_membership_status', 'membership_status'],
  membership_change_name: ['membership_change_name'],
  membership_purchase_product: ['membership_purchase_product'],
  membership_purchase_history: ['membership_purchase_history'],
  membership_exchange_rate: ['membership_exchange_rate'],
  membership_legend_customization: ['membership_legend_customization'],
  membership_media_management_stats: ['membership_media_management_stats'],
  membership_media_management_uploads: ['membership_media_management_uploads'],
  membership_media_management_delete: ['membership_media_management_delete'],
  membership_recovery_contact_lists: ['membership_recovery_contact_lists'],
  membership_content_stats: ['membership_content_stats'],
  membership_content_backup: ['membership_content_backup'],
  membership_content_rebroadcast_start: ['membership_content_rebroadcast_start'],
  membership_content_rebroadcast_cancel: ['membership_content_rebroadcast_cancel'],
  rebroadcasting_status: ['rebroadcasting_status'],
  push_subscribe: ['push_subscribe'],
  push_unsubscribe: ['push_unsubscribe'],
  // The wallet's op is the first element of its content; the d tag must name the same op.
  wallet: ['exchange_rate', 'withdraw', 'is_user', 'nwc_connect'],
};

/** Wallet operations keep the kinds of protocol C.2, so one signed for an op is not even the kind of another. */
export const WALLET_OP_KINDS: Readonly<Record<string, number>> = {
  exchange_rate: CacheKind.WALLET_OPERATION,
  withdraw: CacheKind.WALLET_OPERATION,
  is_user: CacheKind.WALLET_NWC_ACTIVE,
  nwc_connect: CacheKind.WALLET_NWC_CONNECTION,
};

export interface VerifyOptions {
  /** Accepted kinds; any kind when absent. */
  kinds?: readonly number[];
  /** Current unix time in seconds. */
  now: number;
  /** Largest accepted event as JSON text; upload chunks carry up to a megabyte of base64. */
  maxChars?: number;
  /** Oldest accepted created_at, seconds before now; no limit when absent (upload chunks of a long upload). */
  maxAge?: number;
}

/**
 * Returns the verified event, or a short reason suitable for a NOTICE. Accepts the event as an
 * object or as a JSON string, as clients send both.
 */
export async function verifyUserEvent(raw: unknown, opts: VerifyOptions): Promise<NostrEvent | string> {
  if (raw === undefined || raw === null) return 'missing event_from_user';
  const maxChars = opts.maxChars ?? MAX_SIGNED_CHARS;
  let value = raw;
  if (typeof raw === 'string') {
    if (raw.length > maxChars) return 'invalid event_from_user: too big';
    try {
      value = JSON.parse(raw);
    } catch {
      return 'invalid event_from_user: not JSON';
    }
  }
  // Clients sign some requests with Primal's synthetic kinds (upload chunks are 10000135), above the
  // NIP-01 range validateShape allows; an explicitly accepted kind is checked here instead.
  const kind = (value as { kind?: unknown } | null)?.kind;
  const synthetic = typeof kind === 'number' && kind > 65535 && !!opts.kinds?.includes(kind);
  const shaped = validateShape(synthetic ? { ...(value as object), kind: 0 } : value);
  if (typeof shaped === 'string') return `invalid event_from_user: ${shaped}`;
  if (synthetic) shaped.kind = kind;
  if (JSON.stringify(shaped).length > maxChars) return 'invalid event_from_user: too big';
  if (opts.kinds && !opts.kinds.includes(shaped.kind)) return 'invalid event_from_user: wrong kind';
  if (shaped.created_at > opts.now + MAX_FUTURE_SECONDS) return 'invalid event_from_user: created_at is in the future';
  if (opts.maxAge !== undefined && shaped.created_at < opts.now - opts.maxAge) return 'invalid event_from_user: created_at is too old (signed requests are valid for 5 minutes)';
  await initVerifier();
  if (!verifySignature(shaped)) return 'invalid event_from_user: bad signature';
  return shaped;
}

/** A verified signed request: who asked, for which op, and the parameters they signed. */
export interface SignedRequest {
  ev: NostrEvent;
  op: string;
  /** The content when it is a JSON object; an empty object for plain-text or empty content. */
  content: Record<string, unknown>;
  /** The signed content as Args, for the commands' usual parameter checks. */
  params: Args;
}

function objectContent(content: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(content);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The one check every signed command goes through: shape, signature, kind, a `d` tag naming an
 * op of THIS command, and created_at within ±5 minutes. Returns the request or a NOTICE reason.
 */
export async function verifySignedRequest(
  raw: unknown,
  command: string,
  opts: { now: number; field?: string; kinds?: readonly number[] },
): Promise<SignedRequest | string> {
  const field = opts.field ?? 'event_from_user';
  const ops = SIGNED_OPS[command];
  const named = (reason: string) => (field === 'event_from_user' ? reason : reason.replace('event_from_user', field));
  if (!ops) return `${command} takes no signed request`;
  const ev = await verifyUserEvent(raw, { kinds: opts.kinds ?? [KIND_APP_DATA], now: opts.now, maxAge: MAX_AGE_SECONDS });
  if (typeof ev === 'string') return named(ev.replace('missing event_from_user', `missing ${field}`));
  const d = ev.tags.find((t) => t[0] === 'd');
  if (!d || d[1] !== APP_CLIENT || typeof d[2] !== 'string') return named(`invalid event_from_user: tags must hold ["d","${APP_CLIENT}","<op>"]`);
  if (!ops.includes(d[2])) return named(`invalid event_from_user: signed for ${d[2].slice(0, 64)}, not for ${command}`);
  return { ev, op: d[2], content: objectContent(ev.content), params: new Args(objectContent(ev.content)) };
}

/** verifySignedRequest for a command handler: a refusal becomes the command's NOTICE. */
export async function requireSignedRequest(args: Args, env: CommandEnv, command: string, field = 'event_from_user'): Promise<SignedRequest> {
  const req = await verifySignedRequest(args.raw[field], command, { now: env.ctx.now(), field });
  if (typeof req === 'string') throw new CommandError(req);
  return req;
}

/**
 * A private read's owner: the signer of a valid, fresh request for this command. A pubkey argument
 * next to it may only repeat the signer (old clients send both); it never picks another user.
 */
export async function requireOwner(args: Args, env: CommandEnv, command: string, pubkeyArg: string): Promise<string> {
  if (!args.has('event_from_user')) throw new CommandError(`${command} needs a signed event_from_user of the user`);
  const { ev } = await requireSignedRequest(args, env, command);
  const claimed = args.optHex(pubkeyArg);
  if (claimed !== undefined && claimed !== ev.pubkey) throw new CommandError(`invalid ${pubkeyArg}: not the signer of event_from_user`);
  return ev.pubkey;
}
