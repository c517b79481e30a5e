/**
 * The cache-server socket (spec §4 "Cache-server socket"). Pure: the WebSocket itself is the
 * `socket` callback actor the worker provides; this machine only decides when to open, close,
 * handshake, queue and retry. Incoming frames leave as emitted `messages` events.
 */
import { assign, emit, enqueueActions, fromCallback, raise, sendTo, setup, type SnapshotFrom } from 'xstate';
import { encodeHandshake, handshakeSubid, type ServerMessage } from '../core/protocol.ts';
import { RECONNECT_DELAY_MS, RESET_DELAY_MS, SEND_RETRY_MS } from '../core/config.ts';
import type { SocketState } from '../core/types.ts';

/** What the machine tells the socket actor. */
export type SocketCommand = { type: 'SOCKET.SEND'; data: string };

/** What the socket actor reports back. */
export type SocketFeedback =
  | { type: 'SOCKET.OPEN' }
  | { type: 'SOCKET.CLOSED' }
  | { type: 'SOCKET.MESSAGES'; messages: ServerMessage[] }
  /** The socket was no longer open when asked to send; the data goes back into the queue. */
  | { type: 'SOCKET.SEND_FAILED'; data: string };

export interface SocketActorInput {
  url: string;
  devMode: boolean;
}

export type CacheSocketEvent =
  | { type: 'CONNECT'; url?: string; noBinary?: boolean; devMode?: boolean }
  | { type: 'DISCONNECT' }
  | { type: 'RESET' }
  | { type: 'SEND'; data: string }
  | { type: 'FLUSH' }
  | SocketFeedback;

export interface CacheSocketContext {
  url: string;
  appId: string;
  noBinary: boolean;
  devMode: boolean;
  connected: boolean;
  shouldReconnect: boolean;
  /** Outgoing frames waiting for a connected socket, oldest first. */
  queue: string[];
}

export interface CacheSocketInput {
  url: string;
  appId: string;
  noBinary?: boolean;
  devMode?: boolean;
}

export type CacheSocketEmitted = { type: 'messages'; messages: ServerMessage[] };

/** The worker must provide the real socket; running without one is a wiring error worth failing loudly. */
const missingSocket = fromCallback<SocketCommand, SocketActorInput>(() => {
  throw new Error('cacheSocket: the socket actor must be provided with machine.provide()');
});

export const cacheSocketMachine = setup({
  types: {
    context: {} as CacheSocketContext,
    events: {} as CacheSocketEvent,
    input: {} as CacheSocketInput,
    emitted: {} as CacheSocketEmitted,
    children: {} as { socket: 'socket' },
  },
  actors: { socket: missingSocket },
  delays: {
    reconnect: RECONNECT_DELAY_MS,
    sendRetry: SEND_RETRY_MS,
    reset: RESET_DELAY_MS,
  },
  guards: {
    noBinary: ({ context }) => context.noBinary,
    canTransmit: ({ context }) => context.connected && context.queue.length === 0,
    isConnected: ({ context }) => context.connected,
    isHandshakeAck: ({ context, event }) =>
      event.type === 'SOCKET.MESSAGES' &&
      event.messages.some((m) => m.type === 'EOSE' && m.subid === handshakeSubid(context.appId)),
  },
  actions: {
    applyConnect: assign(({ context, event }) =>
      event.type === 'CONNECT'
        ? {
            url: event.url ?? context.url,
            noBinary: event.noBinary ?? context.noBinary,
            devMode: event.devMode ?? context.devMode,
          }
        : {},
    ),
    forward: emit(({ event }) => ({
      type: 'messages' as const,
      messages: event.type === 'SOCKET.MESSAGES' ? event.messages : [],
    })),
    transmit: sendTo('socket', ({ event }) => ({
      type: 'SOCKET.SEND' as const,
      data: event.type === 'SEND' ? event.data : '',
    })),
    enqueue: assign({
      queue: ({ context, event }) =>
        event.type === 'SEND' || event.type === 'SOCKET.SEND_FAILED' ? [...context.queue, event.data] : context.queue,
    }),
    flush: enqueueActions(({ context, enqueue }) => {
      for (const data of context.queue) enqueue.sendTo('socket', { type: 'SOCKET.SEND', data });
      enqueue.assign({ queue: [] });
    }),
    handshake: sendTo('socket', ({ context }) => ({ type: 'SOCKET.SEND' as const, data: encodeHandshake(context.appId) })),
  },
}).createMachine({
  id: 'cacheSocket',
  type: 'parallel',
  context: ({ input }) => ({
    url: input.url,
    appId: input.appId,
    noBinary: input.noBinary ?? false,
    devMode: input.devMode ?? false,
    connected: false,
    shouldReconnect: false,
    queue: [],
  }),
  states: {
    connection: {
      initial: 'idle',
      states: {
        idle: {
          on: { CONNECT: { target: 'online', actions: 'applyConnect' }, RESET: 'resetting' },
        },
        online: {
          entry: assign({ shouldReconnect: true }),
          invoke: {
            id: 'socket',
            src: 'socket',
            input: ({ context }) => ({ url: context.url, devMode: context.devMode }),
          },
          initial: 'connecting',
          on: {
            // Every close that reaches here was not asked for: DISCONNECT and RESET leave
            // `online` first, which stops the socket actor before it can report a close.
            'SOCKET.CLOSED': 'waiting',
            'SOCKET.MESSAGES': { actions: 'forward' },
            DISCONNECT: 'closed',
            RESET: 'resetting',
          },
          states: {
            connecting: {
              on: {
                'SOCKET.OPEN': [{ guard: 'noBinary', target: 'connected' }, { target: 'handshaking' }],
              },
            },
            handshaking: {
              entry: 'handshake',
              on: {
                'SOCKET.MESSAGES': [
                  { guard: 'isHandshakeAck', target: 'connected', actions: 'forward' },
                  { actions: 'forward' },
                ],
              },
            },
            connected: {
              entry: [assign({ connected: true }), raise({ type: 'FLUSH' })],
              exit: assign({ connected: false }),
            },
          },
        },
        waiting: {
          after: { reconnect: 'online' },
          on: { CONNECT: { target: 'online', actions: 'applyConnect' }, DISCONNECT: 'closed', RESET: 'resetting' },
        },
        resetting: {
          after: { reset: 'online' },
          on: { DISCONNECT: 'closed' },
        },
        closed: {
          entry: assign({ shouldReconnect: false }),
          on: { CONNECT: { target: 'online', actions: 'applyConnect' }, RESET: 'resetting' },
        },
      },
    },
    outbox: {
      initial: 'empty',
      on: {
        SEND: [{ guard: 'canTransmit', actions: 'transmit' }, { target: '.pending', actions: 'enqueue' }],
        'SOCKET.SEND_FAILED': { target: '.pending', actions: 'enqueue' },
      },
      states: {
        empty: {},
        pending: {
          on: { FLUSH: { target: 'empty', actions: 'flush' } },
          after: {
            sendRetry: [
              { guard: 'isConnected', target: 'empty', actions: 'flush' },
              { target: 'pending', reenter: true },
            ],
          },
        },
      },
    },
  },
});

export type CacheSocketSnapshot = SnapshotFrom<typeof cacheSocketMachine>;

/** The connection region as the flat state name of core/types.ts SocketState. */
export function socketStateOf(snapshot: CacheSocketSnapshot): SocketState {
  if (snapshot.matches({ connection: { online: 'connected' } })) return 'connected';
  if (snapshot.matches({ connection: { online: 'handshaking' } })) return 'handshaking';
  if (snapshot.matches({ connection: { online: 'connecting' } })) return 'connecting';
  if (snapshot.matches({ connection: 'waiting' })) return 'waiting';
  if (snapshot.matches({ connection: 'resetting' })) return 'resetting';
  if (snapshot.matches({ connection: 'closed' })) return 'closed';
  return 'idle';
}
