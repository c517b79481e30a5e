/**
 * Writes and imports (S §3.10): import_events stores what a client just published, and
 * broadcast_events / broadcast_reply publish events to other relays on the client's behalf,
 * importing them here too so they show at once.
 */
import type { NostrEvent } from '../../context.ts';
import { publish, relayUrlProblem, type RelayResponse } from '../../ingest/publish.ts';
import { validateShape } from '../../ingest/verify.ts';
import { CommandError, isHex64 } from '../args.ts';
import { replaceableOf } from '../data.ts';
import { synthetic } from '../enrich.ts';
import type { Command, CommandEnv } from '../registry.ts';
import { CacheKind } from '../../../core/kinds.ts';

/** One import_events call is one publish; anything bigger is a bulk upload that belongs on the relay. */
const MAX_IMPORT = 500;
const MAX_BROADCAST_EVENTS = 100;
const MAX_BROADCAST_RELAYS = 30;
/** broadcast_reply reaches the inboxes of at most this many tagged people, and this many relays in all. */
const MAX_REPLY_PEOPLE = 20;
const MAX_REPLY_RELAYS = 10;

interface Broadcast {
  event_id: string;
  responses: RelayResponse[];
}

function idOf(raw: unknown): string {
  const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : '';
}

function relayList(raw: unknown): string[] {
  if (!Array.isArray(raw) || !raw.every((r) => typeof r === 'string')) {
    throw new CommandError('invalid relays: expected an array of relay URLs');
  }
  const relays = [...new Set(raw.map((r) => r.trim()).filter((r) => r.length > 0))];
  if (relays.length > MAX_BROADCAST_RELAYS) throw new CommandError(`too many relays (at most ${MAX_BROADCAST_RELAYS})`);
  return relays;
}

/**
 * Imports the events here, then publishes those whose signature holds to `relays`. Events that
 * fail the shape or signature check are sent nowhere: every relay's answer names the reason.
 */
async function importAndPublish(env: CommandEnv, raws: unknown[], relays: string[]): Promise<Broadcast[]> {
  const { ctx } = env;
  const shaped = raws.map((r) => validateShape(r));
  const valid = shaped.filter((e): e is NostrEvent => typeof e !== 'string');
  const results = await ctx.importer.importEvents(valid, 'cache');
  const refused = new Map<NostrEvent, string>();
  valid.forEach((e, i) => {
    if (results[i]?.reason.startsWith('invalid:')) refused.set(e, results[i].reason);
  });
  const sendable = valid.filter((e) => !refused.has(e));
  const answers = await publish(sendable, relays, ctx.config.broadcastTimeoutMs, ctx.config.fetchPrivateAddresses);
  return shaped.map((e, i) => {
    if (typeof e === 'string') return { event_id: idOf(raws[i]), responses: relays.map((r): RelayResponse => [r, false, `invalid: ${e}`]) };
    const reason = refused.get(e);
    if (reason) return { event_id: e.id, responses: relays.map((r): RelayResponse => [r, false, reason]) };
    return { event_id: e.id, responses: answers.get(e.id) ?? [] };
  });
}

const importEvents: Command = async (args, { ctx }) => {
  const events = args.raw.events;
  if (!Array.isArray(events)) throw new CommandError('invalid events: expected an array');
  if (events.length > MAX_IMPORT) throw new CommandError('too many events');
  const results = await ctx.importer.importEvents(events, 'cache');
  const imported = results.filter((r) => r.ok).length;
  return [synthetic(CacheKind.IMPORT_STATUS, { imported, errors: results.length - imported })];
};

const broadcastEvents: Command = async (args, env) => {
  const events = args.raw.events;
  if (!Array.isArray(events)) throw new CommandError('invalid events: expected an array');
  if (events.length > MAX_BROADCAST_EVENTS) throw new CommandError(`too many events (at most ${MAX_BROADCAST_EVENTS})`);
  const relays = relayList(args.raw.relays);
  return [synthetic(CacheKind.BROADCAST_RESPONSES, await importAndPublish(env, events, relays))];
};

/** Read relays (NIP-65 inboxes) of the people a reply tags, so they see it even if they never read our relays. */
async function inboxRelays(env: CommandEnv, event: NostrEvent): Promise<string[]> {
  const people = [...new Set(event.tags.filter((t) => t[0] === 'p' && isHex64(t[1])).map((t) => t[1]))]
    .filter((pk) => pk !== event.pubkey)
    .slice(0, MAX_REPLY_PEOPLE);
  const lists = await replaceableOf(env.ctx.db, 10002, people);
  const relays = new Set<string>();
  for (const pk of people) {
    for (const t of lists.get(pk)?.tags ?? []) {
      if (t[0] !== 'r' || typeof t[1] !== 'string' || (t[2] !== undefined && t[2] !== 'read')) continue;
      if (!relayUrlProblem(t[1]) && relays.size < MAX_REPLY_RELAYS) relays.add(t[1]);
    }
  }
  return [...relays];
}

const broadcastReply: Command = async (args, env) => {
  let raw = args.raw.event;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      throw new CommandError('invalid event: not JSON');
    }
  }
  const event = validateShape(raw);
  if (typeof event === 'string') throw new CommandError(`invalid event: ${event}`);
  const relays = await inboxRelays(env, event);
  return [synthetic(CacheKind.BROADCAST_RESPONSES, await importAndPublish(env, [event], relays))];
};

export const writeCommands: [string, Command][] = [
  ['import_events', importEvents],
  ['broadcast_events', broadcastEvents],
  ['broadcast_reply', broadcastReply],
];
