/**
 * Zap lists (S §3.2) and the zap list bundle they share (S §2.3). Zaps come from the zaps
 * table the importer fills from valid receipts; profile zaps have no target event.
 */
import { hiddenFor } from '../../moderation/hidden.ts';
import type { Queryable, SqlValue } from '../../store/db.ts';
import { CommandError, type Args } from '../args.ts';
import { eventsByIds, followerCounts, profilesOf, replaceableOf, sqlMarks, type CacheObject } from '../data.ts';
import { enrich, Output, range, synthetic, zapInfo, type FeedItem } from '../enrich.ts';
import type { Command } from '../registry.ts';
import { targetOf } from './actions.ts';
import { CacheKind } from '../../../core/kinds.ts';

const DAY = 86_400;

export interface Zap {
  receipt_id: string;
  target_event_id: string | null;
  sender: string;
  receiver: string;
  amount_sats: number;
  created_at: number;
}

type ZapOrder = 'created_at' | 'amount_sats';

const ORDER: Record<ZapOrder, string> = {
  created_at: 'created_at DESC, receipt_id ASC',
  amount_sats: 'amount_sats DESC, created_at ASC, receipt_id ASC',
};

async function zapRows(db: Queryable, where: string, params: SqlValue[], order: ZapOrder, limit: number, offset: number): Promise<Zap[]> {
  const rows = await db.all<Record<string, string | number | null>>(
    `SELECT receipt_id, target_event_id, sender, receiver, amount_sats, created_at FROM zaps
     WHERE ${where} ORDER BY ${ORDER[order]} LIMIT ? OFFSET ?`,
    [...params, limit, offset],
  );
  return rows.map((r) => ({
    receipt_id: String(r.receipt_id),
    target_event_id: r.target_event_id === null ? null : String(r.target_event_id),
    sender: String(r.sender),
    receiver: String(r.receiver),
    amount_sats: Number(r.amount_sats),
    created_at: Number(r.created_at),
  }));
}

/** Adds `AND col >= since AND col <= until` for whichever bounds were given. */
function bounded(col: string, since: number | undefined, until: number | undefined, params: SqlValue[]): string {
  let sql = '';
  if (since !== undefined) {
    sql += ` AND ${col} >= ?`;
    params.push(since);
  }
  if (until !== undefined) {
    sql += ` AND ${col} <= ?`;
    params.push(until);
  }
  return sql;
}

export interface ZapBundleOptions {
  viewer?: string;
  orderBy: ZapOrder;
  out?: Output;
  noRange?: boolean;
}

/**
 * S §2.3: per zap the receipt, the zapped event and a 10000129; then the senders' and receivers'
 * kind 0s, USER_SCORES and a RANGE over receipt ids. A zap is left out when the viewer or the
 * receiver muted its sender. Returns the zaps that were kept, for callers that add more.
 */
export async function zapBundle(db: Queryable, zaps: Zap[], opts: ZapBundleOptions): Promise<{ out: Output; kept: Zap[] }> {
  const out = opts.out ?? new Output();
  const hidden = await hiddenFor(db, opts.viewer, 'content');
  const muteLists = await replaceableOf(db, 10000, zaps.map((z) => z.receiver));
  const mutedBy = (receiver: string, sender: string) =>
    muteLists.get(receiver)?.tags.some((t) => t[0] === 'p' && t[1] === sender) ?? false;
  const kept = zaps.filter((z) => !hidden.pubkeys.has(z.sender) && !mutedBy(z.receiver, z.sender));

  const receipts = await eventsByIds(db, kept.map((z) => z.receipt_id));
  const targets = await eventsByIds(db, kept.flatMap((z) => (z.target_event_id ? [z.target_event_id] : [])));
  for (const z of kept) {
    const receipt = receipts.get(z.receipt_id);
    if (receipt) out.push(receipt as unknown as CacheObject);
    const target = z.target_event_id ? targets.get(z.target_event_id) : undefined;
    if (target) out.push(target as unknown as CacheObject);
    out.push(zapInfo(z));
  }
  const people = [...new Set(kept.flatMap((z) => [z.sender, z.receiver]))];
  const profiles = await profilesOf(db, people);
  const counts = await followerCounts(db, profiles.keys());
  const scores: Record<string, number> = {};
  for (const pk of people) {
    const prof = profiles.get(pk);
    if (!prof) continue;
    out.push(prof as unknown as CacheObject);
    scores[pk] = counts.get(pk) ?? 0;
  }
  out.push(synthetic(CacheKind.USER_SCORES, scores));
  if (!opts.noRange) {
    const items: FeedItem[] = kept.map((z) => ({ id: z.receipt_id, key: opts.orderBy === 'amount_sats' ? z.amount_sats : z.created_at }));
    out.push(range(opts.orderBy, items));
  }
  return { out, kept };
}

async function zapList(db: Queryable, zaps: Zap[], args: Args, orderBy: ZapOrder): Promise<CacheObject[]> {
  return (await zapBundle(db, zaps, { viewer: args.optHex('user_pubkey'), orderBy })).out.objects;
}

/** Zaps on one note or article, biggest first; since/until bound the amount (S §3.2). */
const eventZapsBySatszapped: Command = async (args, { ctx }) => {
  const since = args.optBound('since');
  const until = args.optBound('until');
  const limit = args.limit(20, 100);
  const offset = args.offset();
  const target = await targetOf(ctx.db, args, args.int('kind', 30023));
  if (!target) return [range('amount_sats', [])];
  const params: SqlValue[] = [target];
  const where = 'target_event_id = ?' + bounded('amount_sats', since, until, params);
  return zapList(ctx.db, await zapRows(ctx.db, where, params, 'amount_sats', limit, offset), args, 'amount_sats');
};

/** Zaps sent and/or received by one account, newest first; since/until bound the time. */
const userZaps: Command = async (args, { ctx }) => {
  const sender = args.optHex('sender');
  const receiver = args.optHex('receiver');
  if (!sender && !receiver) throw new CommandError('missing sender or receiver');
  const params: SqlValue[] = [];
  const parts: string[] = [];
  if (sender) {
    parts.push('sender = ?');
    params.push(sender);
  }
  if (receiver) {
    parts.push('receiver = ?');
    params.push(receiver);
  }
  const where = parts.join(' AND ') + bounded('created_at', args.optBound('since'), args.optBound('until'), params);
  return zapList(ctx.db, await zapRows(ctx.db, where, params, 'created_at', args.limit(20, 50), args.offset()), args, 'created_at');
};

const userZapsSent: Command = async (args, { ctx }) => {
  const params: SqlValue[] = [args.hex('sender')];
  const where = 'sender = ?' + bounded('created_at', args.optBound('since'), args.optBound('until'), params);
  return zapList(ctx.db, await zapRows(ctx.db, where, params, 'created_at', args.limit(20, 50), args.offset()), args, 'created_at');
};

const userZapsBySatszapped: Command = async (args, { ctx }) => {
  const params: SqlValue[] = [args.hex('receiver')];
  const where = 'receiver = ?' + bounded('amount_sats', args.optBound('since'), args.optBound('until'), params);
  return zapList(ctx.db, await zapRows(ctx.db, where, params, 'amount_sats', args.limit(20, 50), args.offset()), args, 'amount_sats');
};

/** Zaps any of the pubkeys sent or received, newest first; two indexed queries merged. */
const zapsFeed: Command = async (args, { ctx }) => {
  const pubkeys = args.hexList('pubkeys', 100);
  const limit = args.limit(50, 50);
  const offset = args.offset();
  const since = args.optBound('since');
  const until = args.optBound('until');
  if (!pubkeys.length) return [range('created_at', [])];
  const side = async (col: string) => {
    const params: SqlValue[] = [...pubkeys];
    const where = `${col} IN (${sqlMarks(pubkeys.length)})` + bounded('created_at', since, until, params);
    return zapRows(ctx.db, where, params, 'created_at', limit + offset, 0);
  };
  const merged = new Map<string, Zap>();
  for (const z of [...(await side('sender')), ...(await side('receiver'))]) merged.set(z.receipt_id, z);
  const page = [...merged.values()]
    .sort((a, b) => b.created_at - a.created_at || (a.receipt_id < b.receipt_id ? -1 : 1))
    .slice(offset, offset + limit);
  return zapList(ctx.db, page, args, 'created_at');
};

/**
 * The biggest zaps on notes and articles since `created_after` (default the last 24 h); since/until
 * bound the amount. The zap bundle comes first, then the zapped posts' bundle, with one RANGE at the end.
 */
export const exploreZaps: Command = async (args, { ctx }) => {
  const viewer = args.optHex('user_pubkey');
  const params: SqlValue[] = [args.optBound('created_after') ?? ctx.now() - DAY];
  const where = 'target_event_id IS NOT NULL AND created_at >= ?' + bounded('amount_sats', args.optBound('since'), args.optBound('until'), params);
  const zaps = await zapRows(ctx.db, where, params, 'amount_sats', args.limit(20, 50), args.offset());
  const { out, kept } = await zapBundle(ctx.db, zaps, { viewer, orderBy: 'amount_sats', noRange: true });
  const posts: FeedItem[] = kept.map((z) => ({ id: z.target_event_id!, key: z.amount_sats }));
  await enrich(ctx.db, posts, { viewer, orderBy: 'amount_sats', out, noRange: true });
  out.push(range('amount_sats', kept.map((z) => ({ id: z.receipt_id, key: z.amount_sats }))));
  return out.objects;
};

export const zapCommands: [string, Command][] = [
  ['event_zaps_by_satszapped', eventZapsBySatszapped],
  ['user_zaps', userZaps],
  ['user_zaps_sent', userZapsSent],
  ['user_zaps_by_satszapped', userZapsBySatszapped],
  ['zaps_feed', zapsFeed],
  ['explore_zaps', exploreZaps],
];
