/**
 * Profile side panels and follower lists (S §3.3): an author's best notes and media, who of
 * the viewer's follows follows them, and their followers with mutual ones first.
 */
import type { Queryable } from '../../store/db.ts';
import type { Args } from '../args.ts';
import { followerCounts } from '../data.ts';
import { enrich } from '../enrich.ts';
import type { Command } from '../registry.ts';
import { userInfos } from './users.ts';
import { CacheKind } from '../../../core/kinds.ts';

/** Followers looked at when ordering a follower list by popularity; beyond this the list is cut. */
const MAX_FOLLOWER_CANDIDATES = 2000;

/** The author's top-level notes by a score column, best first. */
async function authorTop(db: Queryable, pubkey: string, field: 'score' | 'score24h', mediaOnly: boolean, limit: number) {
  const rows = await db.all<{ id: string; k: number | string }>(
    `SELECT p.event_id AS id, s.${field} AS k FROM posts p JOIN event_stats s ON s.event_id = p.event_id
     WHERE p.pubkey = ? AND p.kind = 1 AND p.is_reply = 0${mediaOnly ? ' AND p.has_media <> 0' : ''}
     ORDER BY s.${field} DESC, p.created_at DESC, p.event_id ASC LIMIT ?`,
    [pubkey, limit],
  );
  return rows.map((r) => ({ id: r.id, key: Number(r.k) }));
}

/**
 * S §3.3: the bundle cut down to the author's own kind-1 notes and kind 0 (plus, for the media
 * panel, the media metadata its thumbnails need).
 */
function scoredContent(field: 'score' | 'score24h', mediaOnly: boolean): Command {
  return async (args: Args, { ctx }) => {
    const pubkey = args.hex('pubkey');
    const limit = args.limit(5, 100);
    const items = await authorTop(ctx.db, pubkey, field, mediaOnly, limit);
    if (!items.length) return [];
    const bundle = await enrich(ctx.db, items, { viewer: args.optHex('user_pubkey'), orderBy: field, noRange: true });
    return bundle.objects.filter(
      (o) => ((o.kind === 1 || o.kind === 0) && o.pubkey === pubkey) || (mediaOnly && o.kind === CacheKind.MEDIA_METADATA),
    );
  };
}

async function byFollowers(db: Queryable, pubkeys: string[]): Promise<string[]> {
  const counts = await followerCounts(db, pubkeys);
  return [...pubkeys].sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || (a < b ? -1 : 1));
}

/** People the viewer follows who follow `pubkey`, most-followed first. */
const followedBy: Command = async (args, { ctx }) => {
  const pubkey = args.hex('pubkey');
  const viewer = args.optHex('user_pubkey');
  const limit = args.limit(20, 20);
  if (!viewer) return [];
  const rows = await ctx.db.all<{ pk: string }>(
    `SELECT f1.follows AS pk FROM follows f1 JOIN follows f2 ON f2.pubkey = f1.follows AND f2.follows = ? WHERE f1.pubkey = ?`,
    [pubkey, viewer],
  );
  const ranked = (await byFollowers(ctx.db, rows.map((r) => r.pk))).slice(0, limit);
  return ranked.length ? userInfos(ctx.db, ranked) : [];
};

/** Followers of `pubkey`: those it follows back first, then the rest, each part by follower count. */
const userFollowers: Command = async (args, { ctx }) => {
  const pubkey = args.hex('pubkey');
  const limit = args.limit(200, 1000);
  const mutual = await ctx.db.all<{ pk: string }>(
    `SELECT f.pubkey AS pk FROM follows f WHERE f.follows = ? AND f.pubkey IN (SELECT follows FROM follows WHERE pubkey = ?) LIMIT ?`,
    [pubkey, pubkey, MAX_FOLLOWER_CANDIDATES],
  );
  const mutualSet = new Set(mutual.map((r) => r.pk));
  const others = await ctx.db.all<{ pk: string }>(`SELECT pubkey AS pk FROM follows WHERE follows = ? LIMIT ?`, [
    pubkey,
    MAX_FOLLOWER_CANDIDATES,
  ]);
  const rest = others.map((r) => r.pk).filter((pk) => !mutualSet.has(pk));
  const ordered = [...(await byFollowers(ctx.db, [...mutualSet])), ...(await byFollowers(ctx.db, rest))].slice(0, limit);
  return userInfos(ctx.db, ordered);
};

/** Accounts `pubkey` follows that follow it back, by follower count (user_infos). */
const mutualFollows: Command = async (args, { ctx }) => {
  const pubkey = args.hex('pubkey');
  const limit = args.limit(200, 1000);
  const rows = await ctx.db.all<{ pk: string }>(
    `SELECT f.follows AS pk FROM follows f JOIN follows b ON b.pubkey = f.follows AND b.follows = f.pubkey WHERE f.pubkey = ? LIMIT ?`,
    [pubkey, MAX_FOLLOWER_CANDIDATES],
  );
  return userInfos(ctx.db, (await byFollowers(ctx.db, rows.map((r) => r.pk))).slice(0, limit));
};

export const profileCommands: [string, Command][] = [
  ['user_profile_scored_content', scoredContent('score', false)],
  ['user_profile_scored_media_thumbnails', scoredContent('score24h', true)],
  ['user_profile_followed_by', followedBy],
  ['user_followers', userFollowers],
  ['mutual_follows', mutualFollows],
];
