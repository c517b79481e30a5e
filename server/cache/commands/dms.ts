/** NIP-04 direct messages (S §3.6): contacts, conversations, unread counters and their resets. */
import type { NostrEvent, ServerContext } from '../../context.ts';
import { dmPair, markDmThreadRead, TOTAL_PEER } from '../../ingest/index-dms.ts';
import { CommandError } from '../args.ts';
import type { AsyncCommand } from '../async.ts';
import { eventsByIds, hiddenFor, profilesOf, type CacheObject } from '../data.ts';
import { Output, range, synthetic, type FeedItem } from '../enrich.ts';
import type { Command } from '../registry.ts';
import { requireOwner, requireSignedRequest } from '../signed.ts';
import { CacheKind } from '../../../core/kinds.ts';

const MAX_CONTACTS = 300;
const CONVERSATION_PAGE = 20;
const MAX_CONVERSATION_PAGE = 500;
const RELATIONS = new Set(['any', 'follows', 'other']);

interface ThreadRow {
  peer: string;
  cnt: number | string;
  latest_at: number | string;
  latest_event_id: string;
}

function pushProfiles(out: Output, profiles: Map<string, NostrEvent>, order: string[]): void {
  for (const pk of order) {
    const p = profiles.get(pk);
    if (p) out.push(p as unknown as CacheObject);
  }
}

/**
 * Anyone may list whom a user talks with (the events are public), but the unread counts are the
 * user's own: they come only with a fresh signed request of that user, and are 0 otherwise.
 */
const getDirectmsgContacts: Command = async (args, env) => {
  const { ctx } = env;
  const owner = args.has('event_from_user') ? await requireOwner(args, env, 'get_directmsg_contacts', 'user_pubkey') : undefined;
  const user = owner ?? args.hex('user_pubkey');
  const relation = args.str('relation', 'any');
  if (!RELATIONS.has(relation)) throw new CommandError('invalid relation: expected any, follows or other');
  const limit = args.limit(MAX_CONTACTS, MAX_CONTACTS);
  const offset = args.offset();
  const since = args.optBound('since');
  const until = args.optBound('until');

  const where = ['t.owner = ?', 't.peer <> ?'];
  const params: (string | number)[] = [user, TOTAL_PEER];
  if (since !== undefined) {
    where.push('t.latest_at >= ?');
    params.push(since);
  }
  if (until !== undefined) {
    where.push('t.latest_at <= ?');
    params.push(until);
  }
  if (relation !== 'any') {
    where.push(`${relation === 'follows' ? '' : 'NOT '}EXISTS (SELECT 1 FROM follows f WHERE f.pubkey = ? AND f.follows = t.peer)`);
    params.push(user);
  }
  const rows = await ctx.db.all<ThreadRow>(
    `SELECT t.peer, t.cnt, t.latest_at, t.latest_event_id FROM dm_threads t WHERE ${where.join(' AND ')}
     ORDER BY t.latest_at DESC, t.peer ASC LIMIT ? OFFSET ?`,
    [...params, limit, offset],
  );
  const hidden = await hiddenFor(ctx.db, user);
  const peers = rows.filter((r) => !hidden.pubkeys.has(r.peer));

  const summary: Record<string, { cnt: number; latest_at: number; latest_event_id: string }> = {};
  for (const r of peers) summary[r.peer] = { cnt: owner ? Number(r.cnt) : 0, latest_at: Number(r.latest_at), latest_event_id: r.latest_event_id };
  const out = new Output();
  out.push(synthetic(CacheKind.DM_COUNTS, summary));
  const latest = await eventsByIds(ctx.db, peers.map((r) => r.latest_event_id));
  for (const r of peers) {
    const ev = latest.get(r.latest_event_id);
    if (ev) out.push(ev as unknown as CacheObject);
  }
  const order = peers.map((r) => r.peer);
  pushProfiles(out, await profilesOf(ctx.db, order), order);
  const items: FeedItem[] = peers.map((r) => ({ id: r.peer, key: Number(r.latest_at) }));
  out.push(range('latest_at', items));
  return out.objects;
};

const getDirectmsgs: Command = async (args, { ctx }) => {
  const receiver = args.hex('receiver');
  const sender = args.hex('sender');
  const since = args.optBound('since');
  const until = args.optBound('until');
  const limit = args.limit(CONVERSATION_PAGE, MAX_CONVERSATION_PAGE);
  const offset = args.offset();

  const where = ['pair = ?'];
  const params: (string | number)[] = [dmPair(receiver, sender)];
  if (since !== undefined) {
    where.push('created_at >= ?');
    params.push(since);
  }
  if (until !== undefined) {
    where.push('created_at <= ?');
    params.push(until);
  }
  const rows = await ctx.db.all<{ event_id: string; created_at: number | string }>(
    `SELECT event_id, created_at FROM dm_messages WHERE ${where.join(' AND ')}
     ORDER BY created_at DESC, event_id ASC LIMIT ? OFFSET ?`,
    [...params, limit, offset],
  );
  const events = await eventsByIds(ctx.db, rows.map((r) => r.event_id));
  const out = new Output();
  const items: FeedItem[] = [];
  for (const r of rows) {
    const ev = events.get(r.event_id);
    if (!ev) continue;
    out.push(ev as unknown as CacheObject);
    items.push({ id: ev.id, key: ev.created_at });
  }
  const people = receiver === sender ? [receiver] : [receiver, sender];
  pushProfiles(out, await profilesOf(ctx.db, people), people);
  out.push(range('created_at', items));
  return out.objects;
};

/** Marks one conversation read: its unread count leaves the total too. Acts only for the signer, on the peer it signed. */
const resetDirectmsgCount: Command = async (args, env) => {
  const { ctx } = env;
  const { ev, params } = await requireSignedRequest(args, env, 'reset_directmsg_count');
  const owner = ev.pubkey;
  const sender = params.hex('sender');
  await ctx.db.transaction((tx) => markDmThreadRead(tx, owner, sender));
  return [];
};

const resetDirectmsgCounts: Command = async (args, env) => {
  const owner = (await requireSignedRequest(args, env, 'reset_directmsg_counts')).ev.pubkey;
  await env.ctx.db.run('UPDATE dm_threads SET cnt = 0 WHERE owner = ? AND cnt <> 0', [owner]);
  return [];
};

async function unreadTotal(ctx: ServerContext, pubkey: string): Promise<number> {
  const row = await ctx.db.get<{ cnt: number | string }>('SELECT cnt FROM dm_threads WHERE owner = ? AND peer = ?', [pubkey, TOTAL_PEER]);
  return Number(row?.cnt ?? 0);
}

const directmsgCount: AsyncCommand = async (args, env) => {
  const { ctx } = env;
  const pubkey = await requireOwner(args, env, 'directmsg_count', 'pubkey');
  return { everyMs: 1000, poll: async () => [{ kind: CacheKind.DM_COUNT, cnt: await unreadTotal(ctx, pubkey) }] };
};

const directmsgCount2: AsyncCommand = async (args, env) => {
  const { ctx } = env;
  const pubkey = await requireOwner(args, env, 'directmsg_count_2', 'pubkey');
  return { everyMs: 1000, poll: async () => [synthetic(CacheKind.DM_COUNT_2, await unreadTotal(ctx, pubkey))] };
};

export const dmCommands: [string, Command][] = [
  ['get_directmsg_contacts', getDirectmsgContacts],
  ['get_directmsgs', getDirectmsgs],
  ['reset_directmsg_count', resetDirectmsgCount],
  ['reset_directmsg_counts', resetDirectmsgCounts],
];

export const dmAsyncCommands: [string, AsyncCommand][] = [
  ['directmsg_count', directmsgCount],
  ['directmsg_count_2', directmsgCount2],
];
