/**
 * Live streams (NIP-53 kind 30311) and their chat: the ws-connector's live subscriptions
 * (S §1.4). Each sends what exists now on its first push, then every matching event as it
 * is imported, as plain-text EVENT frames until CLOSE.
 */
import type { NostrEvent, ServerContext } from '../../context.ts';
import { CommandError, type Args } from '../args.ts';
import type { AsyncCommand, AsyncSubscription } from '../async.ts';
import { eventsByAddress, eventsByIds, profilesOf, sqlMarks, wire, type CacheObject } from '../data.ts';
import type { Command } from '../registry.ts';

const LIVE_EVENT = 30311;
/** Chat messages, reactions and zaps that point at a stream's address. */
const STREAM_ACTIVITY = new Set([1311, 7, 9735]);
const INITIAL_ACTIVITY = 100;
const FOLLOWED_WINDOW_S = 3600;
/** A subscriber that never reads must not make the server hold events without bound. */
const MAX_BUFFERED = 500;

const tagValues = (ev: NostrEvent, name: string) => ev.tags.filter((t) => t[0] === name && typeof t[1] === 'string').map((t) => t[1]);

/** A subscription fed by ctx.live: `initial` on the first poll, then what `accept` let through. */
function liveSubscription(
  ctx: ServerContext,
  initial: () => Promise<CacheObject[]>,
  accept: (ev: NostrEvent) => boolean,
  everyMs = 1000,
): AsyncSubscription {
  let buffered: NostrEvent[] = [];
  let started = false;
  const onEvent = (ev: NostrEvent) => {
    if (accept(ev) && buffered.length < MAX_BUFFERED) buffered.push(ev);
  };
  ctx.live.on('event', onEvent);
  return {
    everyMs,
    async poll() {
      if (!started) {
        started = true;
        // Events that arrive while the first answer is built are kept for the next poll.
        return initial();
      }
      const out = buffered;
      buffered = [];
      if (!out.length) return [];
      const profiles = await profilesOf(ctx.db, new Set(out.map((e) => e.pubkey)));
      return wire([...out, ...profiles.values()]);
    },
    dispose() {
      ctx.live.off('event', onEvent);
    },
  };
}

function streamAddress(args: Args): { kind: number; pubkey: string; d: string } {
  const kind = args.int('kind', LIVE_EVENT);
  if (kind !== LIVE_EVENT) throw new CommandError(`unsupported kind: live streams are kind ${LIVE_EVENT}`);
  const d = args.optStr('identifier');
  if (d === undefined) throw new CommandError('missing identifier');
  return { kind, pubkey: args.hex('pubkey'), d };
}

/** Newest events of the given kinds that carry one of `values` in their `name` tag. */
async function taggedWith(ctx: ServerContext, name: string, values: string[], kinds: number[], limit: number): Promise<NostrEvent[]> {
  if (!values.length) return [];
  const rows = await ctx.db.all<{ event_id: string }>(
    `SELECT event_id FROM event_tags WHERE name = ? AND value IN (${sqlMarks(values.length)}) AND kind IN (${sqlMarks(kinds.length)})
     ORDER BY created_at DESC LIMIT ?`,
    [name, ...values, ...kinds, limit],
  );
  const events = await eventsByIds(ctx.db, rows.map((r) => r.event_id));
  return rows.map((r) => events.get(r.event_id)).filter((e): e is NostrEvent => e !== undefined);
}

const liveFeed: AsyncCommand = async (args, { ctx }) => {
  const addr = streamAddress(args);
  const key = `${addr.kind}:${addr.pubkey}:${addr.d}`;
  return liveSubscription(
    ctx,
    async () => {
      const stream = (await eventsByAddress(ctx.db, [addr])).get(key);
      const activity = await taggedWith(ctx, 'a', [key], [...STREAM_ACTIVITY], INITIAL_ACTIVITY);
      const events = [...(stream ? [stream] : []), ...activity.reverse()];
      const profiles = await profilesOf(ctx.db, new Set(events.map((e) => e.pubkey)));
      return wire([...events, ...profiles.values()]);
    },
    (ev) =>
      (STREAM_ACTIVITY.has(ev.kind) && tagValues(ev, 'a').includes(key)) ||
      (ev.kind === LIVE_EVENT && ev.pubkey === addr.pubkey && tagValues(ev, 'd')[0] === addr.d),
  );
};

async function followsOf(ctx: ServerContext, pubkey: string): Promise<Set<string>> {
  const rows = await ctx.db.all<{ follows: string }>('SELECT follows FROM follows WHERE pubkey = ?', [pubkey]);
  return new Set(rows.map((r) => r.follows));
}

/** A stream concerns a user when its host or any participant is someone they follow. */
const involves = (ev: NostrEvent, follows: Set<string>) => follows.has(ev.pubkey) || tagValues(ev, 'p').some((p) => follows.has(p));

const liveEventsFromFollows: AsyncCommand = async (args, { ctx }) => {
  const user = args.hex('user_pubkey');
  let follows = await followsOf(ctx, user);
  return liveSubscription(
    ctx,
    async () => {
      follows = await followsOf(ctx, user);
      const since = ctx.now() - FOLLOWED_WINDOW_S;
      const rows = await ctx.db.all<{ event_id: string }>(
        'SELECT event_id FROM replaceable WHERE kind = ? AND created_at >= ? ORDER BY created_at DESC LIMIT 500',
        [LIVE_EVENT, since],
      );
      const events = [...(await eventsByIds(ctx.db, rows.map((r) => r.event_id))).values()].filter((e) => involves(e, follows));
      const profiles = await profilesOf(ctx.db, new Set(events.map((e) => e.pubkey)));
      return wire([...events, ...profiles.values()]);
    },
    (ev) => ev.kind === LIVE_EVENT && involves(ev, follows),
  );
};

/** find_live_events {host_pubkey, identifier?}: the host's current streams (one, when identifier is given). */
const findLiveEvents: Command = async (args, { ctx }) => {
  const host = args.hex('host_pubkey');
  const d = args.optStr('identifier');
  const rows = await ctx.db.all<{ event_id: string }>(
    d === undefined
      ? 'SELECT event_id FROM replaceable WHERE pubkey = ? AND kind = ? ORDER BY created_at DESC LIMIT 20'
      : 'SELECT event_id FROM replaceable WHERE pubkey = ? AND kind = ? AND d = ?',
    d === undefined ? [host, LIVE_EVENT] : [host, LIVE_EVENT, d],
  );
  const events = [...(await eventsByIds(ctx.db, rows.map((r) => r.event_id))).values()];
  const profiles = await profilesOf(ctx.db, [host]);
  return wire([...events, ...profiles.values()]);
};

export const liveAsyncCommands: [string, AsyncCommand][] = [
  ['live_feed', liveFeed],
  ['live_events_from_follows', liveEventsFromFollows],
];

export const liveCommands: [string, Command][] = [['find_live_events', findLiveEvents]];
