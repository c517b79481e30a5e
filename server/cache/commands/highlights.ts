/**
 * What points at one article (S §3.1 get_highlights) and addressable events by the batch
 * (parametrized_replaceable_events).
 */
import { hiddenFor, isEventHidden } from '../../moderation/hidden.ts';
import type { Queryable } from '../../store/db.ts';
import { Args, CommandError, isHex64 } from '../args.ts';
import { addressKey, eventsByAddress, eventsByIds, inChunks, profilesOf, type Address, type CacheObject } from '../data.ts';
import { enrich, Output, synthetic } from '../enrich.ts';
import type { Command } from '../registry.ts';
import { userInfos } from './users.ts';
import { CacheKind } from '../../../core/kinds.ts';

const MAX_POINTERS = 500;
const REPLIES_PER_HIGHLIGHT = 100;
const MAX_ADDRESSES = 100;

/** Ids of events of `kind` carrying a tag `name` whose value is one of `values`, newest first. */
async function taggedBy(db: Queryable, names: string[], values: string[], kind: number, limit: number): Promise<{ id: string; value: string }[]> {
  if (!values.length) return [];
  const rows = await inChunks(values, (chunk, marks) =>
    db.all<{ id: string; value: string; k: number | string }>(
      `SELECT event_id AS id, value, created_at AS k FROM event_tags
       WHERE name IN (${names.map(() => '?').join(',')}) AND value IN (${marks}) AND kind = ?
       ORDER BY created_at DESC LIMIT ?`,
      [...names, ...chunk, kind, limit],
    ),
  );
  return rows.sort((a, b) => Number(b.k) - Number(a.k)).slice(0, limit);
}

/** Replies to each parent, newest first, at most `per` each, in one windowed query per chunk. */
async function repliesOf(db: Queryable, parents: string[], per: number): Promise<{ id: string; key: number }[]> {
  const rows = await inChunks(parents, (chunk, marks) =>
    db.all<{ id: string; k: number | string }>(
      `SELECT id, k FROM (
         SELECT event_id AS id, created_at AS k,
           ROW_NUMBER() OVER (PARTITION BY parent_id ORDER BY created_at DESC, event_id DESC) AS rn
         FROM posts WHERE parent_id IN (${marks})) t
       WHERE rn <= ?`,
      [...chunk, per],
    ),
  );
  return rows.map((r) => ({ id: r.id, key: Number(r.k) }));
}

const getHighlights: Command = async (args, { ctx }) => {
  if (args.has('event_id')) throw new CommandError('get_highlights takes pubkey, identifier and kind, not event_id');
  const pubkey = args.hex('pubkey');
  const kind = args.int('kind', 30023);
  if (kind < 30000 || kind >= 40000) throw new CommandError('invalid kind: expected an addressable kind');
  const identifier = args.optStr('identifier');
  if (identifier === undefined) throw new CommandError('missing identifier');
  const viewer = args.optHex('user_pubkey');
  const db = ctx.db;
  const address: Address = { kind, pubkey, d: identifier };
  const key = addressKey(address);
  const article = (await eventsByAddress(db, [address])).get(key);

  const highlightRefs = await taggedBy(db, ['a'], [key], 9802, MAX_POINTERS);
  if (article) highlightRefs.push(...(await taggedBy(db, ['e'], [article.id], 9802, MAX_POINTERS)));
  const noteRefs = await taggedBy(db, ['a', 'q'], [key], 1, MAX_POINTERS);
  const hidden = await hiddenFor(db, viewer, 'content');
  const found = await eventsByIds(db, [...highlightRefs, ...noteRefs].map((r) => r.id));
  const visible = (id: string) => {
    const ev = found.get(id);
    return ev && !isEventHidden(hidden, ev) ? ev : undefined;
  };
  const highlights = [...new Set(highlightRefs.map((r) => r.id))].flatMap((id) => visible(id) ?? []);
  const notes = [...new Set(noteRefs.map((r) => r.id))].flatMap((id) => visible(id) ?? []);

  const out = new Output();
  for (const ev of [...highlights, ...notes]) out.push(ev as unknown as CacheObject);
  const profiles = await profilesOf(db, highlights.map((h) => h.pubkey));
  for (const pk of new Set(highlights.map((h) => h.pubkey))) {
    const prof = profiles.get(pk);
    if (prof) out.push(prof as unknown as CacheObject);
  }

  const highlightIds = highlights.map((h) => h.id);
  const quotes = await taggedBy(db, ['q'], highlightIds, 1, MAX_POINTERS);
  const groups: Record<string, string[]> = {};
  const textOf = new Map(highlights.map((h) => [h.id, h.content]));
  for (const q of quotes) {
    const text = textOf.get(q.value);
    if (text === undefined) continue;
    const list = (groups[text] ??= []);
    if (!list.includes(q.id)) list.push(q.id);
  }
  out.push(synthetic(CacheKind.HIGHLIGHT_GROUPS, groups));

  const replies = await repliesOf(db, highlightIds, REPLIES_PER_HIGHLIGHT);
  const quoting = quotes.map((q) => ({ id: q.id, key: found.get(q.id)?.created_at ?? 0 }));
  await enrich(db, [...replies, ...quoting], { viewer, orderBy: 'created_at', out, noRange: true });
  return out.objects;
};

function readAddresses(args: Args): Address[] {
  const list = args.raw.events;
  if (!Array.isArray(list)) throw new CommandError('invalid events: expected an array of {pubkey, kind, identifier}');
  if (list.length > MAX_ADDRESSES) throw new CommandError('too many events');
  return list.map((item: unknown) => {
    const a = (item ?? {}) as Record<string, unknown>;
    const kind = a.kind;
    if (!isHex64(a.pubkey)) throw new CommandError('invalid events: pubkey must be 64 hex characters');
    if (typeof kind !== 'number' || !Number.isInteger(kind) || kind < 30000 || kind >= 40000) {
      throw new CommandError('invalid events: kind must be an addressable kind');
    }
    if (typeof a.identifier !== 'string') throw new CommandError('invalid events: identifier must be a string');
    return { kind, pubkey: a.pubkey.toLowerCase(), d: a.identifier };
  });
}

/** Several addresses at once; with extended_response the post bundle plus the people they tag. */
const parametrizedReplaceableEvents: Command = async (args, { ctx }) => {
  const addresses = readAddresses(args);
  const extended = args.bool('extended_response', true);
  const found = await eventsByAddress(ctx.db, addresses);
  const events = [...new Set(addresses.map(addressKey))].flatMap((k) => found.get(k) ?? []);
  if (!extended) return events as unknown as CacheObject[];
  const items = events.map((e) => ({ id: e.id, key: e.created_at }));
  const bundle = await enrich(ctx.db, items, { viewer: args.optHex('user_pubkey'), orderBy: 'created_at' });
  const tagged = new Set<string>();
  for (const e of events) for (const t of e.tags) if ((t[0] === 'p' || t[0] === 'P') && isHex64(t[1])) tagged.add(t[1].toLowerCase());
  return tagged.size ? [...bundle.objects, ...(await userInfos(ctx.db, [...tagged].slice(0, 500)))] : bundle.objects;
};

export const highlightCommands: [string, Command][] = [
  ['get_highlights', getHighlights],
  ['parametrized_replaceable_events', parametrizedReplaceableEvents],
];
