/** Notifications (S §3.5, §3.8): the list, the seen mark, and the async counters and pushes. */
import type { NostrEvent, ServerContext } from '../../context.ts';
import { EVENT_ARGS, PUBKEY_ARGS, SUMMARY_TYPES } from '../../ingest/notification-types.ts';
import { CommandError } from '../args.ts';
import type { AsyncCommand } from '../async.ts';
import { followerCounts, hiddenFor, inChunks, profilesOf, type CacheObject } from '../data.ts';
import { enrich, Output, synthetic, type FeedItem } from '../enrich.ts';
import { subscribeLive } from '../plain.ts';
import type { Command } from '../registry.ts';
import { requireOwner, requireSignedRequest } from '../signed.ts';
import { CacheKind } from '../../../core/kinds.ts';

const PAGE = 100;
const TYPE_GROUPS: Record<string, number[] | null> = {
  all: null,
  zaps: [3],
  replies: [6, 601],
  mentions: [7, 8],
  reposts: [5],
};
/** Events imported between two polls of a `notifications` push; more than this in 200 ms is a bulk import, not a user's feed. */
const MAX_PENDING = 2000;

interface Row {
  content: string;
  created_at: number | string;
}

function parseNotification(content: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(content);
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const getNotifications: Command = async (args, { ctx }) => {
  const pubkey = args.hex('pubkey');
  const limit = args.limit(PAGE, PAGE);
  const since = args.optBound('since');
  const until = args.optBound('until');
  const offset = args.offset();
  const viewer = args.optHex('user_pubkey') ?? pubkey;
  const group = args.str('type_group', 'all');
  if (!(group in TYPE_GROUPS)) throw new CommandError('invalid type_group: expected all, zaps, replies, mentions or reposts');
  const types = TYPE_GROUPS[group];

  const where = ['pubkey = ?'];
  const params: (string | number)[] = [pubkey];
  if (types) {
    where.push(`type IN (${types.map(() => '?').join(',')})`);
    params.push(...types);
  }
  if (since !== undefined) {
    where.push('created_at >= ?');
    params.push(since);
  }
  if (until !== undefined) {
    where.push('created_at <= ?');
    params.push(until);
  }
  const rows = await ctx.db.all<Row>(
    `SELECT content, created_at FROM notifications WHERE ${where.join(' AND ')}
     ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    [...params, limit, offset],
  );

  // Someone muted after the notification was made is hidden from it now as well.
  const hidden = await hiddenFor(ctx.db, pubkey);
  const out = new Output();
  const pubkeys = new Set<string>();
  const items: FeedItem[] = [];
  for (const row of rows) {
    const n = parseNotification(row.content);
    if (!n) continue;
    const people: string[] = [];
    const events: string[] = [];
    for (const [k, v] of Object.entries(n)) {
      if (typeof v !== 'string') continue;
      if (PUBKEY_ARGS.has(k)) people.push(v);
      else if (EVENT_ARGS.has(k)) events.push(v);
    }
    if (people.some((p) => hidden.pubkeys.has(p)) || events.some((e) => hidden.ids.has(e))) continue;
    out.push({ kind: CacheKind.NOTIFICATION, content: row.content });
    for (const p of people) pubkeys.add(p);
    for (const e of events) items.push({ id: e, key: Number(row.created_at) });
  }
  const followers = await followerCounts(ctx.db, pubkeys);
  for (const p of pubkeys) out.push(synthetic(CacheKind.USER_PROFILE, { pubkey: p, followers_count: followers.get(p) ?? 0 }));
  if (items.length) await enrich(ctx.db, items, { viewer, orderBy: 'created_at', noRange: true, out });
  const profiles = await profilesOf(ctx.db, pubkeys);
  for (const p of pubkeys) {
    const profile = profiles.get(p);
    if (profile) out.push(profile as unknown as CacheObject);
  }
  return out.objects;
};

/** When a user last looked at their notifications is theirs alone: answered only to their signed request. */
const getNotificationsSeen: Command = async (args, env) => {
  const { ctx } = env;
  const pubkey = await requireOwner(args, env, 'get_notifications_seen', 'pubkey');
  const row = await ctx.db.get<{ seen_until: number | string }>('SELECT seen_until FROM notifications_seen WHERE pubkey = ?', [pubkey]);
  // A user who never marked anything has seen nothing: "0" rather than Primal's "unknown user" NOTICE.
  return [synthetic(CacheKind.NOTIFICATIONS_SEEN_UNTIL, Number(row?.seen_until ?? 0))];
};

/** The seen mark is the signed event's created_at, which is within five minutes of now by construction. */
const setNotificationsSeen: Command = async (args, env) => {
  const { ctx } = env;
  const { ev } = await requireSignedRequest(args, env, 'set_notifications_seen');
  await ctx.db.transaction(async (tx) => {
    await tx.run(
      `INSERT INTO notifications_seen (pubkey, seen_until) VALUES (?, ?)
       ON CONFLICT (pubkey) DO UPDATE SET seen_until = excluded.seen_until`,
      [ev.pubkey, ev.created_at],
    );
    await tx.run('UPDATE notification_counts SET cnt = 0 WHERE pubkey = ?', [ev.pubkey]);
  });
  return [];
};

/** Counts per type, every known type present, or undefined while the user has no counter row. */
async function countsOf(ctx: ServerContext, pubkey: string): Promise<Record<string, number> | undefined> {
  const rows = await ctx.db.all<{ type: number | string; cnt: number | string }>(
    'SELECT type, cnt FROM notification_counts WHERE pubkey = ?',
    [pubkey],
  );
  if (!rows.length) return undefined;
  const counts: Record<string, number> = {};
  for (const t of SUMMARY_TYPES) counts[String(t)] = 0;
  for (const r of rows) counts[String(Number(r.type))] = Number(r.cnt);
  return counts;
}

const notificationCounts: AsyncCommand = async (args, env) => {
  const { ctx } = env;
  const pubkey = await requireOwner(args, env, 'notification_counts', 'pubkey');
  return {
    everyMs: 1000,
    poll: async () => {
      const counts = await countsOf(ctx, pubkey);
      return counts ? [{ kind: CacheKind.NOTIFICATIONS_SUMMARY, pubkey, ...counts }] : [];
    },
  };
};

const notificationCounts2: AsyncCommand = async (args, env) => {
  const { ctx } = env;
  const pubkey = await requireOwner(args, env, 'notification_counts_2', 'pubkey');
  return {
    everyMs: 1000,
    poll: async () => {
      const counts = await countsOf(ctx, pubkey);
      return counts ? [synthetic(CacheKind.NOTIFICATIONS_SUMMARY_2, counts, { pubkey })] : [];
    },
  };
};

/**
 * Pushes each notification as it is made. Notifications are written in the importing
 * transaction and events are announced after it commits, so every announced event's
 * notifications can be read by its id.
 */
const notificationsPush: AsyncCommand = async (args, env) => {
  const { ctx } = env;
  const pubkey = await requireOwner(args, env, 'notifications', 'pubkey');
  let pending: string[] = [];
  const unsubscribe = subscribeLive(ctx, (ev: NostrEvent) => {
    if (pending.length < MAX_PENDING) pending.push(ev.id);
  });
  return {
    everyMs: 200,
    dispose: unsubscribe,
    poll: async () => {
      if (!pending.length) return [];
      const ids = pending;
      pending = [];
      const rows = await inChunks(ids, (chunk, marks) =>
        ctx.db.all<Row>(`SELECT content, created_at FROM notifications WHERE pubkey = ? AND source_id IN (${marks})`, [
          pubkey,
          ...chunk,
        ]),
      );
      rows.sort((a, b) => Number(a.created_at) - Number(b.created_at));
      return rows.map((r) => ({ kind: CacheKind.NOTIFICATION, content: r.content }));
    },
  };
};

export const notificationCommands: [string, Command][] = [
  ['get_notifications', getNotifications],
  ['get_notifications_seen', getNotificationsSeen],
  ['set_notifications_seen', setNotificationsSeen],
];

export const notificationAsyncCommands: [string, AsyncCommand][] = [
  ['notification_counts', notificationCounts],
  ['notification_counts_2', notificationCounts2],
  ['notifications', notificationsPush],
];
