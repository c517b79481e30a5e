/**
 * Lists and replaceable events (S §3.1, §3.3; imports are in writes.ts): the smaller commands a
 * logged-in client sends right after start-up and after publishing.
 */
import type { NostrEvent } from '../../context.ts';
import type { Queryable, SqlValue } from '../../store/db.ts';
import { CommandError, isHex64 } from '../args.ts';
import { eventsByAddress, eventsByIds, replaceableOf, type Address, type CacheObject } from '../data.ts';
import { enrich, synthetic } from '../enrich.ts';
import { parseAddress } from '../refs.ts';
import type { Command } from '../registry.ts';
import { userInfos } from './users.ts';
import { CacheKind } from '../../../core/kinds.ts';

const KIND_FOLLOW_PACK = 39089;
const KIND_TIER_LIST = 17000;
const KIND_TIER = 37001;
const MAX_TIERS = 50;
const MAX_IDENTIFIER = 256;
/** A follow pack can list hundreds of people; the profiles of the first ones are enough to render it. */
const MAX_PACK_PEOPLE = 20;

const raw = (ev: unknown) => ev as CacheObject;

function taggedPubkeys(tags: string[][]): string[] {
  const out = new Set<string>();
  for (const t of tags) if ((t[0] === 'p' || t[0] === 'P') && isHex64(t[1])) out.add(t[1].toLowerCase());
  return [...out];
}

/** The current replaceable event, plus user_infos for its p tags when extended. */
async function listWithPeople(db: Queryable, pubkey: string, kind: number, extended: boolean): Promise<CacheObject[]> {
  const ev = (await replaceableOf(db, kind, [pubkey])).get(pubkey);
  if (!ev) return [];
  return extended ? [raw(ev), ...(await userInfos(db, taggedPubkeys(ev.tags)))] : [raw(ev)];
}

/** A kind-30000 list by its d tag (mute, mutelists, allowlist or any named list). */
async function namedList(db: Queryable, pubkey: string, d: string, extended: boolean): Promise<CacheObject[]> {
  const ev = (await eventsByAddress(db, [{ kind: 30000, pubkey, d }])).get(`30000:${pubkey}:${d}`);
  if (!ev) return [];
  return extended ? [raw(ev), ...(await userInfos(db, taggedPubkeys(ev.tags)))] : [raw(ev)];
}

/** Follow packs (kind 39089), newest first, by one author or by everyone, with their authors and members. */
const followLists: Command = async (args, { ctx }) => {
  const pubkey = args.optHex('pubkey');
  const limit = args.limit(20, 100);
  const until = args.optBound('until');
  const params: SqlValue[] = [KIND_FOLLOW_PACK];
  let where = 'r.kind = ?';
  if (pubkey) {
    where += ' AND r.pubkey = ?';
    params.push(pubkey);
  }
  if (until !== undefined) {
    where += ' AND r.created_at <= ?';
    params.push(until);
  }
  const rows = await ctx.db.all<{ event_id: string }>(
    `SELECT r.event_id FROM replaceable r WHERE ${where} ORDER BY r.created_at DESC, r.event_id LIMIT ? OFFSET ?`,
    [...params, limit, args.offset()],
  );
  const found = await eventsByIds(ctx.db, rows.map((r) => r.event_id));
  const packs = rows.map((r) => found.get(r.event_id)).filter((e): e is NostrEvent => e !== undefined);
  const people = new Set<string>();
  for (const p of packs) {
    people.add(p.pubkey);
    for (const pk of taggedPubkeys(p.tags).slice(0, MAX_PACK_PEOPLE)) people.add(pk);
  }
  return [...packs.map(raw), ...(await userInfos(ctx.db, [...people]))];
};

/**
 * A creator's paid tiers: the kind-17000 tier list, the kind-37001 tiers it names (by a or e
 * tag; all of the creator's tiers when it names none or is missing), and a 10000147 summary.
 */
const creatorPaidTiers: Command = async (args, { ctx }) => {
  const pubkey = args.hex('pubkey');
  const list = (await replaceableOf(ctx.db, KIND_TIER_LIST, [pubkey])).get(pubkey);
  const addrs: Address[] = [];
  const ids: string[] = [];
  for (const t of list?.tags ?? []) {
    const ref = t[0] === 'a' && typeof t[1] === 'string' ? parseAddress(t[1]) : null;
    if (ref && ref.kind === KIND_TIER && ref.pubkey === pubkey) addrs.push(ref);
    if (t[0] === 'e' && isHex64(t[1])) ids.push(t[1].toLowerCase());
  }
  let tiers: NostrEvent[];
  if (addrs.length || ids.length) {
    const byAddr = await eventsByAddress(ctx.db, addrs.slice(0, MAX_TIERS));
    const byId = await eventsByIds(ctx.db, ids.slice(0, MAX_TIERS));
    tiers = [...byAddr.values(), ...[...byId.values()].filter((e) => e.pubkey === pubkey && e.kind === KIND_TIER)];
  } else {
    const rows = await ctx.db.all<{ event_id: string }>(
      'SELECT event_id FROM replaceable WHERE pubkey = ? AND kind = ? ORDER BY created_at DESC LIMIT ?',
      [pubkey, KIND_TIER, MAX_TIERS],
    );
    tiers = [...(await eventsByIds(ctx.db, rows.map((r) => r.event_id))).values()];
  }
  const tag = (ev: NostrEvent, name: string) => ev.tags.find((t) => t[0] === name)?.[1] ?? '';
  const summary = tiers.map((ev) => ({
    event_id: ev.id,
    identifier: tag(ev, 'd'),
    title: tag(ev, 'title'),
    content: ev.content,
    amounts: ev.tags.filter((t) => t[0] === 'amount').map((t) => ({ amount: t[1] ?? '', currency: t[2] ?? '', cadence: t[3] ?? '' })),
    perks: ev.tags.filter((t) => t[0] === 'perk' && typeof t[1] === 'string').map((t) => t[1]),
  }));
  const out: CacheObject[] = list ? [raw(list)] : [];
  out.push(...tiers.map(raw), synthetic(CacheKind.CREATOR_PAID_TIERS, { pubkey, tiers: summary }));
  return out;
};

const userRelays = async (db: Queryable, pubkey: string): Promise<CacheObject> => {
  const tags: string[][] = [];
  const list = (await replaceableOf(db, 10002, [pubkey])).get(pubkey);
  for (const t of list?.tags ?? []) {
    if (t[0] !== 'r' || typeof t[1] !== 'string' || !t[1]) continue;
    tags.push(t[2] === 'read' || t[2] === 'write' ? ['r', t[1], t[2]] : ['r', t[1]]);
  }
  if (!list) {
    // Before NIP-65, clients kept {url: {read, write}} in the contact list's content.
    const contacts = (await replaceableOf(db, 3, [pubkey])).get(pubkey);
    try {
      const legacy = JSON.parse(contacts?.content ?? '') as Record<string, { read?: boolean; write?: boolean }>;
      for (const [url, rw] of Object.entries(legacy ?? {})) {
        if (rw?.read && !rw.write) tags.push(['r', url, 'read']);
        else if (rw?.write && !rw.read) tags.push(['r', url, 'write']);
        else tags.push(['r', url]);
      }
    } catch {
      // No legacy relay map: the list stays empty.
    }
  }
  return { kind: CacheKind.USER_RELAYS, pubkey, tags };
};

export const listCommands: [string, Command][] = [
  [
    'contact_list',
    async (args, { ctx }) => listWithPeople(ctx.db, args.hex('pubkey'), 3, args.bool('extended_response', true)),
  ],
  [
    'mutelist',
    async (args, { ctx }) => {
      const pubkey = args.hex('pubkey');
      const extended = args.bool('extended_response', false);
      return [...(await listWithPeople(ctx.db, pubkey, 10000, extended)), ...(await namedList(ctx.db, pubkey, 'mute', extended))];
    },
  ],
  ['mutelists', async (args, { ctx }) => namedList(ctx.db, args.hex('pubkey'), 'mutelists', args.bool('extended_response', false))],
  ['allowlist', async (args, { ctx }) => namedList(ctx.db, args.hex('pubkey'), 'allowlist', args.bool('extended_response', false))],
  [
    'parameterized_replaceable_list',
    async (args, { ctx }) => {
      const identifier = args.optStr('identifier');
      if (identifier === undefined) throw new CommandError('missing identifier');
      if (identifier.length > MAX_IDENTIFIER) throw new CommandError('invalid identifier: too long');
      return namedList(ctx.db, args.hex('pubkey'), identifier, args.bool('extended_response', true));
    },
  ],
  ['follow_lists', followLists],
  ['creator_paid_tiers', creatorPaidTiers],
  ['get_bookmarks', async (args, { ctx }) => listWithPeople(ctx.db, args.hex('pubkey'), 10003, false)],
  [
    'is_user_following',
    async (args, { ctx }) => {
      const row = await ctx.db.get('SELECT 1 AS x FROM follows WHERE pubkey = ? AND follows = ?', [
        args.hex('pubkey'),
        args.hex('user_pubkey'),
      ]);
      return [synthetic(CacheKind.IS_USER_FOLLOWING, row !== undefined)];
    },
  ],
  ['get_user_relays', async (args, { ctx }) => [await userRelays(ctx.db, args.hex('pubkey'))]],
  [
    'get_user_relays_2',
    async (args, { ctx }) => Promise.all(args.hexList('pubkeys', 200).map((pk) => userRelays(ctx.db, pk))),
  ],
  [
    'replaceable_event',
    async (args, { ctx }) => {
      const kind = args.int('kind', -1);
      if (!(kind === 0 || kind === 3 || (kind >= 10000 && kind < 20000))) throw new CommandError('invalid kind');
      const pubkey = args.hex('pubkey');
      const ev = (await replaceableOf(ctx.db, kind, [pubkey])).get(pubkey);
      return ev ? [raw(ev)] : [];
    },
  ],
  [
    'parametrized_replaceable_event',
    async (args, { ctx }) => {
      const kind = args.int('kind', -1);
      if (kind < 30000 || kind >= 40000) throw new CommandError('invalid kind');
      const pubkey = args.hex('pubkey');
      const address = { kind, pubkey, d: args.str('identifier', '') };
      const ev = (await eventsByAddress(ctx.db, [address])).get(`${kind}:${pubkey}:${address.d}`);
      if (!ev) return [];
      if (!args.bool('extended_response', true)) return [raw(ev)];
      const people = await userInfos(ctx.db, taggedPubkeys(ev.tags));
      const bundle = await enrich(ctx.db, [{ id: ev.id, key: ev.created_at }], {
        viewer: args.optHex('user_pubkey'),
        orderBy: 'created_at',
      });
      return [...bundle.objects, ...people];
    },
  ],
];
