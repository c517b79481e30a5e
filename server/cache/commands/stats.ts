/**
 * Per-poll and per-author statistics (S §2.1, §3.10): `poll_votes` (NIP-88 polls),
 * `articles_stats` and `top_article`.
 */
import type { NostrEvent } from '../../context.ts';
import type { Queryable } from '../../store/db.ts';
import { CommandError } from '../args.ts';
import { eventsByIds, statsByIds, type StatsRow } from '../data.ts';
import { enrich, range, synthetic } from '../enrich.ts';
import type { Command } from '../registry.ts';
import { CacheKind } from '../../../core/kinds.ts';

const KIND_POLL = 1068;
const KIND_POLL_RESPONSE = 1018;
const KIND_ARTICLE = 30023;
const KIND_DRAFT = 31234;
/** The newest responses counted for one poll; an older vote beyond this is a flood, not a turnout. */
const MAX_RESPONSES = 5000;
/** Versions of an author's articles looked at by top_article (all addresses together). */
const MAX_VERSIONS = 5000;

interface PollOption {
  id: string;
  label: string;
  votes: number;
}

/**
 * One vote per pubkey: the latest response wins (lowest id on a tie, as for replaceable
 * events). A singlechoice poll counts the first `response` tag, a multiplechoice one every
 * distinct listed option; responses after `endsAt` and unknown option ids count for nothing.
 */
function countVotes(poll: NostrEvent, responses: NostrEvent[]): PollOption[] {
  const options: PollOption[] = [];
  const byId = new Map<string, PollOption>();
  for (const t of poll.tags) {
    if (t[0] !== 'option' || typeof t[1] !== 'string' || byId.has(t[1])) continue;
    const opt = { id: t[1], label: typeof t[2] === 'string' ? t[2] : '', votes: 0 };
    options.push(opt);
    byId.set(opt.id, opt);
  }
  const multiple = poll.tags.some((t) => t[0] === 'polltype' && t[1] === 'multiplechoice');
  const endsAt = Number(poll.tags.find((t) => t[0] === 'endsAt')?.[1]);
  const latest = new Map<string, NostrEvent>();
  for (const r of responses) {
    if (Number.isFinite(endsAt) && endsAt > 0 && r.created_at > endsAt) continue;
    const prev = latest.get(r.pubkey);
    if (!prev || r.created_at > prev.created_at || (r.created_at === prev.created_at && r.id < prev.id)) latest.set(r.pubkey, r);
  }
  for (const r of latest.values()) {
    const chosen = r.tags.filter((t) => t[0] === 'response' && typeof t[1] === 'string').map((t) => t[1]);
    for (const id of new Set(multiple ? chosen : chosen.slice(0, 1))) {
      const opt = byId.get(id);
      if (opt) opt.votes++;
    }
  }
  return options;
}

/** 10000179 `{"<poll id>": [{id, label, votes}, ...]}`, the options in the poll's order. */
const pollVotes: Command = async (args, { ctx }) => {
  const pollId = args.hex('event_id');
  const poll = (await eventsByIds(ctx.db, [pollId])).get(pollId);
  if (!poll) return [synthetic(CacheKind.POLL_STATS, { [pollId]: [] })];
  if (poll.kind !== KIND_POLL) throw new CommandError(`event is not a poll (kind ${KIND_POLL})`);
  const rows = await ctx.db.all<{ event_id: string }>(
    `SELECT event_id FROM event_tags WHERE name = 'e' AND value = ? AND kind = ? ORDER BY created_at DESC LIMIT ?`,
    [pollId, KIND_POLL_RESPONSE, MAX_RESPONSES],
  );
  const responses = [...(await eventsByIds(ctx.db, rows.map((r) => r.event_id))).values()].filter((e) => e.kind === KIND_POLL_RESPONSE);
  return [synthetic(CacheKind.POLL_STATS, { [pollId]: countVotes(poll, responses) })];
};

const num = (v: unknown) => Number(v ?? 0);

/**
 * 10000174 `{articles, drafts, satszapped}`: current articles, current NIP-37 drafts of
 * articles, and the sats zapped to any version of the author's articles.
 */
const articlesStats: Command = async (args, { ctx }) => {
  const pubkey = args.hex('pubkey');
  const [articles, drafts, zapped] = await Promise.all([
    ctx.db.get<{ n: unknown }>(`SELECT COUNT(*) AS n FROM articles WHERE pubkey = ?`, [pubkey]),
    ctx.db.get<{ n: unknown }>(
      `SELECT COUNT(*) AS n FROM replaceable r JOIN event_tags t ON t.event_id = r.event_id AND t.name = 'k' AND t.value = ?
       WHERE r.pubkey = ? AND r.kind = ?`,
      [String(KIND_ARTICLE), pubkey, KIND_DRAFT],
    ),
    ctx.db.get<{ n: unknown }>(
      `SELECT COALESCE(SUM(z.amount_sats), 0) AS n FROM zaps z JOIN events e ON e.id = z.target_event_id
       WHERE z.receiver = ? AND e.pubkey = ? AND e.kind = ?`,
      [pubkey, pubkey, KIND_ARTICLE],
    ),
  ]);
  return [synthetic(CacheKind.ARTICLES_STATS, { articles: num(articles?.n), drafts: num(drafts?.n), satszapped: num(zapped?.n) })];
};

const BY = ['satszapped', 'interactions'] as const;
type By = (typeof BY)[number];

const interactions = (s: StatsRow) => s.likes + s.replies + s.reposts + s.zaps;

/** Each current article's total over its current and superseded versions (replaced_versions), so an edit keeps the zaps and likes of before. */
async function articleTotals(db: Queryable, pubkey: string, by: By): Promise<{ id: string; key: number; published: number }[]> {
  const current = await db.all<{ d: string; event_id: string; published_at: number | string }>(
    `SELECT d, event_id, published_at FROM articles WHERE pubkey = ?`,
    [pubkey],
  );
  if (!current.length) return [];
  const versions = await db.all<{ event_id: string; d: string }>(
    `SELECT event_id, d FROM replaced_versions WHERE pubkey = ? AND kind = ? ORDER BY created_at DESC LIMIT ?`,
    [pubkey, KIND_ARTICLE, MAX_VERSIONS],
  );
  const dById = new Map<string, string>();
  for (const v of versions) dById.set(v.event_id, v.d);
  for (const c of current) dById.set(c.event_id, c.d);
  const stats = await statsByIds(db, dById.keys());
  const totals = new Map<string, number>();
  for (const [id, d] of dById) {
    const s = stats.get(id);
    if (s) totals.set(d, (totals.get(d) ?? 0) + (by === 'satszapped' ? s.satszapped : interactions(s)));
  }
  return current.map((c) => ({ id: c.event_id, key: totals.get(c.d) ?? 0, published: Number(c.published_at) }));
}

/** The author's best current article by `by`, newest first among equals, with the post bundle. */
const topArticle: Command = async (args, { ctx }) => {
  const pubkey = args.hex('pubkey');
  const by = args.str('by', 'satszapped');
  if (!(BY as readonly string[]).includes(by)) throw new CommandError('invalid by: expected satszapped or interactions');
  const totals = await articleTotals(ctx.db, pubkey, by as By);
  if (!totals.length) return [range(by, [])];
  totals.sort((a, b) => b.key - a.key || b.published - a.published || (a.id < b.id ? -1 : 1));
  const best = totals[0];
  return (await enrich(ctx.db, [{ id: best.id, key: best.key }], { viewer: args.optHex('user_pubkey'), orderBy: by })).objects;
};

export const statsCommands: [string, Command][] = [
  ['poll_votes', pollVotes],
  ['articles_stats', articlesStats],
  ['top_article', topArticle],
];
