/** `feed` and the built-in feeds of `mega_feed_directive` (S §3.1); which spec goes where is commands/feed-specs.ts. */
import type { Queryable, SqlValue } from '../../store/db.ts';
import { Args, CommandError } from '../args.ts';
import { eventsByAddress, eventsByIds, replaceableOf, type CacheObject } from '../data.ts';
import { enrich, range, type FeedItem } from '../enrich.ts';
import { followsFeedItems } from '../follows-feed.ts';
import { parseAddress } from '../refs.ts';
import type { Command, SpecFeed } from '../registry.ts';
import type { ServerContext } from '../../context.ts';
import { clampHours, latestItems, rankedItems } from './scored.ts';

export const NOTES_TYPES = ['follows', 'authored', 'replies', 'bookmarks', 'user_media_thumbnails'] as const;
type NotesType = (typeof NOTES_TYPES)[number];

export interface FeedQuery {
  pubkey: string;
  notes: NotesType;
  includeReplies: boolean;
  kinds?: number[];
  since?: number;
  until?: number;
  limit: number;
  offset: number;
}

interface Page {
  since?: number;
  until?: number;
  limit: number;
  offset: number;
}

/** Newest first when paging back (or with no bound); oldest first when polling forward from `since`. */
const direction = (p: Page) => (p.since !== undefined && p.until === undefined ? 'ASC' : 'DESC');

function timeBounds(col: string, p: Page, params: SqlValue[]): string {
  let sql = '';
  if (p.until !== undefined) {
    sql += ` AND ${col} <= ?`;
    params.push(p.until);
  }
  if (p.since !== undefined) {
    sql += ` AND ${col} >= ?`;
    params.push(p.since);
  }
  return sql;
}

async function postItems(db: Queryable, joinFollows: boolean, where: string, params: SqlValue[], p: Page): Promise<FeedItem[]> {
  const dir = direction(p);
  const join = joinFollows ? 'JOIN follows f ON f.follows = p.pubkey' : '';
  const rows = await db.all<{ id: string; k: number | string }>(
    `SELECT p.event_id AS id, p.created_at AS k FROM posts p ${join}
     WHERE ${where}${timeBounds('p.created_at', p, params)}
     ORDER BY p.created_at ${dir}, p.event_id ${dir} LIMIT ? OFFSET ?`,
    [...params, p.limit, p.offset],
  );
  return rows.map((r) => ({ id: r.id, key: Number(r.k) }));
}

const inList = (kinds: number[]) => kinds.map(() => '?').join(',');

async function bookmarkItems(db: Queryable, q: FeedQuery): Promise<FeedItem[]> {
  const list = (await replaceableOf(db, 10003, [q.pubkey])).get(q.pubkey);
  if (!list) return [];
  const ids: string[] = [];
  const addrs = [];
  for (const t of list.tags) {
    if (t[0] === 'e' && typeof t[1] === 'string') ids.push(t[1].toLowerCase());
    if (t[0] === 'a') {
      const a = parseAddress(t[1]);
      if (a) addrs.push(a);
    }
  }
  const events = [...(await eventsByIds(db, ids)).values(), ...(await eventsByAddress(db, addrs)).values()];
  const asc = direction(q) === 'ASC';
  const items = events
    .filter((e) => !q.kinds || q.kinds.includes(e.kind))
    .filter((e) => (q.until === undefined || e.created_at <= q.until) && (q.since === undefined || e.created_at >= q.since))
    .map((e) => ({ id: e.id, key: e.created_at }))
    .sort((a, b) => (asc ? a.key - b.key : b.key - a.key));
  return items.slice(q.offset, q.offset + q.limit);
}

export async function feedItems(db: Queryable, q: FeedQuery): Promise<FeedItem[]> {
  const kinds = q.kinds ?? [1, 6];
  switch (q.notes) {
    case 'follows':
      // Per-author index ranges merged in JS: a join-and-sort reads every post of every followed author.
      return followsFeedItems(db, q.pubkey, kinds, q.includeReplies, q);
    case 'authored': {
      // include_replies turns a profile's notes tab into its notes-and-replies tab (the legacy `withreplies;` directive).
      const replies = q.includeReplies ? '' : ' AND p.is_reply = 0';
      return postItems(db, false, `p.pubkey = ? AND p.kind IN (${inList(kinds)})${replies}`, [q.pubkey, ...kinds], q);
    }
    case 'replies':
      return postItems(db, false, `p.pubkey = ? AND p.kind IN (${inList(kinds)}) AND p.is_reply <> 0`, [q.pubkey, ...kinds], q);
    case 'user_media_thumbnails':
      return postItems(db, false, `p.pubkey = ? AND p.kind = 1 AND p.has_media <> 0`, [q.pubkey], q);
    case 'bookmarks':
      return bookmarkItems(db, q);
  }
}

function readNotes(a: Args, name: string, fallback: NotesType): NotesType {
  const notes = a.str(name, fallback);
  if (!(NOTES_TYPES as readonly string[]).includes(notes)) throw new CommandError('unsupported type of notes');
  return notes as NotesType;
}

export function readPage(args: Args, fallbackLimit: number): Page {
  return { since: args.optBound('since'), until: args.optBound('until'), limit: args.limit(fallbackLimit), offset: args.offset() };
}

async function feedBundle(db: Queryable, q: FeedQuery, viewer: string | undefined): Promise<CacheObject[]> {
  const items = await feedItems(db, q);
  return (await enrich(db, items, { viewer, orderBy: 'created_at' })).objects;
}

const feed: Command = async (args, { ctx }) => {
  const q: FeedQuery = {
    pubkey: args.hex('pubkey'),
    notes: readNotes(args, 'notes', 'follows'),
    includeReplies: args.bool('include_replies', false),
    kinds: args.optKinds(),
    ...readPage(args, 20),
  };
  return feedBundle(ctx.db, q, args.optHex('user_pubkey'));
};

export function parseSpec(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string') throw new CommandError('invalid spec format');
  let spec: unknown;
  try {
    spec = JSON.parse(raw);
  } catch {
    throw new CommandError('invalid spec format');
  }
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) throw new CommandError('invalid spec format');
  return spec as Record<string, unknown>;
}

/** The spec's `kinds`, first one only: the built-in feeds show one kind. */
function specKind(spec: Record<string, unknown>): number | undefined {
  return new Args(spec).optKinds()?.[0];
}

async function bundleOf(ctx: ServerContext, items: FeedItem[], viewer: string | undefined, orderBy: string): Promise<CacheObject[]> {
  return (await enrich(ctx.db, items, { viewer, orderBy })).objects;
}

/** mega_feed_directive "latest": the viewer's follows, newest first; nothing for a guest. */
export const latestSpecFeed: SpecFeed = async (args, spec, { ctx }) => {
  const viewer = args.optHex('user_pubkey');
  const page = readPage(args, 20);
  const kind = specKind(spec);
  if (!viewer) return [range('created_at', [])];
  const includeReplies = new Args(spec).bool('include_replies', false);
  return feedBundle(ctx.db, { pubkey: viewer, notes: 'follows', includeReplies, kinds: kind === undefined ? undefined : [kind], ...page }, viewer);
};

/** mega_feed_directive "global-trending" (score, 24 h) and "most-zapped" (sats, 4 h). */
export const rankedSpecFeed: SpecFeed = async (args, spec, { ctx }) => {
  const viewer = args.optHex('user_pubkey');
  const page = readPage(args, 20);
  const kind = specKind(spec);
  const field = spec.id === 'most-zapped' ? 'satszapped' : 'score';
  const hours = clampHours(spec.hours, spec.id === 'most-zapped' ? 4 : 24);
  return bundleOf(ctx, await rankedItems(ctx.db, ctx.now(), { field, hours, kind: kind ?? 1, ...page }), viewer, field);
};

/** mega_feed_directive "all-notes": everyone's notes, newest first. */
export const allNotesSpecFeed: SpecFeed = async (args, spec, { ctx }) => {
  const viewer = args.optHex('user_pubkey');
  const page = readPage(args, 20);
  const kind = specKind(spec);
  return bundleOf(ctx, await latestItems(ctx.db, { kind: kind ?? 1, ...page }), viewer, 'created_at');
};

/** mega_feed_directive "feed": one author's posts (the `feed` command with the spec's arguments). */
export const authorSpecFeed: SpecFeed = async (args, spec, { ctx }) => {
  const viewer = args.optHex('user_pubkey');
  const page = readPage(args, 20);
  const kind = specKind(spec);
  const s = new Args(spec);
  return feedBundle(
    ctx.db,
    { pubkey: s.hex('pubkey'), notes: readNotes(s, 'notes', 'authored'), includeReplies: s.bool('include_replies', false), kinds: kind === undefined ? undefined : [kind], ...page },
    viewer,
  );
};

/** Unknown feeds still answer with data, so clients stop waiting (our decision over S §3.1). */
/**
 * A non-search spec's `kinds` and the paging arguments are checked before any rule answers, so
 * every such feed (reads and explore ones too) refuses a bad one with the same NOTICE.
 */
export function checkSpecArgs(args: Args, spec: Record<string, unknown>): void {
  new Args(spec).optKinds();
  readPage(args, 20);
}

export const unknownSpecFeed: SpecFeed = async () => [range('created_at', [])];

export const feedCommands: [string, Command][] = [
  ['feed', feed],
  ['feed_2', feed],
];
