/**
 * Activity and sleep (spec §4 "Activity"). Tabs report mouse, scroll and key activity; when no
 * tab has reported any for 5 minutes the app sleeps. Pure: the machine only emits what should
 * happen (`sleep`, `wake`, `proxy`); the worker closes and reopens the sockets.
 */
import { assign, emit, setup, type SnapshotFrom } from 'xstate';
import { INACTIVITY_MS, WAKE_UP_MS } from '../core/config.ts';
import type { ActivityState } from '../core/types.ts';

export type ActivityEvent = { type: 'ACTIVITY'; tabId: string } | { type: 'SET_PROXY'; on: boolean };

export interface ActivityContext {
  /** 'Proxy through the cache server': relays stay suspended and publishing goes through the cache socket. */
  proxy: boolean;
  /** Tab that reported the latest activity; for diagnostics. */
  lastTab?: string;
}

export interface ActivityInput {
  proxy?: boolean;
}

/**
 * sleep: close the cache socket and, when `proxy` is off, suspend the relays.
 * wake: reconnect the cache socket and, when `proxy` is off, resume the relays.
 * proxy: suspend every relay (on) or reconnect them (off).
 */
export type ActivityEmitted = { type: 'sleep'; proxy: boolean } | { type: 'wake'; proxy: boolean } | { type: 'proxy'; on: boolean };

export const activityMachine = setup({
  types: {
    context: {} as ActivityContext,
    events: {} as ActivityEvent,
    input: {} as ActivityInput,
    emitted: {} as ActivityEmitted,
  },
  delays: { inactivity: INACTIVITY_MS, wakeUp: WAKE_UP_MS },
  actions: {
    noteTab: assign({ lastTab: ({ event }) => (event.type === 'ACTIVITY' ? event.tabId : undefined) }),
    setProxy: assign({ proxy: ({ context, event }) => (event.type === 'SET_PROXY' ? event.on : context.proxy) }),
    emitSleep: emit(({ context }) => ({ type: 'sleep' as const, proxy: context.proxy })),
    emitWake: emit(({ context }) => ({ type: 'wake' as const, proxy: context.proxy })),
    emitProxy: emit(({ context }) => ({ type: 'proxy' as const, on: context.proxy })),
  },
  guards: {
    proxyChanges: ({ context, event }) => event.type === 'SET_PROXY' && event.on !== context.proxy,
  },
}).createMachine({
  id: 'activity',
  context: ({ input }) => ({ proxy: input.proxy ?? false }),
  initial: 'awake',
  on: {
    SET_PROXY: { guard: 'proxyChanges', actions: ['setProxy', 'emitProxy'] },
  },
  states: {
    awake: {
      type: 'parallel',
      states: {
        phase: {
          initial: 'woke',
          states: {
            waking: { after: { wakeUp: 'woke' } },
            woke: {},
          },
        },
        // Every report from any tab restarts the count, so sleep needs silence in all of them.
        idle: {
          initial: 'counting',
          states: {
            counting: {
              after: { inactivity: '#activity.sleeping' },
              on: { ACTIVITY: { target: 'counting', reenter: true, actions: 'noteTab' } },
            },
          },
        },
      },
    },
    sleeping: {
      entry: 'emitSleep',
      on: { ACTIVITY: { target: '#activity.awake.phase.waking', actions: ['noteTab', 'emitWake'] } },
    },
  },
});

export type ActivitySnapshotOf = SnapshotFrom<typeof activityMachine>;

export function activityStateOf(snapshot: ActivitySnapshotOf): ActivityState {
  if (snapshot.matches('sleeping')) return 'sleeping';
  if (snapshot.matches({ awake: { phase: 'waking' } })) return 'waking';
  return 'woke';
}
