/**
 * The signed-in account (spec §3 Account state, §4 Follow/Mute/Like/Membership). Pure: loading
 * the stored record, fetching lists, signing and publishing, and the membership check are actors
 * the worker provides. Actions queue and run one at a time, so two quick follows cannot publish
 * two contact lists built from the same base.
 */
import { assign, emit, enqueueActions, fromPromise, raise, setup, type SnapshotFrom } from 'xstate';
import { PREMIUM_REMINDER_INTERVAL_MS } from '../core/config.ts';
import type { AccountAction, AccountRecord, ActionResult, MembershipTier, NostrEvent, RelayFlags } from '../core/types.ts';
import type { KeyState } from './login.ts';
import {
  applyList,
  applyLocal,
  applyPublished,
  FETCHED_LISTS,
  isListAction,
  isLocal,
  likeDraft,
  listOf,
  normalizeRecord,
  planChange,
  type Draft,
  type ListName,
  type Plan,
  type RemoteList,
} from './accountLists.ts';

export interface QueuedAction {
  id: number;
  action: AccountAction;
}

export interface PublishOutput {
  success: boolean;
  reasons: string[];
  event?: NostrEvent;
}

export interface AccountContext {
  pubkey?: string;
  record?: AccountRecord;
  keyState: KeyState;
  queue: QueuedAction[];
  current?: QueuedAction;
  draft?: Draft;
  /** The last reminder was cleared longer than the interval ago. */
  reminderDue: boolean;
}

export type AccountEvent =
  | { type: 'SET_USER'; pubkey?: string; keyState: KeyState }
  | { type: 'KEY_STATE'; keyState: KeyState }
  | { type: 'ACTION'; id: number; action: AccountAction }
  | { type: 'PIN_CANCELLED' }
  | { type: 'SET_RELAY_SNAPSHOT'; relays: Record<string, RelayFlags> }
  | { type: 'REMINDER_CHANGED' }
  /** A purchase or rename went through: ask the server again, so every tab shows the new tier. */
  | { type: 'MEMBERSHIP_CHANGED' };

export type AccountEmitted = { type: 'done'; id: number; result: ActionResult } | { type: 'needPin' };

function missing<T, I>(name: string) {
  return fromPromise<T, I>(async () => {
    throw new Error(`account: the ${name} actor must be provided with machine.provide()`);
  });
}

function planOf(context: AccountContext): Plan {
  const action = context.current?.action;
  if (!context.record || !action || !isListAction(action)) return { kind: 'ignored' };
  return planChange(context.record, action);
}

function draftOf(context: AccountContext): Draft | undefined {
  const plan = planOf(context);
  return plan.kind === 'ignored' ? undefined : plan.draft;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const failure = (code: string, reasons?: string[]): ActionResult => (reasons ? { ok: false, code, reasons } : { ok: false, code });

export const accountMachine = setup({
  types: {
    context: {} as AccountContext,
    events: {} as AccountEvent,
    emitted: {} as AccountEmitted,
  },
  actors: {
    loadRecord: missing<AccountRecord | undefined, { pubkey: string }>('loadRecord'),
    /** Every list in FETCHED_LISTS as the cache server has it (null: none there). */
    fetchLists: missing<Partial<Record<ListName, RemoteList | null>>, { pubkey: string; lists: readonly ListName[] }>('fetchLists'),
    fetchList: missing<RemoteList | null, { pubkey: string; list: ListName }>('fetchList'),
    /** Signs the draft (encrypting private tags to oneself) and publishes it. */
    publish: missing<PublishOutput, { draft: Draft }>('publish'),
    /** The membership tier; undefined when the server does not answer. */
    checkMembership: missing<MembershipTier | undefined, { pubkey: string }>('checkMembership'),
  },
  delays: {
    reminderCheck: ({ context }) => {
      const left = (context.record?.premiumReminder ?? 0) + PREMIUM_REMINDER_INTERVAL_MS - Date.now();
      return left > 0 ? left : PREMIUM_REMINDER_INTERVAL_MS;
    },
  },
  guards: {
    noUser: ({ context }) => context.pubkey === undefined,
    noPubkeyIn: ({ event }) => event.type === 'SET_USER' && !event.pubkey,
    samePubkey: ({ context, event }) => event.type === 'SET_USER' && event.pubkey === context.pubkey,
    isRepairAction: ({ event }) => event.type === 'ACTION' && event.action.type === 'repairFollows',
    isConfirm: ({ event }) => event.type === 'ACTION' && event.action.type === 'repairFollows' && event.action.confirm,
    localNow: ({ context, event }) => event.type === 'ACTION' && context.record !== undefined && isLocal(event.action),
    hasQueue: ({ context }) => context.queue.length > 0,
    currentLocal: ({ context }) => !!context.current && isLocal(context.current.action),
    keyNone: ({ context }) => context.keyState === 'none',
    keyReadOnly: ({ context }) => context.keyState === 'readonly',
    keyWaiting: ({ context }) => context.keyState === 'pin' || context.keyState === 'pending',
    eventSign: ({ event }) => event.type === 'KEY_STATE' && event.keyState === 'sign',
    eventDecided: ({ event }) => event.type === 'KEY_STATE' && event.keyState !== 'pin' && event.keyState !== 'pending',
    alreadyLiked: ({ context }) =>
      context.current?.action.type === 'like' && !!context.record?.likes.includes(context.current.action.note.id),
    isLike: ({ context }) => context.current?.action.type === 'like',
    needsFetch: ({ context }) =>
      !!context.current && isListAction(context.current.action) && FETCHED_LISTS.includes(listOf(context.current.action)),
    planIgnored: ({ context }) => planOf(context).kind === 'ignored',
    planRepair: ({ context }) => planOf(context).kind === 'repair',
    published: ({ event }) => 'output' in event && (event.output as PublishOutput).success,
    canSign: ({ context }) => context.keyState === 'sign',
  },
  actions: {
    setTier: assign(({ context }, params: { tier: MembershipTier }) => ({
      record: context.record && { ...context.record, membershipTier: params.tier },
    })),
    setKeyState: assign({ keyState: ({ context, event }) => ('keyState' in event ? event.keyState : context.keyState) }),
    finish: enqueueActions(({ context, enqueue }, params: { result: ActionResult }) => {
      if (context.current) enqueue.emit({ type: 'done' as const, id: context.current.id, result: params.result });
      enqueue.assign({ current: undefined, draft: undefined });
    }),
    failAll: enqueueActions(({ context, enqueue }) => {
      const all = context.current ? [context.current, ...context.queue] : context.queue;
      for (const q of all) enqueue.emit({ type: 'done' as const, id: q.id, result: failure('no-pubkey') });
      enqueue.assign({ queue: [], current: undefined, draft: undefined });
    }),
    answerEvent: emit(({ event }, params: { result: ActionResult }) => ({
      type: 'done' as const,
      id: event.type === 'ACTION' ? event.id : -1,
      result: params.result,
    })),
  },
}).createMachine({
  id: 'account',
  initial: 'noUser',
  context: { keyState: 'none', queue: [], reminderDue: false },
  on: {
    SET_USER: [
      {
        guard: 'noPubkeyIn',
        target: '.noUser',
        actions: ['failAll', assign({ pubkey: undefined, record: undefined, keyState: 'none' as const, reminderDue: false })],
      },
      { guard: 'samePubkey', actions: 'setKeyState' },
      {
        target: '.loading',
        actions: [
          'failAll',
          assign(({ event }) => ({ pubkey: event.pubkey, keyState: event.keyState, record: undefined, reminderDue: false })),
        ],
      },
    ],
    KEY_STATE: { actions: 'setKeyState' },
    ACTION: [
      { guard: 'noUser', actions: { type: 'answerEvent', params: { result: failure('no-pubkey') } } },
      { guard: 'isRepairAction', actions: { type: 'answerEvent', params: { result: failure('ignored') } } },
      {
        guard: 'localNow',
        actions: [
          assign({ record: ({ context, event }) => context.record && applyLocal(context.record, event.action) }),
          { type: 'answerEvent', params: { result: { ok: true } } },
          raise({ type: 'REMINDER_CHANGED' }),
        ],
      },
      { actions: assign({ queue: ({ context, event }) => [...context.queue, { id: event.id, action: event.action }] }) },
    ],
    SET_RELAY_SNAPSHOT: {
      actions: assign({ record: ({ context, event }) => context.record && { ...context.record, relaySettings: event.relays } }),
    },
  },
  states: {
    noUser: {},
    loading: {
      invoke: {
        src: 'loadRecord',
        input: ({ context }) => ({ pubkey: context.pubkey ?? '' }),
        onDone: { target: 'ready', actions: assign({ record: ({ context, event }) => normalizeRecord(context.pubkey ?? '', event.output) }) },
        onError: { target: 'ready', actions: assign({ record: ({ context }) => normalizeRecord(context.pubkey ?? '', undefined) }) },
      },
    },
    ready: {
      type: 'parallel',
      states: {
        ops: {
          initial: 'syncing',
          states: {
            syncing: {
              invoke: {
                src: 'fetchLists',
                input: ({ context }) => ({ pubkey: context.pubkey ?? '', lists: FETCHED_LISTS }),
                onDone: {
                  target: 'idle',
                  actions: assign({
                    record: ({ context, event }) => {
                      let record = context.record;
                      if (!record) return record;
                      for (const list of FETCHED_LISTS) record = applyList(record, list, event.output[list]);
                      return record;
                    },
                  }),
                },
                onError: 'idle',
              },
            },
            idle: {
              always: { guard: 'hasQueue', target: 'dispatch' },
            },
            dispatch: {
              entry: assign(({ context }) => ({ current: context.queue[0], queue: context.queue.slice(1) })),
              always: [
                {
                  guard: 'currentLocal',
                  target: 'idle',
                  actions: [
                    assign({ record: ({ context }) => context.record && context.current && applyLocal(context.record, context.current.action) }),
                    { type: 'finish', params: { result: { ok: true } } },
                    raise({ type: 'REMINDER_CHANGED' }),
                  ],
                },
                { target: 'gate' },
              ],
            },
            /** Spec §4: refused without a key; a PIN-protected key opens the PIN prompt first. */
            gate: {
              always: [
                { guard: 'keyNone', target: 'idle', actions: { type: 'finish', params: { result: failure('no-pubkey') } } },
                { guard: 'keyReadOnly', target: 'idle', actions: { type: 'finish', params: { result: failure('sign-no-nsec') } } },
                { guard: 'keyWaiting', target: 'awaitingKey' },
                { guard: 'alreadyLiked', target: 'idle', actions: { type: 'finish', params: { result: { ok: true, code: 'ignored' } } } },
                {
                  guard: 'isLike',
                  target: 'publishing',
                  actions: assign({ draft: ({ context }) => (context.current?.action.type === 'like' ? likeDraft(context.current.action.note) : undefined) }),
                },
                { guard: 'needsFetch', target: 'fetching' },
                { target: 'planning' },
              ],
            },
            awaitingKey: {
              entry: enqueueActions(({ context, enqueue }) => {
                if (context.keyState === 'pin') enqueue.emit({ type: 'needPin' as const });
              }),
              on: {
                KEY_STATE: [{ guard: 'eventDecided', target: 'gate', actions: 'setKeyState' }, { actions: 'setKeyState' }],
                PIN_CANCELLED: { target: 'idle', actions: { type: 'finish', params: { result: failure('sign-no-nsec') } } },
              },
            },
            /** Spec §4: the latest remote list first; only a newer one replaces the stored one. */
            fetching: {
              invoke: {
                src: 'fetchList',
                input: ({ context }) => ({
                  pubkey: context.pubkey ?? '',
                  list: context.current && isListAction(context.current.action) ? listOf(context.current.action) : 'contacts',
                }),
                onDone: {
                  target: 'planning',
                  actions: assign({
                    record: ({ context, event }) =>
                      context.record && context.current && isListAction(context.current.action)
                        ? applyList(context.record, listOf(context.current.action), event.output)
                        : context.record,
                  }),
                },
                // Publishing over a list we could not read could wipe changes made elsewhere.
                onError: { target: 'idle', actions: { type: 'finish', params: ({ event }) => ({ result: failure(errorText(event.error)) }) } },
              },
            },
            planning: {
              always: [
                { guard: 'planIgnored', target: 'idle', actions: { type: 'finish', params: { result: { ok: true, code: 'ignored' } } } },
                {
                  guard: 'planRepair',
                  target: 'repair',
                  actions: assign({ draft: ({ context }) => draftOf(context) }),
                },
                { target: 'publishing', actions: assign({ draft: ({ context }) => draftOf(context) }) },
              ],
            },
            /** Spec §4: fewer than 2 contacts would result; the repair dialog decides. */
            repair: {
              on: {
                ACTION: [
                  {
                    guard: 'isConfirm',
                    target: 'publishing',
                    actions: { type: 'answerEvent', params: { result: { ok: true } } },
                  },
                  {
                    guard: 'isRepairAction',
                    target: 'idle',
                    actions: [
                      { type: 'answerEvent', params: { result: { ok: true } } },
                      { type: 'finish', params: { result: failure('follow-repair-cancelled') } },
                    ],
                  },
                ],
              },
            },
            publishing: {
              invoke: {
                src: 'publish',
                input: ({ context }) => ({ draft: context.draft ?? { kind: 1, tags: [], content: '', after: 0 } }),
                onDone: [
                  {
                    guard: 'published',
                    target: 'idle',
                    actions: [
                      assign({
                        record: ({ context, event }) =>
                          context.record && context.current && event.output.event
                            ? applyPublished(context.record, context.current.action, event.output.event, context.draft)
                            : context.record,
                      }),
                      { type: 'finish', params: { result: { ok: true } } },
                    ],
                  },
                  {
                    target: 'idle',
                    actions: { type: 'finish', params: ({ event }) => ({ result: failure('publish-failed', event.output.reasons) }) },
                  },
                ],
                onError: {
                  target: 'idle',
                  actions: { type: 'finish', params: ({ event }) => ({ result: failure(errorText(event.error)) }) },
                },
              },
            },
          },
        },
        /** Spec §4 Membership: checked once the key is set; no answer means tier none. */
        membership: {
          initial: 'deciding',
          states: {
            deciding: {
              always: [{ guard: 'canSign', target: 'checking' }, { target: 'waiting' }],
            },
            waiting: {
              on: { KEY_STATE: { guard: 'eventSign', target: 'checking', actions: 'setKeyState' } },
            },
            checking: {
              invoke: {
                src: 'checkMembership',
                input: ({ context }) => ({ pubkey: context.pubkey ?? '' }),
                onDone: { target: 'known', actions: { type: 'setTier', params: ({ event }) => ({ tier: event.output ?? 'none' }) } },
                onError: { target: 'known', actions: { type: 'setTier', params: { tier: 'none' } } },
              },
            },
            known: {
              on: { MEMBERSHIP_CHANGED: { guard: 'canSign', target: 'checking' } },
            },
          },
        },
        /** Due when the last clearing is older than the 7-day interval; re-checked when it elapses. */
        reminder: {
          initial: 'evaluating',
          states: {
            evaluating: {
              always: {
                target: 'counting',
                actions: assign({
                  reminderDue: ({ context }) => Date.now() - (context.record?.premiumReminder ?? 0) >= PREMIUM_REMINDER_INTERVAL_MS,
                }),
              },
            },
            counting: {
              after: { reminderCheck: { target: 'evaluating', reenter: true } },
              on: { REMINDER_CHANGED: 'evaluating' },
            },
          },
        },
      },
    },
  },
});

export type AccountSnapshotState = SnapshotFrom<typeof accountMachine>;

/** Spec §4: shown to users who are neither premium nor legend, once the interval has passed. */
export function showPremiumReminder(snap: AccountSnapshotState): boolean {
  const record = snap.context.record;
  return !!record && snap.context.reminderDue && record.membershipTier === 'none';
}

/** The follow-list repair dialog is open. */
export function followRepairOpen(snap: AccountSnapshotState): boolean {
  return snap.matches({ ready: { ops: 'repair' } });
}
