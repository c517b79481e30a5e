/**
 * DVM feed announcements (S §3.9): kind-31990 handler events with a k=5300 tag (NIP-90 content
 * discovery), each with its author's user_infos and the 10000100 / 10000156 / 10000159 extras.
 */
import type { NostrEvent } from '../../context.ts';
import type { Queryable } from '../../store/db.ts';
import { CommandError } from '../args.ts';
import { eventsByAddress, eventsByIds, inChunks, type CacheObject } from '../data.ts';
import { synthetic } from '../enrich.ts';
import type { Command } from '../registry.ts';
import { userInfos } from './users.ts';
import { CacheKind } from '../../../core/kinds.ts';

const KIND_DVM_ANNOUNCEMENT = 31990;
/** Every stored announcement is looked at once per request; beyond this the catalogue is not a list anyone reads. */
const MAX_DVMS = 500;
const MAX_FOLLOWS_SHOWN = 20;

type FeedKind = 'notes' | 'reads';

const address = (ev: NostrEvent) => `${ev.kind}:${ev.pubkey}:${ev.tags.find((t) => t[0] === 'd')?.[1] ?? ''}`;

const isContentDvm = (ev: NostrEvent) => ev.kind === KIND_DVM_ANNOUNCEMENT && ev.tags.some((t) => t[0] === 'k' && t[1] === '5300');

/** Reads DVMs say so: a k=30023 or t=reads tag, or kind "reads" in the content's primal_spec. */
export function dvmFeedKind(ev: NostrEvent): FeedKind {
  if (ev.tags.some((t) => (t[0] === 'k' && t[1] === '30023') || (t[0] === 't' && t[1]?.toLowerCase() === 'reads'))) return 'reads';
  try {
    const c = JSON.parse(ev.content) as Record<string, unknown>;
    const spec = typeof c.primal_spec === 'string' ? (JSON.parse(c.primal_spec) as Record<string, unknown>) : undefined;
    if (c.kind === 'reads' || spec?.kind === 'reads') return 'reads';
  } catch {
    // Free-text content: a notes feed.
  }
  return 'notes';
}

/** Current announcements with k=5300, newest first. */
async function announcements(db: Queryable): Promise<NostrEvent[]> {
  // Superseded versions have no event_tags rows, so this finds current versions only.
  const rows = await db.all<{ event_id: string }>(
    `SELECT event_id FROM event_tags WHERE name = 'k' AND value = '5300' AND kind = ? ORDER BY created_at DESC, event_id LIMIT ?`,
    [KIND_DVM_ANNOUNCEMENT, MAX_DVMS],
  );
  const found = await eventsByIds(db, rows.map((r) => r.event_id));
  return rows.map((r) => found.get(r.event_id)).filter((e): e is NostrEvent => e !== undefined && isContentDvm(e));
}

interface Engagement {
  likes: Map<string, number>;
  sats: Map<string, number>;
  /** Per announcement id, the viewer's follows who reacted to it. */
  follows: Map<string, string[]>;
}

/** Reactions point at an announcement by id or by address; count both. */
async function engagement(db: Queryable, dvms: NostrEvent[], viewer: string | undefined): Promise<Engagement> {
  const keyOf = new Map<string, string>();
  for (const d of dvms) {
    keyOf.set(d.id, d.id);
    keyOf.set(address(d), d.id);
  }
  const rows = await inChunks([...keyOf.keys()], (chunk, marks) =>
    db.all<{ value: string; pubkey: string }>(
      `SELECT t.value AS value, e.pubkey AS pubkey FROM event_tags t JOIN events e ON e.id = t.event_id
       WHERE t.name IN ('e', 'a') AND t.kind = 7 AND t.value IN (${marks})`,
      chunk,
    ),
  );
  const likers = new Map<string, Set<string>>();
  for (const r of rows) {
    const id = keyOf.get(r.value);
    if (!id) continue;
    const set = likers.get(id) ?? new Set<string>();
    set.add(r.pubkey);
    likers.set(id, set);
  }
  const zaps = await inChunks(dvms.map((d) => d.id), (chunk, marks) =>
    db.all<{ id: string; sats: number | string }>(
      `SELECT target_event_id AS id, SUM(amount_sats) AS sats FROM zaps WHERE target_event_id IN (${marks}) GROUP BY target_event_id`,
      chunk,
    ),
  );
  const followed = new Set<string>();
  const everyone = [...new Set([...likers.values()].flatMap((s) => [...s]))];
  if (viewer && everyone.length) {
    const f = await inChunks(everyone, (chunk, marks) =>
      db.all<{ follows: string }>(`SELECT follows FROM follows WHERE pubkey = ? AND follows IN (${marks})`, [viewer, ...chunk]),
    );
    for (const r of f) followed.add(r.follows);
  }
  const out: Engagement = { likes: new Map(), sats: new Map(zaps.map((z) => [z.id, Number(z.sats)])), follows: new Map() };
  for (const [id, set] of likers) {
    out.likes.set(id, set.size);
    out.follows.set(id, [...set].filter((pk) => followed.has(pk)).sort().slice(0, MAX_FOLLOWS_SHOWN));
  }
  return out;
}

async function bundle(db: Queryable, dvms: NostrEvent[], viewer: string | undefined): Promise<CacheObject[]> {
  const eng = await engagement(db, dvms, viewer);
  const out: CacheObject[] = [];
  for (const d of dvms) {
    out.push(d as unknown as CacheObject);
    out.push(synthetic(CacheKind.NOTE_STATS, { event_id: d.id, likes: eng.likes.get(d.id) ?? 0, satszapped: eng.sats.get(d.id) ?? 0 }));
    out.push(synthetic(CacheKind.DVM_FOLLOWS_ACTIONS, { event_id: d.id, users: eng.follows.get(d.id) ?? [] }));
    out.push(synthetic(CacheKind.DVM_METADATA, { event_id: d.id, kind: dvmFeedKind(d), is_primal: false }));
  }
  out.push(...(await userInfos(db, [...new Set(dvms.map((d) => d.pubkey))])));
  return out;
}

function feedKindArg(v: unknown): FeedKind | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (v !== 'notes' && v !== 'reads') throw new CommandError('invalid kind: expected notes or reads');
  return v;
}

export const dvmCommands: [string, Command][] = [
  [
    'get_featured_dvm_feeds',
    async (args, { ctx }) => {
      const kind = feedKindArg(args.raw.kind);
      const viewer = args.optHex('user_pubkey');
      const all = (await announcements(ctx.db)).filter((d) => !kind || dvmFeedKind(d) === kind);
      // Featured = the most liked; ties keep the newest first (the query's order).
      const eng = await engagement(ctx.db, all, viewer);
      const featured = [...all].sort((a, b) => (eng.likes.get(b.id) ?? 0) - (eng.likes.get(a.id) ?? 0)).slice(0, args.limit(20, 100));
      return bundle(ctx.db, featured, viewer);
    },
  ],
  [
    'get_dvm_feeds',
    async (args, { ctx }) => {
      const kind = feedKindArg(args.raw.kind);
      const all = (await announcements(ctx.db)).filter((d) => !kind || dvmFeedKind(d) === kind);
      return bundle(ctx.db, all.slice(0, args.limit(100, MAX_DVMS)), args.optHex('user_pubkey'));
    },
  ],
  [
    'dvm_feed_info',
    async (args, { ctx }) => {
      const pubkey = args.hex('pubkey');
      const identifier = args.optStr('identifier');
      if (identifier === undefined) throw new CommandError('missing identifier');
      const ev = (await eventsByAddress(ctx.db, [{ kind: KIND_DVM_ANNOUNCEMENT, pubkey, d: identifier }])).get(
        `${KIND_DVM_ANNOUNCEMENT}:${pubkey}:${identifier}`,
      );
      if (!ev || !isContentDvm(ev)) return [];
      return bundle(ctx.db, [ev], args.optHex('user_pubkey'));
    },
  ],
];
