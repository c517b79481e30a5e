/**
 * The feeds catalogue and onboarding data (S §3.3, §3.9). Primal serves these from config
 * files; we derive them from the store, so a fresh network shows its own writers and topics.
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { nip19 } from 'nostr-tools';
import type { NostrEvent } from '../../context.ts';
import type { Queryable } from '../../store/db.ts';
import { eventsByIds, profileDisplayName, profilesOf, statsByIds } from '../data.ts';
import { ADVANCED_FEEDS } from '../defaults.ts';
import { synthetic } from '../enrich.ts';
import type { Command } from '../registry.ts';
import { dvmCommands } from './dvm.ts';
import { defaultRelays, reachableHostPort } from './settings.ts';
import { userInfos } from './users.ts';
import { CacheKind } from '../../../core/kinds.ts';

/** The newest articles considered; older ones do not make a catalogue and the scan stays bounded. */
const ARTICLE_WINDOW = 2000;
const TOPICS = 30;
const FEATURED_AUTHORS = 12;
const RECOMMENDED_READS = 3;
const READ_CANDIDATES = 30;
const GROUP_SIZE = 12;
const DAY = 86_400;
const WEEK = 7 * DAY;
/** Recent posters checked for being new; the check is one indexed query per batch. */
const NEWCOMER_CANDIDATES = 500;
/** Group queries scan the follow graph; onboarding can wait a few minutes for fresh numbers. */
const GROUP_TTL = 300;

/** Current versions of the newest articles. */
export async function recentArticles(db: Queryable, limit = ARTICLE_WINDOW): Promise<NostrEvent[]> {
  const rows = await db.all<{ id: string }>(
    `SELECT e.id FROM events e
     WHERE e.kind = 30023 AND EXISTS (SELECT 1 FROM replaceable r WHERE r.event_id = e.id)
     ORDER BY e.created_at DESC, e.id LIMIT ?`,
    [limit],
  );
  const found = await eventsByIds(db, rows.map((r) => r.id));
  return rows.map((r) => found.get(r.id)).filter((e): e is NostrEvent => e !== undefined);
}

const tagValue = (ev: NostrEvent, name: string) => ev.tags.find((t) => t[0] === name && typeof t[1] === 'string')?.[1] ?? '';


const readsTopics: Command = async (_args, { ctx }) => {
  const counts = new Map<string, number>();
  for (const ev of await recentArticles(ctx.db)) {
    const seen = new Set<string>();
    for (const t of ev.tags) {
      if (t[0] !== 't' || typeof t[1] !== 'string') continue;
      const topic = t[1].replace(/^#/, '').trim().toLowerCase();
      if (!topic || topic.length > 64 || seen.has(topic)) continue;
      seen.add(topic);
      counts.set(topic, (counts.get(topic) ?? 0) + 1);
    }
  }
  const topics = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, TOPICS).map(([t]) => t);
  return [synthetic(CacheKind.READS_TOPICS, topics)];
};

/** Authors ranked by the sats, then likes, their articles received. */
const featuredAuthors: Command = async (_args, { ctx }) => {
  const articles = await recentArticles(ctx.db);
  const stats = await statsByIds(ctx.db, articles.map((a) => a.id));
  const totals = new Map<string, { sats: number; likes: number; latest: number }>();
  for (const a of articles) {
    const s = stats.get(a.id);
    const t = totals.get(a.pubkey) ?? { sats: 0, likes: 0, latest: 0 };
    t.sats += s?.satszapped ?? 0;
    t.likes += s?.likes ?? 0;
    t.latest = Math.max(t.latest, a.created_at);
    totals.set(a.pubkey, t);
  }
  const authors = [...totals]
    .sort((a, b) => b[1].sats - a[1].sats || b[1].likes - a[1].likes || b[1].latest - a[1].latest || (a[0] < b[0] ? -1 : 1))
    .slice(0, FEATURED_AUTHORS)
    .map(([pk]) => pk);
  return [synthetic(CacheKind.FEATURED_AUTHORS, authors), ...(await userInfos(ctx.db, authors))];
};

const dayHash = (day: number, id: string) => createHash('sha256').update(`${day}:${id}`).digest('hex');

/** Three of the best recent articles, the same all day, different the next. */
const recommendedReads: Command = async (_args, { ctx }) => {
  const articles = await recentArticles(ctx.db);
  const stats = await statsByIds(ctx.db, articles.map((a) => a.id));
  const worth = (a: NostrEvent) => (stats.get(a.id)?.score ?? 0) + (stats.get(a.id)?.likes ?? 0);
  const best = [...articles].sort((a, b) => worth(b) - worth(a) || b.created_at - a.created_at).slice(0, READ_CANDIDATES);
  const day = Math.floor(ctx.now() / DAY);
  const picks = best
    .map((a) => ({ a, h: dayHash(day, a.id) }))
    .sort((x, y) => (x.h < y.h ? -1 : 1))
    .slice(0, RECOMMENDED_READS)
    .map(({ a }) => [nip19.naddrEncode({ kind: a.kind, pubkey: a.pubkey, identifier: tagValue(a, 'd') }), tagValue(a, 'title')]);
  return [synthetic(CacheKind.RECOMMENDED_READS, { reads: picks })];
};

interface Group {
  group: string;
  pubkeys: string[];
}

const groupCache = new WeakMap<object, { at: number; groups: Group[] }>();

async function mostFollowed(db: Queryable, limit: number): Promise<string[]> {
  const rows = await db.all<{ pk: string }>(
    'SELECT follows AS pk FROM follows GROUP BY follows ORDER BY COUNT(*) DESC, follows LIMIT ?',
    [limit],
  );
  return rows.map((r) => r.pk);
}

/** Three groups from the store: most followed, most active writers this week, newcomers this week. */
async function suggestedGroups(db: Queryable, now: number): Promise<Group[]> {
  const cached = groupCache.get(db);
  if (cached && now - cached.at < GROUP_TTL && now >= cached.at) return cached.groups;
  const weekAgo = now - WEEK;
  const active = await db.all<{ pubkey: string }>(
    `SELECT pubkey FROM posts WHERE created_at >= ? AND kind <> 6
     GROUP BY pubkey ORDER BY COUNT(*) DESC, pubkey LIMIT ?`,
    [weekAgo, GROUP_SIZE * 2],
  );
  const recent = await db.all<{ pubkey: string }>(
    `SELECT pubkey FROM posts WHERE created_at >= ? GROUP BY pubkey ORDER BY MAX(created_at) DESC, pubkey LIMIT ?`,
    [weekAgo, NEWCOMER_CANDIDATES],
  );
  let newcomers: string[] = [];
  if (recent.length) {
    const marks = recent.map(() => '?').join(',');
    const firsts = await db.all<{ pubkey: string; first: number | string }>(
      `SELECT pubkey, MIN(created_at) AS first FROM posts WHERE pubkey IN (${marks}) GROUP BY pubkey`,
      recent.map((r) => r.pubkey),
    );
    newcomers = firsts
      .filter((r) => Number(r.first) >= weekAgo)
      .sort((a, b) => Number(b.first) - Number(a.first) || (a.pubkey < b.pubkey ? -1 : 1))
      .map((r) => r.pubkey)
      .slice(0, GROUP_SIZE * 2);
  }
  const groups: Group[] = [
    { group: 'Legtöbben követik', pubkeys: await mostFollowed(db, GROUP_SIZE * 2) },
    { group: 'A hét legaktívabb szerzői', pubkeys: active.map((r) => r.pubkey) },
    { group: 'Újonnan érkeztek', pubkeys: newcomers },
  ];
  groupCache.set(db, { at: now, groups });
  return groups;
}

const suggestedUsers: Command = async (_args, { ctx }) => {
  const groups = await suggestedGroups(ctx.db, ctx.now());
  const profiles = await profilesOf(ctx.db, groups.flatMap((g) => g.pubkeys));
  const shown = new Set<string>();
  const content = groups
    .map((g) => ({
      group: g.group,
      // People without a profile cannot be recognised in an onboarding list.
      members: g.pubkeys
        .filter((pk) => profiles.has(pk))
        .slice(0, GROUP_SIZE)
        .map((pubkey) => {
          shown.add(pubkey);
          return { pubkey, name: profileDisplayName(profiles.get(pubkey)) };
        }),
    }))
    .filter((g) => g.members.length > 0);
  const infos = await userInfos(ctx.db, [...shown]);
  return [synthetic(CacheKind.SUGGESTED_USERS, content), ...infos.filter((o) => o.kind !== CacheKind.FOLLOWER_COUNTS)];
};

const recommendedUsers: Command = async (_args, { ctx }) => {
  const groups = await suggestedGroups(ctx.db, ctx.now());
  return userInfos(ctx.db, groups[0].pubkeys.slice(0, GROUP_SIZE));
};

export const catalogueCommands: [string, Command][] = [
  ['get_reads_topics', readsTopics],
  ['get_featured_authors', featuredAuthors],
  ['get_recommended_reads', recommendedReads],
  ['get_advanced_feeds', async () => [synthetic(CacheKind.ADVANCED_FEEDS, ADVANCED_FEEDS)]],
  ['get_suggested_users', suggestedUsers],
  ['get_recommended_users', recommendedUsers],
  [
    'get_recommended_blossom_servers',
    async (_args, env) => {
      const self = reachableHostPort(env);
      return [synthetic(CacheKind.BLOSSOM_SERVERS, self ? [`http://${self}`] : [])];
    },
  ],
  [
    'client_config',
    async (_args, env) => {
      const self = reachableHostPort(env);
      return [
        synthetic(CacheKind.CLIENT_CONFIG, {
          cache_server: self ? `ws://${self}/v1` : '',
          upload_server: self ? `ws://${self}/upload` : '',
          blossom_servers: self ? [`http://${self}`] : [],
          default_relays: defaultRelays(env),
        }),
      ];
    },
  ],
  ['server_name', async () => [{ server: 'strucc', node: hostname() }]],
  ...dvmCommands,
];
