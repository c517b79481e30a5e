/**
 * One Nostr relay connection (spec §4 "Relay connection"). Pure: the WebSocket is the `socket`
 * callback actor the worker provides. The machine decides when to connect, how often to retry,
 * which subscriptions to (re)send and with which `since`, so that a dropped connection loses nothing.
 */
import { assign, enqueueActions, fromCallback, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import {
  RELAY_ATTEMPT_LIMIT_MESSAGE,
  RELAY_RECONNECT_ATTEMPTS,
  RELAY_RECONNECT_BASE_MS,
} from '../core/config.ts';
import type { NostrEvent, RelayFilter, RelayState } from '../core/types.ts';
import type { SocketCommand } from './cacheSocket.ts';

/** A frame a relay sends (NIP-01), already parsed by the socket actor. */
export type RelayMessage =
  | { type: 'EVENT'; subId: string; event: NostrEvent }
  | { type: 'EOSE'; subId: string }
  | { type: 'OK'; id: string; ok: boolean; message: string }
  | { type: 'CLOSED'; subId: string; message: string }
  | { type: 'NOTICE'; message: string }
  /** NIP-42: the relay's challenge, answered only when a request needs it. */
  | { type: 'AUTH'; challenge: string };

export interface RelaySocketInput {
  url: string;
}

export type RelaySocketFeedback =
  | { type: 'RELAY.OPEN' }
  | { type: 'RELAY.CLOSED' }
  | { type: 'RELAY.MESSAGE'; message: RelayMessage };

export interface RelayFlags {
  read: boolean;
  write: boolean;
}

interface RememberedSub {
  filters: RelayFilter[];
  /**
   * Set when the connection dropped while the subscription was open: the next REQ asks only for
   * what came after. Cleared at its EOSE, so a second drop before it keeps the earlier, safer time.
   */
  resumeSince?: number;
  /** Refused with `auth-required:` (NIP-42): sent again once an AUTH is accepted. */
  waitingAuth?: boolean;
}

export type RelayEvent =
  | { type: 'CONNECT' }
  | { type: 'DISCONNECT' }
  | { type: 'SUSPEND' }
  | { type: 'RESUME' }
  | { type: 'SET_FLAGS'; read: boolean; write: boolean }
  | { type: 'SUBSCRIBE'; subId: string; filters: RelayFilter[] }
  | { type: 'UNSUBSCRIBE'; subId: string }
  | { type: 'PUBLISH'; event: NostrEvent }
  /** Answers the connection's challenge with this signed kind-22242 event. */
  | { type: 'AUTHENTICATE'; event: NostrEvent }
  | RelaySocketFeedback;

export interface RelayContext extends RelayFlags {
  url: string;
  attempts: number;
  error?: string;
  connected: boolean;
  /** Unix seconds when the last good connection ended; undefined once every sub caught up. */
  droppedAt?: number;
  subs: Record<string, RememberedSub>;
  now: () => number;
  /** The challenge of the current connection, and the id of our answer to it while unconfirmed. */
  challenge?: string;
  authId?: string;
}

export interface RelayInput {
  url: string;
  read?: boolean;
  write?: boolean;
  /** Unix seconds; tests pin it. */
  now?: () => number;
}

export type RelayEmitted = { type: 'message'; url: string; message: RelayMessage };

const missingSocket = fromCallback<SocketCommand, RelaySocketInput>(() => {
  throw new Error('relay: the socket actor must be provided with machine.provide()');
});

// The URL check is shared with the pages (core/): they may not import machines/.
export { checkRelayUrl, type RelayUrlCheck } from '../core/relayUrl.ts';

function reqFrame(subId: string, sub: RememberedSub): string {
  const filters =
    sub.resumeSince === undefined
      ? sub.filters
      : // A resumed REQ drops its limit: a capped page could cut off part of what was missed.
        sub.filters.map(({ limit: _limit, ...f }) => ({ ...f, since: Math.max(f.since ?? 0, sub.resumeSince ?? 0) }));
  return JSON.stringify(['REQ', subId, ...filters]);
}

export const relayMachine = setup({
  types: {
    context: {} as RelayContext,
    events: {} as RelayEvent,
    input: {} as RelayInput,
    emitted: {} as RelayEmitted,
    children: {} as { socket: 'socket' },
  },
  actors: { socket: missingSocket },
  delays: {
    // attempts counts reconnects already made: 0 → 1 s, 1 → 2 s, 2 → 4 s.
    reconnect: ({ context }) => RELAY_RECONNECT_BASE_MS * 2 ** context.attempts,
  },
  guards: {
    attemptsLeft: ({ context }) => context.attempts < RELAY_RECONNECT_ATTEMPTS,
    isConnected: ({ context }) => context.connected,
  },
  actions: {
    /** Remembers when a working connection ended, and marks every open subscription to resume from then. */
    markDropped: assign(({ context }) => {
      if (!context.connected) return {};
      const at = context.droppedAt ?? context.now();
      const subs: Record<string, RememberedSub> = {};
      for (const [id, sub] of Object.entries(context.subs)) subs[id] = { ...sub, resumeSince: sub.resumeSince ?? at };
      return { droppedAt: at, subs, connected: false, challenge: undefined, authId: undefined };
    }),
    resubscribe: enqueueActions(({ context, enqueue }) => {
      if (!context.read) return;
      for (const [id, sub] of Object.entries(context.subs)) enqueue.sendTo('socket', { type: 'SOCKET.SEND', data: reqFrame(id, sub) });
    }),
    remember: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'SUBSCRIBE') return;
      const sub: RememberedSub = { filters: event.filters };
      enqueue.assign({ subs: { ...context.subs, [event.subId]: sub } });
      if (context.connected && context.read) enqueue.sendTo('socket', { type: 'SOCKET.SEND', data: reqFrame(event.subId, sub) });
    }),
    forget: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'UNSUBSCRIBE' || !(event.subId in context.subs)) return;
      const { [event.subId]: _gone, ...rest } = context.subs;
      enqueue.assign({ subs: rest });
      if (context.connected && context.read) enqueue.sendTo('socket', { type: 'SOCKET.SEND', data: JSON.stringify(['CLOSE', event.subId]) });
    }),
    applyFlags: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'SET_FLAGS') return;
      enqueue.assign({ read: event.read, write: event.write });
      if (!context.connected || event.read === context.read) return;
      // Reading switched on or off while connected: open or close every remembered subscription now.
      for (const [id, sub] of Object.entries(context.subs)) {
        const data = event.read ? reqFrame(id, sub) : JSON.stringify(['CLOSE', id]);
        enqueue.sendTo('socket', { type: 'SOCKET.SEND', data });
      }
    }),
    authenticate: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'AUTHENTICATE' || !context.connected) return;
      enqueue.assign({ authId: event.event.id });
      enqueue.sendTo('socket', { type: 'SOCKET.SEND', data: JSON.stringify(['AUTH', event.event]) });
    }),
    publish: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'PUBLISH' || !context.connected) return;
      enqueue.sendTo('socket', { type: 'SOCKET.SEND', data: JSON.stringify(['EVENT', event.event]) });
    }),
    receive: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'RELAY.MESSAGE') return;
      const msg = event.message;
      if (msg.type === 'EOSE' && context.subs[msg.subId]?.resumeSince !== undefined) {
        const sub = context.subs[msg.subId];
        const subs: Record<string, RememberedSub> = { ...context.subs, [msg.subId]: { filters: sub.filters } };
        const caughtUp = Object.values(subs).every((s) => s.resumeSince === undefined);
        enqueue.assign({ subs, droppedAt: caughtUp ? undefined : context.droppedAt });
      }
      if (msg.type === 'AUTH') enqueue.assign({ challenge: msg.challenge });
      // Refused until we authenticate: kept, and sent again after an accepted AUTH.
      if (msg.type === 'CLOSED' && msg.subId in context.subs && msg.message.startsWith('auth-required:')) {
        enqueue.assign({ subs: { ...context.subs, [msg.subId]: { ...context.subs[msg.subId], waitingAuth: true } } });
      } else if (msg.type === 'OK' && msg.id === context.authId) {
        const subs: Record<string, RememberedSub> = {};
        for (const [id, sub] of Object.entries(context.subs)) {
          const { waitingAuth, ...rest } = sub;
          subs[id] = rest;
          if (msg.ok && waitingAuth && context.read) enqueue.sendTo('socket', { type: 'SOCKET.SEND', data: reqFrame(id, rest) });
        }
        enqueue.assign({ authId: undefined, subs: msg.ok ? subs : context.subs });
      } else if (msg.type === 'CLOSED' && msg.subId in context.subs) {
        // The relay ended the subscription itself (NIP-01 CLOSED); sending it again would be refused again.
        const { [msg.subId]: _gone, ...rest } = context.subs;
        enqueue.assign({ subs: rest });
      }
      enqueue.emit({ type: 'message', url: context.url, message: msg });
    }),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    resetAttempts: assign({ attempts: 0, error: undefined }),
    giveUp: assign({ error: RELAY_ATTEMPT_LIMIT_MESSAGE }),
  },
}).createMachine({
  id: 'relay',
  context: ({ input }) => ({
    url: input.url,
    read: input.read ?? true,
    write: input.write ?? true,
    attempts: 0,
    connected: false,
    subs: {},
    now: input.now ?? (() => Math.floor(Date.now() / 1000)),
  }),
  initial: 'idle',
  on: {
    SET_FLAGS: { actions: 'applyFlags' },
    SUBSCRIBE: { actions: 'remember' },
    UNSUBSCRIBE: { actions: 'forget' },
    PUBLISH: { actions: 'publish' },
    AUTHENTICATE: { actions: 'authenticate' },
  },
  states: {
    idle: {
      on: { CONNECT: { target: 'online', actions: 'resetAttempts' }, SUSPEND: 'suspended' },
    },
    online: {
      invoke: { id: 'socket', src: 'socket', input: ({ context }) => ({ url: context.url }) },
      initial: 'connecting',
      // Leaving `online` stops the socket actor, so a close we asked for never reaches RELAY.CLOSED.
      exit: 'markDropped',
      on: {
        'RELAY.CLOSED': [
          { guard: 'attemptsLeft', target: 'waiting' },
          { target: 'failed', actions: 'giveUp' },
        ],
        'RELAY.MESSAGE': { actions: 'receive' },
        SUSPEND: 'suspended',
        DISCONNECT: 'idle',
      },
      states: {
        connecting: {
          on: { 'RELAY.OPEN': 'connected' },
        },
        connected: {
          entry: ['resetAttempts', assign({ connected: true }), 'resubscribe'],
        },
      },
    },
    waiting: {
      after: { reconnect: { target: 'online', actions: 'countAttempt' } },
      on: {
        // The socket is already closed, so an explicit connect may go ahead without waiting.
        CONNECT: { target: 'online', actions: 'countAttempt' },
        SUSPEND: 'suspended',
        DISCONNECT: 'idle',
      },
    },
    failed: {
      on: { CONNECT: { target: 'online', actions: 'resetAttempts' }, SUSPEND: 'suspended', DISCONNECT: 'idle' },
    },
    suspended: {
      on: { RESUME: { target: 'online', actions: 'resetAttempts' }, DISCONNECT: 'idle' },
    },
  },
});

export type RelayActor = ActorRefFrom<typeof relayMachine>;
export type RelaySnapshot = SnapshotFrom<typeof relayMachine>;

export function relayStateOf(snapshot: RelaySnapshot): RelayState {
  if (snapshot.matches({ online: 'connected' })) return 'connected';
  if (snapshot.matches({ online: 'connecting' })) return 'connecting';
  if (snapshot.matches('waiting')) return 'waiting';
  if (snapshot.matches('failed')) return 'failed';
  if (snapshot.matches('suspended')) return 'suspended';
  return 'idle';
}

/** Parses one text frame from a relay; anything not NIP-01 shaped is dropped. */
export function parseRelayFrame(data: string): RelayMessage | undefined {
  let frame: unknown;
  try {
    frame = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!Array.isArray(frame) || typeof frame[0] !== 'string') return undefined;
  const [type, a, b, c] = frame as [string, unknown, unknown, unknown];
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  switch (type) {
    case 'EVENT':
      return typeof a === 'string' && b !== null && typeof b === 'object' ? { type, subId: a, event: b as NostrEvent } : undefined;
    case 'EOSE':
      return typeof a === 'string' ? { type, subId: a } : undefined;
    case 'OK':
      return typeof a === 'string' && typeof b === 'boolean' ? { type, id: a, ok: b, message: str(c) } : undefined;
    case 'CLOSED':
      return typeof a === 'string' ? { type, subId: a, message: str(b) } : undefined;
    case 'NOTICE':
      return { type, message: str(a) };
    case 'AUTH':
      return typeof a === 'string' && a.length > 0 && a.length <= 256 ? { type, challenge: a } : undefined;
    default:
      return undefined;
  }
}
