/**
 * Long-form reads (S §3.1): the reads feeds over the articles table (one row per address,
 * the newest version), the article thread view and drafts.
 */
import type { Queryable, SqlValue } from '../../store/db.ts';
import { topicKey } from '../../ingest/index-reads.ts';
import { Args, CommandError } from '../args.ts';
import { addressKey, eventsByAddress, eventsByIds, inChunks, type CacheObject } from '../data.ts';
import { enrich, Output, range, type FeedItem } from '../enrich.ts';
import { parseAddress } from '../refs.ts';
import type { Command, SpecFeed } from '../registry.ts';

const READS_NOTES = ['follows', 'authored', 'zappedbyfollows', 'all'] as const;
type ReadsNotes = (typeof READS_NOTES)[number];
/** A curation set longer than this is not a reading list. */
const MAX_CURATED = 1000;
/** Old versions of one article that a thread view looks for replies to. */
const MAX_VERSIONS = 200;

export interface ReadsQuery {
  pubkey?: string;
  notes: ReadsNotes;
  topic?: string;
  curation?: string;
  minwords: number;
  since?: number;
  until?: number;
  limit: number;
  offset: number;
}

const newestFirst = (q: { since?: number; until?: number }) => !(q.since !== undefined && q.until === undefined);

/** Articles in a kind-30004 curation set, sorted and paged here: the set bounds the work. */
async function curatedItems(db: Queryable, q: ReadsQuery): Promise<FeedItem[]> {
  const set = (await eventsByAddress(db, [{ kind: 30004, pubkey: q.pubkey!, d: q.curation! }])).get(`30004:${q.pubkey}:${q.curation}`);
  const wanted = new Set<string>();
  for (const t of set?.tags ?? []) {
    const a = t[0] === 'a' ? parseAddress(t[1]) : undefined;
    if (a && a.kind === 30023 && wanted.size < MAX_CURATED) wanted.add(`${a.pubkey}:${a.d}`);
  }
  const authors = [...new Set([...wanted].map((w) => w.slice(0, 64)))];
  const rows = await inChunks(authors, (chunk, marks) =>
    db.all<{ pubkey: string; d: string; id: string; k: number | string; words: number | string }>(
      `SELECT pubkey, d, event_id AS id, published_at AS k, words FROM articles WHERE pubkey IN (${marks})`,
      chunk,
    ),
  );
  const sign = newestFirst(q) ? -1 : 1;
  return rows
    .filter((r) => wanted.has(`${r.pubkey}:${r.d}`) && Number(r.words) >= q.minwords)
    .map((r) => ({ id: r.id, key: Number(r.k) }))
    .filter((it) => (q.until === undefined || it.key <= q.until) && (q.since === undefined || it.key >= q.since))
    .sort((a, b) => sign * (a.key - b.key) || (a.id < b.id ? sign : -sign))
    .slice(q.offset, q.offset + q.limit);
}

/** One row per address, newest version, ordered by published_at (S §3.1). */
export async function readsItems(db: Queryable, q: ReadsQuery): Promise<FeedItem[]> {
  if (q.curation !== undefined) return q.pubkey ? curatedItems(db, q) : [];
  const params: SqlValue[] = [];
  let join = '';
  if (q.topic) {
    join = 'JOIN article_topics t ON t.pubkey = a.pubkey AND t.d = a.d AND t.topic = ?';
    params.push(q.topic);
  }
  let where = 'a.words >= ?';
  params.push(q.minwords);
  if (q.pubkey && q.notes === 'follows') {
    where += ' AND a.pubkey IN (SELECT follows FROM follows WHERE pubkey = ?)';
    params.push(q.pubkey);
  } else if (q.pubkey && q.notes === 'authored') {
    where += ' AND a.pubkey = ?';
    params.push(q.pubkey);
  } else if (q.pubkey && q.notes === 'zappedbyfollows') {
    where += ` AND EXISTS (SELECT 1 FROM zaps z JOIN follows f ON f.follows = z.sender
                            WHERE z.target_event_id = a.event_id AND f.pubkey = ?)`;
    params.push(q.pubkey);
  }
  if (q.until !== undefined) {
    where += ' AND a.published_at <= ?';
    params.push(q.until);
  }
  if (q.since !== undefined) {
    where += ' AND a.published_at >= ?';
    params.push(q.since);
  }
  const dir = newestFirst(q) ? 'DESC' : 'ASC';
  const rows = await db.all<{ id: string; k: number | string }>(
    `SELECT a.event_id AS id, a.published_at AS k FROM articles a ${join} WHERE ${where}
     ORDER BY a.published_at ${dir}, a.event_id ${dir} LIMIT ? OFFSET ?`,
    [...params, q.limit, q.offset],
  );
  return rows.map((r) => ({ id: r.id, key: Number(r.k) }));
}

async function readsBundle(db: Queryable, q: ReadsQuery, viewer: string | undefined): Promise<CacheObject[]> {
  const items = await readsItems(db, q);
  if (!items.length) return [range('published_at', [])];
  const direction = newestFirst(q) ? 'desc' : 'asc';
  return (await enrich(db, items, { viewer, orderBy: 'published_at', direction })).objects;
}

function readQuery(args: Args, defaults: { notes: ReadsNotes; minwords: number }): ReadsQuery {
  const notes = args.str('notes', defaults.notes);
  if (!(READS_NOTES as readonly string[]).includes(notes)) throw new CommandError('unsupported type of notes');
  const topic = args.optStr('topic');
  const minwords = args.int('minwords', defaults.minwords);
  if (minwords < 0) throw new CommandError('invalid minwords: must not be negative');
  return {
    pubkey: args.optHex('pubkey'),
    notes: notes as ReadsNotes,
    topic: topic ? topicKey(topic) : undefined,
    curation: args.optStr('curation'),
    minwords,
    since: args.optBound('since'),
    until: args.optBound('until'),
    limit: args.limit(20, 999),
    offset: args.offset(),
  };
}

const longFormContentFeed: Command = async (args, { ctx }) =>
  readsBundle(ctx.db, readQuery(args, { notes: 'follows', minwords: 0 }), args.optHex('user_pubkey'));

/**
 * The reads specs of mega_feed_directive (S §3.1) with the outer request's paging: topic,
 * curation, zappedbyfollows and plain listings, i.e. no scope or zappedbyfollows (the scopes
 * that are advanced searches go to commands/search.ts; commands/feed-specs.ts decides).
 */
export const readsSpecFeed: SpecFeed = async (args, spec, env) => {
  const { id, kind: _kind, scope, ...rest } = spec;
  const viewer = args.optHex('user_pubkey');
  const merged = new Args({ ...args.raw, ...rest });
  // A profile's reads tab lists every article; curated feeds hide the very short ones (S §3.1 minwords 100).
  const minwords = id === 'feed' ? 0 : 100;
  if (scope === 'zappedbyfollows') {
    if (!viewer) return [range('published_at', [])];
    return readsBundle(env.ctx.db, { ...readQuery(merged, { notes: 'all', minwords }), pubkey: viewer, notes: 'zappedbyfollows' }, viewer);
  }
  const q = readQuery(merged, { notes: merged.has('pubkey') && !merged.has('curation') ? 'authored' : 'all', minwords });
  return readsBundle(env.ctx.db, q, viewer);
};

/** The ids an address had before its current version, so replies to an edited article's old ids still count. */
async function versionIds(db: Queryable, kind: number, pubkey: string, d: string): Promise<string[]> {
  const rows = await db.all<{ event_id: string }>(
    `SELECT event_id FROM replaced_versions WHERE pubkey = ? AND kind = ? AND d = ? ORDER BY created_at DESC LIMIT ${MAX_VERSIONS}`,
    [pubkey, kind, d],
  );
  return rows.map((r) => r.event_id);
}

/**
 * The article, then its replies newest first with RANGE(created_at). Replies point at any
 * version's id, or at the address itself when the article arrived after them.
 */
const longFormContentThreadView: Command = async (args, { ctx }) => {
  const pubkey = args.hex('pubkey');
  const kind = args.int('kind', 30023);
  if (kind < 30000 || kind >= 40000) throw new CommandError('invalid kind: expected an addressable kind');
  const identifier = args.optStr('identifier');
  if (identifier === undefined) throw new CommandError('missing identifier');
  const limit = args.limit(20, 1000);
  const offset = args.offset();
  const since = args.optBound('since');
  const until = args.optBound('until');
  const viewer = args.optHex('user_pubkey');
  const address = { kind, pubkey, d: identifier };
  const article = (await eventsByAddress(ctx.db, [address])).get(addressKey(address));
  if (!article) return [range('created_at', [])];

  const out = new Output();
  await enrich(ctx.db, [{ id: article.id, key: article.created_at }], { viewer, orderBy: 'created_at', out, noRange: true });
  const targets = [...new Set([...(await versionIds(ctx.db, kind, pubkey, identifier)), article.id, addressKey(address)])];
  const params: SqlValue[] = [];
  const side = (col: string) => {
    let sql = `SELECT event_id AS id, created_at AS k FROM posts WHERE kind = 1 AND ${col} IN (${targets.map(() => '?').join(',')})`;
    params.push(...targets);
    if (until !== undefined) {
      sql += ' AND created_at <= ?';
      params.push(until);
    }
    if (since !== undefined) {
      sql += ' AND created_at >= ?';
      params.push(since);
    }
    return sql;
  };
  const sql = `${side('parent_id')} UNION ${side('root_id')} ORDER BY k DESC, id DESC LIMIT ? OFFSET ?`;
  const rows = await ctx.db.all<{ id: string; k: number | string }>(sql, [...params, limit, offset]);
  await enrich(ctx.db, rows.map((r) => ({ id: r.id, key: Number(r.k) })), { viewer, orderBy: 'created_at', out });
  return out.objects;
};

/** The author's current NIP-37 drafts (kind 31234) of the given kind, newest first. */
const drafts: Command = async (args, { ctx }) => {
  const pubkey = args.hex('pubkey');
  const kind = args.int('kind', 30023);
  const params: SqlValue[] = [String(kind), pubkey];
  let where = `r.pubkey = ? AND r.kind = 31234`;
  const until = args.optBound('until');
  const since = args.optBound('since');
  if (until !== undefined) {
    where += ' AND r.created_at <= ?';
    params.push(until);
  }
  if (since !== undefined) {
    where += ' AND r.created_at >= ?';
    params.push(since);
  }
  const rows = await ctx.db.all<{ id: string; k: number | string }>(
    `SELECT r.event_id AS id, r.created_at AS k FROM replaceable r
     JOIN event_tags t ON t.event_id = r.event_id AND t.name = 'k' AND t.value = ?
     WHERE ${where} ORDER BY r.created_at DESC, r.event_id DESC LIMIT ? OFFSET ?`,
    [...params, args.limit(20, 1000), args.offset()],
  );
  const events = await eventsByIds(ctx.db, rows.map((r) => r.id));
  const items = rows.map((r) => ({ id: r.id, key: Number(r.k) }));
  const out: CacheObject[] = items.flatMap((it) => {
    const ev = events.get(it.id);
    return ev ? [ev as unknown as CacheObject] : [];
  });
  out.push(range('created_at', items));
  return out;
};

export const readsCommands: [string, Command][] = [
  ['long_form_content_feed', longFormContentFeed],
  ['long_form_content_thread_view', longFormContentThreadView],
  ['drafts', drafts],
];
