/**
 * Lists, replaceable events and imports (S §3.1, §3.3, §3.10): the smaller commands a
 * logged-in client sends right after start-up and after publishing.
 */
import type { Queryable } from '../../store/db.ts';
import { CommandError, isHex64 } from '../args.ts';
import { eventsByAddress, replaceableOf, type CacheObject } from '../data.ts';
import { enrich, synthetic } from '../enrich.ts';
import type { Command } from '../registry.ts';
import { userInfos } from './users.ts';

const KIND_IS_USER_FOLLOWING = 10000125;
const KIND_IMPORT_STATUS = 10000127;
const KIND_USER_RELAYS = 10000139;
/** One import_events call is one publish; anything bigger is a bulk upload that belongs on the relay. */
const MAX_IMPORT = 500;

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
  return { kind: KIND_USER_RELAYS, pubkey, tags };
};

export const listCommands: [string, Command][] = [
  [
    'contact_list',
    async (args, { ctx }) => listWithPeople(ctx.db, args.hex('pubkey'), 3, args.bool('extended_response', true)),
  ],
  ['mutelist', async (args, { ctx }) => listWithPeople(ctx.db, args.hex('pubkey'), 10000, args.bool('extended_response', false))],
  ['get_bookmarks', async (args, { ctx }) => listWithPeople(ctx.db, args.hex('pubkey'), 10003, false)],
  [
    'is_user_following',
    async (args, { ctx }) => {
      const row = await ctx.db.get('SELECT 1 AS x FROM follows WHERE pubkey = ? AND follows = ?', [
        args.hex('pubkey'),
        args.hex('user_pubkey'),
      ]);
      return [synthetic(KIND_IS_USER_FOLLOWING, row !== undefined)];
    },
  ],
  [
    'user_followers',
    async (args, { ctx }) => {
      const rows = await ctx.db.all<{ pubkey: string }>('SELECT pubkey FROM follows WHERE follows = ? LIMIT ?', [
        args.hex('pubkey'),
        args.limit(200),
      ]);
      return userInfos(ctx.db, rows.map((r) => r.pubkey));
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
  [
    'import_events',
    async (args, { ctx }) => {
      const events = args.raw.events;
      if (!Array.isArray(events)) throw new CommandError('invalid events: expected an array');
      if (events.length > MAX_IMPORT) throw new CommandError('too many events');
      const results = await ctx.importer.importEvents(events, 'cache');
      const imported = results.filter((r) => r.ok).length;
      return [synthetic(KIND_IMPORT_STATUS, { imported, errors: results.length - imported })];
    },
  ],
];
