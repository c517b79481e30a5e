/**
 * The relay pool: one relay machine per URL, shared by every tab. Pure: it spawns the relay
 * machines (whose socket the worker provides) and routes pool-wide commands to them. Relays are
 * suspended while any reason holds (proxying through the cache server, or the app asleep).
 */
import { enqueueActions, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { NostrEvent, RelayFilter } from '../core/types.ts';
import { checkRelayUrl, relayMachine, type RelayActor, type RelayFlags } from './relay.ts';

export type SuspendReason = 'proxy' | 'sleep';

export interface RelayEntry extends RelayFlags {
  url: string;
}

export type RelayPoolEvent =
  | { type: 'ADD'; url: string; read?: boolean; write?: boolean }
  | { type: 'REMOVE'; url: string }
  | { type: 'SET_RELAYS'; relays: RelayEntry[] }
  | { type: 'SET_FLAGS'; url: string; read: boolean; write: boolean }
  | { type: 'CONNECT_ALL' }
  | { type: 'SUSPEND'; reason: SuspendReason }
  | { type: 'RESUME'; reason: SuspendReason }
  | { type: 'SUBSCRIBE'; subId: string; filters: RelayFilter[] }
  | { type: 'UNSUBSCRIBE'; subId: string };

export interface RelayPoolContext {
  /** Relay URLs in the order they were added; each is also the id of its spawned relay machine. */
  urls: string[];
  suspendedBy: Record<SuspendReason, boolean>;
  /** Pool-wide subscriptions, so that a relay added later gets them too. */
  subs: Record<string, RelayFilter[]>;
  now?: () => number;
}

export interface RelayPoolInput {
  now?: () => number;
}

/** Internal: spawns one validated relay after ADD or SET_RELAYS. */
type SpawnEvent = { type: 'SPAWN'; entry: RelayEntry };

/**
 * The relays of a kind-10002 list (NIP-65). A marker 'write' means write only (read off), 'read'
 * means read only (write off); no marker, both. Invalid URLs are skipped, a repeated URL merges.
 */
export function relaysFromEvent(event: Pick<NostrEvent, 'tags'>): RelayEntry[] {
  const byUrl = new Map<string, RelayEntry>();
  for (const tag of event.tags) {
    if (tag[0] !== 'r' || typeof tag[1] !== 'string') continue;
    const checked = checkRelayUrl(tag[1]);
    if (!checked.ok) continue;
    const marker = tag[2];
    const entry: RelayEntry = { url: checked.url, read: marker !== 'write', write: marker !== 'read' };
    const seen = byUrl.get(checked.url);
    byUrl.set(checked.url, seen ? { url: checked.url, read: seen.read || entry.read, write: seen.write || entry.write } : entry);
  }
  return [...byUrl.values()];
}

const isSuspended = (context: RelayPoolContext): boolean => context.suspendedBy.proxy || context.suspendedBy.sleep;

export const relayPoolMachine = setup({
  types: {
    context: {} as RelayPoolContext,
    events: {} as RelayPoolEvent | SpawnEvent,
    input: {} as RelayPoolInput,
  },
  actors: { relay: relayMachine },
}).createMachine({
  id: 'relayPool',
  context: ({ input }) => ({ urls: [], suspendedBy: { proxy: false, sleep: false }, subs: {}, now: input.now }),
  on: {
    ADD: {
      actions: enqueueActions(({ event, enqueue }) => {
        const checked = checkRelayUrl(event.url);
        if (checked.ok) enqueue.raise({ type: 'SPAWN', entry: { url: checked.url, read: event.read ?? true, write: event.write ?? true } });
      }),
    },
    SPAWN: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const { entry } = event;
        if (context.urls.includes(entry.url)) return;
        enqueue.assign({ urls: [...context.urls, entry.url] });
        enqueue.spawnChild('relay', { id: entry.url, input: { url: entry.url, read: entry.read, write: entry.write, now: context.now } });
        for (const [subId, filters] of Object.entries(context.subs)) enqueue.sendTo(entry.url, { type: 'SUBSCRIBE', subId, filters });
        enqueue.sendTo(entry.url, { type: isSuspended(context) ? 'SUSPEND' : 'CONNECT' });
      }),
    },
    REMOVE: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const checked = checkRelayUrl(event.url);
        const url = checked.ok ? checked.url : event.url;
        if (!context.urls.includes(url)) return;
        enqueue.stopChild(url);
        enqueue.assign({ urls: context.urls.filter((u) => u !== url) });
      }),
    },
    SET_RELAYS: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const wanted = new Map<string, RelayEntry>();
        for (const r of event.relays) {
          const checked = checkRelayUrl(r.url);
          if (checked.ok && !wanted.has(checked.url)) wanted.set(checked.url, { ...r, url: checked.url });
        }
        for (const url of context.urls) if (!wanted.has(url)) enqueue.stopChild(url);
        enqueue.assign({ urls: context.urls.filter((u) => wanted.has(u)) });
        for (const entry of wanted.values()) {
          if (context.urls.includes(entry.url)) enqueue.sendTo(entry.url, { type: 'SET_FLAGS', read: entry.read, write: entry.write });
          else enqueue.raise({ type: 'SPAWN', entry });
        }
      }),
    },
    SET_FLAGS: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        if (context.urls.includes(event.url)) enqueue.sendTo(event.url, { type: 'SET_FLAGS', read: event.read, write: event.write });
      }),
    },
    CONNECT_ALL: {
      actions: enqueueActions(({ context, enqueue }) => {
        if (isSuspended(context)) return;
        // Relays with a live or opening socket ignore CONNECT: only closed ones reconnect.
        for (const url of context.urls) enqueue.sendTo(url, { type: 'CONNECT' });
      }),
    },
    SUSPEND: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        enqueue.assign({ suspendedBy: { ...context.suspendedBy, [event.reason]: true } });
        if (isSuspended(context)) return;
        for (const url of context.urls) enqueue.sendTo(url, { type: 'SUSPEND' });
      }),
    },
    RESUME: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const suspendedBy = { ...context.suspendedBy, [event.reason]: false };
        enqueue.assign({ suspendedBy });
        // Asleep and proxied are independent: waking while proxied keeps relays suspended.
        if (!isSuspended(context) || suspendedBy.proxy || suspendedBy.sleep) return;
        for (const url of context.urls) enqueue.sendTo(url, { type: 'RESUME' });
      }),
    },
    SUBSCRIBE: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        enqueue.assign({ subs: { ...context.subs, [event.subId]: event.filters } });
        for (const url of context.urls) enqueue.sendTo(url, { type: 'SUBSCRIBE', subId: event.subId, filters: event.filters });
      }),
    },
    UNSUBSCRIBE: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        if (!(event.subId in context.subs)) return;
        const { [event.subId]: _gone, ...subs } = context.subs;
        enqueue.assign({ subs });
        for (const url of context.urls) enqueue.sendTo(url, { type: 'UNSUBSCRIBE', subId: event.subId });
      }),
    },
  },
});

/** The relay machine of one URL, if the pool has it. */
export function relayOf(snapshot: RelayPoolSnapshot, url: string): RelayActor | undefined {
  return snapshot.context.urls.includes(url) ? (snapshot.children[url] as RelayActor | undefined) : undefined;
}

export type RelayPoolActor = ActorRefFrom<typeof relayPoolMachine>;
export type RelayPoolSnapshot = SnapshotFrom<typeof relayPoolMachine>;
