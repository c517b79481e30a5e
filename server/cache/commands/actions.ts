/**
 * Who acted on a note (S §3.1 event_actions, find_reposts) and which posts quote or mention it
 * (note_mentions). Both read event_action_refs, which the importer keeps for every like,
 * repost, quote, reply and zap, and moves along when an article gets a new version.
 */
import type { Queryable } from '../../store/db.ts';
import { CommandError, type Args } from '../args.ts';
import { addressKey, eventsByAddress, eventsByIds, type CacheObject } from '../data.ts';
import { enrich, range, synthetic } from '../enrich.ts';
import type { Command } from '../registry.ts';
import { userInfos } from './users.ts';
import { CacheKind } from '../../../core/kinds.ts';

/** The acting kinds event_actions lists, and the action the importer recorded for each. */
const ACTION_OF_KIND: Record<number, string> = { 7: 'like', 6: 'repost', 9735: 'zap', 1: 'reply' };

/**
 * The event a command is about: `event_id`, or the current version of the address
 * `addrKind:pubkey:identifier`. Null when the address has no stored version.
 */
export async function targetOf(db: Queryable, args: Args, addrKind = 30023): Promise<string | null> {
  if (args.has('event_id')) return args.hex('event_id');
  if (!args.has('pubkey') || !args.has('identifier')) throw new CommandError('missing event_id, or pubkey and identifier');
  if (addrKind < 30000 || addrKind >= 40000) throw new CommandError('invalid kind: expected an addressable kind');
  const address = { kind: addrKind, pubkey: args.hex('pubkey'), d: args.str('identifier', '') };
  return (await eventsByAddress(db, [address])).get(addressKey(address))?.id ?? null;
}

interface RefRow {
  id: string;
  pubkey: string;
  k: number | string;
}

/** Refs of one acting kind and action, newest first: an ordered walk of the (event_id, ref_kind, ref_created_at) index. */
async function actingRefs(
  db: Queryable,
  target: string,
  kind: number,
  action: string,
  page: { limit: number; offset: number },
  actor?: string,
): Promise<RefRow[]> {
  const byActor = actor ? ' AND ref_pubkey = ?' : '';
  return db.all<RefRow>(
    `SELECT ref_event_id AS id, ref_pubkey AS pubkey, ref_created_at AS k FROM event_action_refs
     WHERE event_id = ? AND ref_kind = ? AND action = ?${byActor}
     ORDER BY ref_created_at DESC, ref_event_id DESC LIMIT ? OFFSET ?`,
    [target, kind, action, ...(actor ? [actor] : []), page.limit, page.offset],
  );
}

/** The stored events of `rows`, in the rows' order. */
async function inOrder(db: Queryable, rows: RefRow[]): Promise<CacheObject[]> {
  const events = await eventsByIds(db, rows.map((r) => r.id));
  return rows.flatMap((r) => {
    const ev = events.get(r.id);
    return ev ? [ev as unknown as CacheObject] : [];
  });
}

/** Reactions, reposts, zap receipts or replies on one note, newest first, then the actors' user_infos. */
const eventActions: Command = async (args, { ctx }) => {
  const kind = args.optInt('kind');
  if (kind === undefined) throw new CommandError('missing kind');
  const action = ACTION_OF_KIND[kind];
  if (!action) throw new CommandError('unsupported kind: expected 7, 6, 9735 or 1');
  const limit = args.limit(100, 1000);
  const offset = args.offset();
  const target = await targetOf(ctx.db, args);
  if (!target) return [];
  const rows = await actingRefs(ctx.db, target, kind, action, { limit, offset });
  // For a zap the actor is the zap request's author, which is what the refs hold.
  const actors = [...new Set(rows.map((r) => r.pubkey))];
  return [...(await inOrder(ctx.db, rows)), ...(actors.length ? await userInfos(ctx.db, actors) : [])];
};

/** The reposts of a note, optionally only one account's (to undo "repost"). */
const findReposts: Command = async (args, { ctx }) => {
  const eventId = args.hex('event_id');
  const actor = args.optHex('pubkey');
  const rows = await actingRefs(ctx.db, eventId, 6, 'repost', { limit: args.limit(100, 1000), offset: args.offset() }, actor);
  return inOrder(ctx.db, rows);
};

/** Posts that quote or mention the note (q tags, e tags marked mention, nostr: links), newest first. */
const noteMentions: Command = async (args, { ctx }) => {
  const limit = args.limit(100, 1000);
  const offset = args.offset();
  const viewer = args.optHex('user_pubkey');
  const target = await targetOf(ctx.db, args);
  if (!target) return [range('created_at', [])];
  const rows = await actingRefs(ctx.db, target, 1, 'quote', { limit, offset });
  if (!rows.length) return [range('created_at', [])];
  const items = rows.map((r) => ({ id: r.id, key: Number(r.k) }));
  return (await enrich(ctx.db, items, { viewer, orderBy: 'created_at' })).objects;
};

const noteMentionsCount: Command = async (args, { ctx }) => {
  const eventId = args.hex('event_id');
  const row = await ctx.db.get<{ n: unknown }>(`SELECT COUNT(*) AS n FROM event_action_refs WHERE event_id = ? AND ref_kind = 1 AND action = 'quote'`, [
    eventId,
  ]);
  return [synthetic(CacheKind.NOTE_MENTIONS_COUNT, { event_id: eventId, count: Number(row?.n ?? 0) })];
};

export const actionCommands: [string, Command][] = [
  ['event_actions', eventActions],
  ['find_reposts', findReposts],
  ['note_mentions', noteMentions],
  ['note_mentions_count', noteMentionsCount],
];
