/**
 * Spec §4 Thread: a thread (or an article with its replies) is cleared, then loaded — the parent
 * chain oldest first, the focused note, the replies. Reposts are resolved once the whole answer
 * is in (after EOSE): those whose reposted note the answer did not carry are fetched and filled
 * in. A focused note that does not exist ends in notFound (the UI's missing-note placeholder).
 * Pure: requests are the `fetchThread` and `resolveReposts` actors the worker provides.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { FeedNote, Profile, ThreadStatus, ThreadTarget } from '../core/types.ts';

/** Spec §9: a thread page is 100. */
export const THREAD_LIMIT = 100;

/** A repost whose reposted note was not in the answer. */
export interface UnresolvedRepost {
  /** The repost's id: the item's key in the thread. */
  key: string;
  /** The reposted note's id. */
  target: string;
  repostedBy: Profile;
  repostedAt: number;
}

export interface ThreadPage {
  /** Item keys in display order. */
  parents: string[];
  focus?: string;
  replies: string[];
  notes: Record<string, FeedNote>;
  unresolved: UnresolvedRepost[];
}

export interface ThreadContext extends ThreadPage {
  target: ThreadTarget;
  userPubkey?: string;
  error?: string;
}

export type ThreadEvent =
  | { type: 'LOAD'; target?: ThreadTarget }
  /** The signed-in viewer changed (a login settling after the page opened): loaded again for them, keeping what shows meanwhile. */
  | { type: 'SET_VIEWER'; userPubkey?: string };

export interface FetchThreadInput {
  target: ThreadTarget;
  limit: number;
  userPubkey?: string;
}

function empty(): ThreadPage {
  return { parents: [], replies: [], notes: {}, unresolved: [] };
}

/** The reposts filled with the notes they repost; those still missing stay out of the thread. */
export function fillReposts(page: ThreadPage, found: Record<string, FeedNote>): Record<string, FeedNote> {
  const notes = { ...page.notes };
  for (const r of page.unresolved) {
    const inner = found[r.target];
    if (inner) notes[r.key] = { ...inner, key: r.key, repostedBy: r.repostedBy, repostedAt: r.repostedAt };
  }
  return notes;
}

export const threadMachine = setup({
  types: {
    context: {} as ThreadContext,
    events: {} as ThreadEvent,
    input: {} as { target: ThreadTarget; userPubkey?: string },
  },
  actors: {
    fetchThread: fromPromise<ThreadPage, FetchThreadInput>(async () => {
      throw new Error('thread: the fetchThread actor must be provided with machine.provide()');
    }),
    resolveReposts: fromPromise<Record<string, FeedNote>, { ids: string[]; userPubkey?: string }>(async () => {
      throw new Error('thread: the resolveReposts actor must be provided with machine.provide()');
    }),
  },
  guards: {
    missing: ({ context }) => context.focus === undefined || context.notes[context.focus] === undefined,
    hasUnresolved: ({ context }) => context.unresolved.length > 0,
  },
}).createMachine({
  id: 'thread',
  initial: 'loading',
  context: ({ input }) => ({ target: input.target, userPubkey: input.userPubkey, ...empty() }),
  on: {
    SET_VIEWER: {
      guard: ({ context, event }) => event.userPubkey !== context.userPubkey,
      target: '.loading',
      reenter: true,
      actions: assign({ userPubkey: ({ event }) => event.userPubkey }),
    },
    // Cleared first, so the old thread never shows under the new address.
    LOAD: {
      target: '.loading',
      reenter: true,
      actions: assign(({ context, event }) => ({ target: event.target ?? context.target, ...empty(), error: undefined })),
    },
  },
  states: {
    loading: {
      invoke: {
        src: 'fetchThread',
        input: ({ context }) => ({ target: context.target, limit: THREAD_LIMIT, userPubkey: context.userPubkey }),
        onDone: { target: 'loaded', actions: assign(({ event }) => ({ ...event.output })) },
        onError: { target: 'error', actions: assign({ error: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)) }) },
      },
    },
    loaded: {
      always: [{ guard: 'hasUnresolved', target: 'resolving' }, { guard: 'missing', target: 'notFound' }, { target: 'ready' }],
    },
    resolving: {
      invoke: {
        src: 'resolveReposts',
        input: ({ context }) => ({ ids: [...new Set(context.unresolved.map((r) => r.target))], userPubkey: context.userPubkey }),
        onDone: { target: 'settled', actions: assign(({ context, event }) => ({ notes: fillReposts(context, event.output), unresolved: [] })) },
        // Reposts that cannot be resolved are left out; the rest of the thread still shows.
        onError: { target: 'settled', actions: assign({ unresolved: [] }) },
      },
    },
    settled: { always: [{ guard: 'missing', target: 'notFound' }, { target: 'ready' }] },
    ready: {},
    notFound: {},
    error: {},
  },
});

export type ThreadMachineSnapshot = SnapshotFrom<typeof threadMachine>;

export function threadStatusOf(snap: ThreadMachineSnapshot): ThreadStatus {
  if (snap.matches('resolving')) return 'resolving';
  if (snap.matches('ready')) return 'ready';
  if (snap.matches('notFound')) return 'notFound';
  if (snap.matches('error')) return 'error';
  return 'loading';
}

/** The keys in order, each to its note; keys without a note (unresolved reposts) are skipped. */
export function threadNotes(ctx: ThreadPage, keys: string[]): FeedNote[] {
  const out: FeedNote[] = [];
  for (const k of keys) if (ctx.notes[k]) out.push(ctx.notes[k]);
  return out;
}
