/**
 * Store-wide lookups of S §2.1 / §3.10: `nip19_decode`, `relays`, `nostr_stats`,
 * `trusted_users` and `user_of_ln_address`. The aggregate ones scan whole tables, so their
 * answers are shared by every client for a few seconds instead of being recomputed per request.
 */
import { nip19 } from 'nostr-tools';
import type { Queryable } from '../../store/db.ts';
import { MAX_LN_CHARS } from '../../ingest/index-search.ts';
import { CommandError, type Args } from '../args.ts';
import { followerCounts, type CacheObject } from '../data.ts';
import { synthetic } from '../enrich.ts';
import { netStats } from '../netstats.ts';
import type { Command } from '../registry.ts';
import { userInfos } from './users.ts';
import { CacheKind } from '../../../core/kinds.ts';

const MAX_IDS = 100;
/** nostr-tools refuses longer bech32 strings anyway; the check keeps the error message ours. */
const MAX_ID_CHARS = 5000;
/** The ranked lists are computed once at this size and sliced per request. */
const MAX_RANKED = 1000;
const SHARED_TTL_MS = 10_000;
/** Profiles sharing one address; more is not one person's address. */
const MAX_LN_CANDIDATES = 200;

interface Shared {
  at: number;
  value: Promise<unknown>;
}
const shared = new WeakMap<Queryable, Map<string, Shared>>();

/** One computation per database and key for SHARED_TTL_MS; a failed one is forgotten at once. */
function sharedValue<T>(db: Queryable, key: string, compute: () => Promise<T>): Promise<T> {
  let byKey = shared.get(db);
  if (!byKey) shared.set(db, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit && Date.now() - hit.at < SHARED_TTL_MS) return hit.value as Promise<T>;
  const value = compute();
  const entry: Shared = { at: Date.now(), value };
  byKey.set(key, entry);
  value.catch(() => {
    if (byKey.get(key) === entry) byKey.delete(key);
  });
  return value;
}

type Decoded = { type: string; data: unknown } | { error: string };

function decodeOne(raw: string): Decoded {
  const id = raw.trim().replace(/^nostr:/i, '');
  if (id.length > MAX_ID_CHARS) return { error: 'too long' };
  // A secret key has no business in a server's answer or logs, so it is never echoed back decoded.
  if (id.toLowerCase().startsWith('nsec1')) return { error: 'private keys are not decoded' };
  try {
    const decoded = nip19.decode(id);
    return { type: decoded.type, data: decoded.data };
  } catch (err) {
    return { error: `invalid nip19 id: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** 10000173 `{"<id as sent>": {type, data} | {error}}`: bad ids are answered per id, not refused. */
const nip19Decode: Command = async (args) => {
  const ids = args.raw.ids;
  if (ids === undefined || ids === null) throw new CommandError('missing ids');
  if (!Array.isArray(ids) || !ids.every((i) => typeof i === 'string')) throw new CommandError('invalid ids: expected an array of strings');
  if (ids.length > MAX_IDS) throw new CommandError(`too many ids (at most ${MAX_IDS})`);
  const out: Record<string, Decoded> = {};
  for (const id of ids as string[]) out[id] = decodeOne(id);
  return [synthetic(CacheKind.NIP19_DECODE, out)];
};

/** Relay URLs by how many current kind-10002 lists name them (event_tags holds only current versions). */
async function relayCounts(db: Queryable): Promise<[string, number][]> {
  const rows = await db.all<{ url: string; n: number | string }>(
    `SELECT value AS url, COUNT(*) AS n FROM event_tags WHERE name = 'r' AND kind = 10002
     GROUP BY value ORDER BY COUNT(*) DESC, value LIMIT ?`,
    [MAX_RANKED],
  );
  return rows.map((r) => [r.url, Number(r.n)]);
}

const relays: Command = async (args, { ctx }) => {
  const limit = args.limit(100, MAX_RANKED);
  const counts = await sharedValue(ctx.db, 'relays', () => relayCounts(ctx.db));
  return [synthetic(CacheKind.RELAYS, Object.fromEntries(counts.slice(0, limit)))];
};

/**
 * NOSTR_STATS (10000136): the NET_STATS counters (users with a profile, distinct pubkeys,
 * notes, reactions, reposts, all events, zaps, sats zapped) plus `articles` (current
 * long-form articles), `follows` (follow edges of current contact lists), `relays`
 * (distinct relay URLs in current kind-10002 lists), and `first_event_at` / `last_event_at`
 * (the oldest and newest created_at stored, null on an empty store).
 */
async function storeStats(db: Queryable): Promise<Record<string, number | null>> {
  const one = async (sql: string) => {
    const v = Object.values((await db.get<Record<string, unknown>>(sql)) ?? {})[0];
    return v === null || v === undefined ? null : Number(v);
  };
  const [articles, follows, relayUrls, first, last] = await Promise.all([
    one(`SELECT COUNT(*) AS n FROM articles`),
    one(`SELECT COUNT(*) AS n FROM follows`),
    one(`SELECT COUNT(DISTINCT value) AS n FROM event_tags WHERE name = 'r' AND kind = 10002`),
    one(`SELECT MIN(created_at) AS n FROM events`),
    one(`SELECT MAX(created_at) AS n FROM events`),
  ]);
  return { articles: articles ?? 0, follows: follows ?? 0, relays: relayUrls ?? 0, first_event_at: first, last_event_at: last };
}

const nostrStats: Command = async (_args, { ctx }) => {
  const net = JSON.parse(String((await netStats(ctx)).content)) as Record<string, unknown>;
  const extra = await sharedValue(ctx.db, 'nostr_stats', () => storeStats(ctx.db));
  return [synthetic(CacheKind.NOSTR_STATS, { ...net, ...extra })];
};

async function mostFollowed(db: Queryable): Promise<{ pk: string; n: number }[]> {
  const rows = await db.all<{ pk: string; n: number | string }>(
    `SELECT follows AS pk, COUNT(*) AS n FROM follows GROUP BY follows ORDER BY COUNT(*) DESC, follows LIMIT ?`,
    [MAX_RANKED],
  );
  return rows.map((r) => ({ pk: r.pk, n: Number(r.n) }));
}

/**
 * TRUSTED_USERS (10000140) `[{pk, tr}]`, then user_infos of those with a profile. Everyone is
 * trusted (S §8.9), so the rank is the follower count scaled to 0..1 by the most followed.
 */
const trustedUsers: Command = async (args, { ctx }) => {
  const limit = args.limit(500, MAX_RANKED);
  const ranked = (await sharedValue(ctx.db, 'trusted_users', () => mostFollowed(ctx.db))).slice(0, limit);
  const top = ranked[0]?.n ?? 0;
  const list = ranked.map((r) => ({ pk: r.pk, tr: top > 0 ? r.n / top : 0 }));
  const out: CacheObject[] = [synthetic(CacheKind.TRUSTED_USERS, list)];
  if (list.length) out.push(...(await userInfos(ctx.db, list.map((r) => r.pk))));
  return out;
};

function lnAddress(args: Args): string {
  const raw = args.optStr('ln_address');
  if (raw === undefined) throw new CommandError('missing ln_address');
  const addr = raw.trim().toLowerCase();
  if (addr.length > MAX_LN_CHARS || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(addr)) throw new CommandError('invalid ln_address: expected name@domain');
  return addr;
}

/**
 * Who has this lightning address as the lud16 of their current profile: user_search's index keeps
 * it lowercased in an indexed column (server/ingest/index-search.ts). Several matches go to the most followed.
 */
const userOfLnAddress: Command = async (args, { ctx }) => {
  const addr = lnAddress(args);
  const rows = await ctx.db.all<{ pubkey: string }>('SELECT pubkey FROM search_users WHERE lud16 = ? LIMIT ?', [addr, MAX_LN_CANDIDATES]);
  const matches = rows.map((r) => r.pubkey);
  if (!matches.length) return [];
  const followers = await followerCounts(ctx.db, matches);
  matches.sort((a, b) => (followers.get(b) ?? 0) - (followers.get(a) ?? 0) || (a < b ? -1 : 1));
  const pubkey = matches[0];
  return [synthetic(CacheKind.USER_PUBKEY, { pubkey }), ...(await userInfos(ctx.db, [pubkey]))];
};

export const miscCommands: [string, Command][] = [
  ['nip19_decode', nip19Decode],
  ['relays', relays],
  ['nostr_stats', nostrStats],
  ['trusted_users', trustedUsers],
  ['user_of_ln_address', userOfLnAddress],
];
