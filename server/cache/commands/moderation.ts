/** Content-moderation queries and reports (S §2.3, §3.3, §3.10). */
import { filteringReason, hiddenFor, isEventHidden, SCOPES, type Scope } from '../../moderation/hidden.ts';
import { CommandError, type Args } from '../args.ts';
import { eventsByIds, profilesOf, type CacheObject } from '../data.ts';
import { synthetic } from '../enrich.ts';
import type { Command } from '../registry.ts';
import { requireSignedRequest } from '../signed.ts';
import { CacheKind } from '../../../core/kinds.ts';

const MAX_CHECK = 500;
/** A report's reason is free text from the client; the operator needs a sentence, not a novel. */
const MAX_REASON_CHARS = 2000;

function scopeArg(args: Args): Scope {
  const scope = args.str('scope', 'content');
  if (!(SCOPES as readonly string[]).includes(scope)) throw new CommandError('invalid scope: expected content or trending');
  return scope as Scope;
}

/** Why a profile is filtered for the viewer (10000131), with the blocking list owner's profile. */
const searchFilterlist: Command = async (args, { ctx }) => {
  const pubkey = args.hex('pubkey');
  const viewer = args.optHex('user_pubkey');
  const reason = await filteringReason(ctx.db, viewer, pubkey);
  if (!reason) return [];
  const out: CacheObject[] = [synthetic(CacheKind.FILTERING_REASON, reason)];
  if ('pubkey' in reason) {
    const prof = (await profilesOf(ctx.db, [reason.pubkey])).get(reason.pubkey);
    if (prof) out.push(prof as unknown as CacheObject);
  }
  return out;
};

const isHiddenByContentModeration: Command = async (args, { ctx }) => {
  const viewer = args.optHex('user_pubkey');
  const scope = scopeArg(args);
  const pubkeys = args.has('pubkeys') ? args.hexList('pubkeys', MAX_CHECK) : [];
  const eventIds = args.has('event_ids') ? args.hexList('event_ids', MAX_CHECK) : [];
  const hidden = await hiddenFor(ctx.db, viewer, scope);
  const byPubkey: Record<string, boolean> = {};
  for (const pk of pubkeys) byPubkey[pk] = pk !== hidden.self && hidden.pubkeys.has(pk);
  const events = await eventsByIds(ctx.db, eventIds);
  const byEvent: Record<string, boolean> = {};
  for (const id of eventIds) {
    const ev = events.get(id);
    byEvent[id] = ev ? isEventHidden(hidden, ev) : hidden.ids.has(id) || hidden.threads.has(id);
  }
  return [synthetic(CacheKind.IS_HIDDEN, { pubkeys: byPubkey, event_ids: byEvent })];
};

/** The target is signed with the report (content `{pubkey|event_id, reason?}`), so a captured report cannot be aimed at someone else. */
async function storeReport(args: Args, env: Parameters<Command>[1], targetType: 'pubkey' | 'event'): Promise<CacheObject[]> {
  const { ev, params } = await requireSignedRequest(args, env, targetType === 'pubkey' ? 'report_user' : 'report_note');
  const target = params.hex(targetType === 'pubkey' ? 'pubkey' : 'event_id');
  await env.ctx.db.run(
    `INSERT INTO reports (reporter, target_type, target, reason, event_id, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (reporter, target_type, target) DO UPDATE SET reason = excluded.reason, event_id = excluded.event_id, created_at = excluded.created_at`,
    [ev.pubkey, targetType, target, ev.content.slice(0, MAX_REASON_CHARS), ev.id, ev.created_at],
  );
  return [];
}

/** The content is the time the client says it was online; its own created_at when that is missing or absurd. */
const setLastTimeUserWasOnline: Command = async (args, env) => {
  const { ev } = await requireSignedRequest(args, env, 'set_last_time_user_was_online');
  const claimed = Number(ev.content.trim());
  const at = Number.isInteger(claimed) && claimed > 0 && claimed <= env.ctx.now() + 300 ? claimed : ev.created_at;
  await env.ctx.db.run(
    `INSERT INTO user_last_online (pubkey, online_at) VALUES (?, ?)
     ON CONFLICT (pubkey) DO UPDATE SET online_at = excluded.online_at`,
    [ev.pubkey, at],
  );
  return [];
};

export const moderationCommands: [string, Command][] = [
  ['search_filterlist', searchFilterlist],
  ['is_hidden_by_content_moderation', isHiddenByContentModeration],
  ['report_user', async (args, env) => storeReport(args, env, 'pubkey')],
  ['report_note', async (args, env) => storeReport(args, env, 'event')],
  ['set_last_time_user_was_online', setLastTimeUserWasOnline],
];
