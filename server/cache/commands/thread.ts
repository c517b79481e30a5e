/** `thread_view` and `events` (S §3.1). */
import type { Queryable, SqlValue } from '../../store/db.ts';
import { KIND_GIFT_WRAP } from '../../relay/auth.ts';
import { eventsByIds, tombstones, type CacheObject } from '../data.ts';
import { enrich, Output, type FeedItem } from '../enrich.ts';
import type { Command } from '../registry.ts';

/** A reply chain deeper than this is a loop or an attack, not a conversation. */
const MAX_CHAIN = 200;

interface PostLink {
  event_id: string;
  parent_id: string | null;
  created_at: number | string;
}

/** The event and its ancestors, oldest first; stops where a parent is unknown. */
async function parentChain(db: Queryable, eventId: string): Promise<FeedItem[]> {
  const chain: FeedItem[] = [];
  const seen = new Set<string>();
  let id: string | null = eventId;
  while (id && !seen.has(id) && chain.length < MAX_CHAIN) {
    seen.add(id);
    const row: PostLink | undefined = await db.get<PostLink>(
      `SELECT event_id, parent_id, created_at FROM posts WHERE event_id = ?`,
      [id],
    );
    if (!row) {
      // Not a post (an article version, a parent we never saw): take it from the raw store if there.
      const ev = (await eventsByIds(db, [id])).get(id);
      if (ev) chain.push({ id, key: ev.created_at });
      break;
    }
    chain.push({ id, key: Number(row.created_at) });
    id = row.parent_id;
  }
  return chain.reverse();
}

const threadView: Command = async (args, { ctx }) => {
  const eventId = args.hex('event_id');
  const viewer = args.optHex('user_pubkey');
  const limit = args.limit(20);
  const offset = args.offset();
  const since = args.optBound('since');
  const until = args.optBound('until');
  const includeParents = args.bool('include_parent_posts', true);
  const replyKinds = args.optKinds();
  const out = new Output();

  // A stored event is live; a missing one with a tombstone was deleted before or after it arrived.
  const stored = (await eventsByIds(ctx.db, [eventId])).get(eventId);
  const deleted = !stored && (await tombstones(ctx.db, [eventId])).has(eventId);
  let replies: FeedItem[] = [];
  if (!deleted) {
    const params: SqlValue[] = [eventId];
    let where = 'parent_id = ?';
    // multi_kind_thread_view (S §3.1) narrows the replies to some kinds; the parent chain stays whole.
    if (replyKinds?.length) {
      where += ` AND kind IN (${replyKinds.map(() => '?').join(',')})`;
      params.push(...replyKinds);
    }
    if (until !== undefined) {
      where += ' AND created_at <= ?';
      params.push(until);
    }
    if (since !== undefined) {
      where += ' AND created_at >= ?';
      params.push(since);
    }
    const rows = await ctx.db.all<{ id: string; k: number | string }>(
      `SELECT event_id AS id, created_at AS k FROM posts WHERE ${where}
       ORDER BY created_at DESC, event_id DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    );
    replies = rows.map((r) => ({ id: r.id, key: Number(r.k) }));
  }
  await enrich(ctx.db, replies, { viewer, orderBy: 'created_at', out });

  let chain: FeedItem[] = [];
  if (!deleted) {
    if (includeParents) chain = await parentChain(ctx.db, eventId);
    else if (stored) chain = [{ id: eventId, key: stored.created_at }];
  }
  await enrich(ctx.db, chain, { viewer, orderBy: 'created_at', direction: 'asc', out });
  return out.objects;
};

const events: Command = async (args, { ctx }) => {
  const ids = args.hexList('event_ids');
  const viewer = args.optHex('user_pubkey');
  // Gift wraps go only to their recipient, which only the relay (after NIP-42 AUTH) can tell.
  const present = [...(await eventsByIds(ctx.db, ids)).values()].filter((e) => e.kind !== KIND_GIFT_WRAP);
  if (args.bool('extended_response', false)) {
    const items = present.map((e) => ({ id: e.id, key: e.created_at }));
    return (await enrich(ctx.db, items, { viewer, orderBy: 'created_at' })).objects;
  }
  return present.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1)) as unknown as CacheObject[];
};

export const threadCommands: [string, Command][] = [
  ['thread_view', threadView],
  ['events', events],
];
