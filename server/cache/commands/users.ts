/** Profile commands (S §2.3, §3.3). */
import type { Queryable } from '../../store/db.ts';
import { isHex64, type Args } from '../args.ts';
import { followerCounts, hiddenFor, mediaServerListsOf, profilesOf, replaceableOf, type CacheObject } from '../data.ts';
import { synthetic } from '../enrich.ts';
import { hotCaches } from '../hot-cache.ts';
import type { Command } from '../registry.ts';
import { followerIncreases } from './follower-gains.ts';
import { CacheKind } from '../../../core/kinds.ts';

/** S §3.3: follows_count is capped like Primal's. */
const MAX_FOLLOWS_COUNT = 5000;

/** Kind 0s in request order, then USER_SCORES and USER_FOLLOWER_COUNTS for them. */
export async function userInfos(db: Queryable, pubkeys: string[]): Promise<CacheObject[]> {
  const profiles = await profilesOf(db, pubkeys);
  const counts = await followerCounts(db, pubkeys);
  const out: CacheObject[] = [];
  const scores: Record<string, number> = {};
  for (const pk of pubkeys) {
    const prof = profiles.get(pk);
    if (!prof) continue;
    out.push(prof as unknown as CacheObject);
    scores[pk] = counts.get(pk) ?? 0;
  }
  out.push(synthetic(CacheKind.USER_SCORES, scores), synthetic(CacheKind.FOLLOWER_COUNTS, scores));
  for (const list of await mediaServerListsOf(db, Object.keys(scores))) out.push(list as unknown as CacheObject);
  return out;
}

const num = (v: unknown) => Number(v ?? 0);

/**
 * The counts that change only when `pubkey` publishes (a note, an article, a deletion, its contact
 * or relay list): cached per author (server/cache/hot-cache.ts), since a busy author's post counts
 * read every one of their posts. Followers and zaps come from other people's events: followers have
 * their own cache (data.ts followerCounts), zaps are counted on every request (an index range).
 */
async function ownStats(db: Queryable, pubkey: string): Promise<Record<string, unknown>> {
  const [contacts, relays] = await Promise.all([
    replaceableOf(db, 3, [pubkey]).then((m) => m.get(pubkey)),
    replaceableOf(db, 10002, [pubkey]).then((m) => m.get(pubkey)),
  ]);
  const followed = new Set<string>();
  for (const t of contacts?.tags ?? []) if (t[0] === 'p' && isHex64(t[1])) followed.add(t[1].toLowerCase());
  const relayUrls = new Set<string>();
  for (const t of relays?.tags ?? []) if (t[0] === 'r' && typeof t[1] === 'string' && t[1]) relayUrls.add(t[1].replace(/\/+$/, ''));

  // One pass over the author's posts gives every count; reposts and articles are counted apart from notes.
  const posts = await db.get<Record<string, unknown>>(
    `SELECT
       SUM(CASE WHEN kind NOT IN (6, 16, 30023) AND is_reply = 0 THEN 1 ELSE 0 END) AS note_count,
       SUM(CASE WHEN kind NOT IN (6, 16, 30023) AND is_reply <> 0 THEN 1 ELSE 0 END) AS reply_count,
       SUM(CASE WHEN has_media <> 0 THEN 1 ELSE 0 END) AS media_count,
       MIN(created_at) AS time_joined
     FROM posts WHERE pubkey = ?`,
    [pubkey],
  );
  const articles = await db.get<{ n: unknown }>(
    `SELECT COUNT(*) AS n FROM replaceable WHERE pubkey = ? AND kind = 30023`,
    [pubkey],
  );
  return {
    follows_count: Math.min(followed.size, MAX_FOLLOWS_COUNT),
    note_count: num(posts?.note_count),
    long_form_note_count: num(articles?.n),
    reply_count: num(posts?.reply_count),
    time_joined: posts?.time_joined == null ? null : num(posts.time_joined),
    relay_count: relayUrls.size,
    media_count: num(posts?.media_count),
  };
}

async function profileStats(db: Queryable, pubkey: string): Promise<Record<string, unknown>> {
  const cache = hotCaches(db)?.authorStats;
  const own = cache ? await cache.get(pubkey, () => ownStats(db, pubkey)) : await ownStats(db, pubkey);
  const followers = (await followerCounts(db, [pubkey])).get(pubkey) ?? 0;
  const zaps = await db.get<Record<string, unknown>>(
    `SELECT COUNT(*) AS n, SUM(amount_sats) AS sats,
       SUM(CASE WHEN target_event_id IS NOT NULL THEN 1 ELSE 0 END) AS content_n
     FROM zaps WHERE receiver = ?`,
    [pubkey],
  );
  // The keys in the order clients have always received them.
  return {
    pubkey,
    follows_count: own.follows_count,
    followers_count: followers,
    note_count: own.note_count,
    long_form_note_count: own.long_form_note_count,
    reply_count: own.reply_count,
    time_joined: own.time_joined,
    relay_count: own.relay_count,
    total_zap_count: num(zaps?.n),
    total_satszapped: num(zaps?.sats),
    media_count: own.media_count,
    content_zap_count: num(zaps?.content_n),
  };
}

const userProfile: Command = async (args: Args, { ctx }) => {
  const pubkey = args.hex('pubkey');
  const viewer = args.optHex('user_pubkey');
  const out: CacheObject[] = [];
  const prof = (await profilesOf(ctx.db, [pubkey])).get(pubkey);
  if (prof) out.push(prof as unknown as CacheObject);
  const increase = (await followerIncreases(ctx.db, ctx.now(), [pubkey])).get(pubkey);
  out.push(synthetic(CacheKind.USER_PROFILE, { ...(await profileStats(ctx.db, pubkey)), followers_increase: increase }));
  const hidden = await hiddenFor(ctx.db, viewer);
  if (hidden.pubkeys.has(pubkey)) out.push(synthetic(CacheKind.FILTERING_REASON, { action: 'block', pubkey: viewer }));
  return out;
};

export const userCommands: [string, Command][] = [
  ['user_infos', async (args, { ctx }) => userInfos(ctx.db, args.hexList('pubkeys'))],
  ['user_profile', userProfile],
];
