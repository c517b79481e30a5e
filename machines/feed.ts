/**
 * One feed page (spec §4 "Home and reads feeds"): first page, older pages, and polling for newer
 * items that wait behind the new-notes pill. Pure: pages arrive through the `fetchPage` actor the
 * worker provides (mega_feed_directive over the cache socket).
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { FeedNote, FeedStatus } from '../core/types.ts';
import { feedTime } from '../core/bundle.ts';
import { FEED_PAGE_SIZE, FEED_POLL_INTERVAL_MS, FEED_POLL_LIMIT, PENDING_CAP } from '../core/config.ts';

export interface FetchPageInput {
  spec: string;
  limit: number;
  until?: number;
  since?: number;
  userPubkey?: string;
}

export interface FeedPage {
  notes: FeedNote[];
  /** RANGE.since / until of the page: the paging cursor, in the feed's own sort key. */
  since?: number;
  until?: number;
  orderBy?: string;
}

export interface FeedContext {
  spec: string;
  userPubkey?: string;
  notes: FeedNote[];
  pending: FeedNote[];
  /** Ask the next older page with `until` = this (the last page's RANGE.since). */
  cursor?: number;
  orderBy: string;
  hasMore: boolean;
  /** The first page has arrived; until then a poll would race it with the same items. */
  loaded: boolean;
  error?: string;
}

export interface FeedInput {
  spec: string;
  userPubkey?: string;
}

export type FeedEvent =
  | { type: 'LOAD_MORE' }
  | { type: 'SHOW_PENDING' }
  | { type: 'RETRY' }
  | { type: 'SELECT'; spec: string };

const missingFetch = fromPromise<FeedPage, FetchPageInput>(async () => {
  throw new Error('feed: the fetchPage actor must be provided with machine.provide()');
});

/** The `since` of a poll: the newest item the tab has, shown or pending. */
export function newestTime(ctx: Pick<FeedContext, 'notes' | 'pending'>): number | undefined {
  let newest: number | undefined;
  for (const n of ctx.pending) newest = Math.max(newest ?? 0, feedTime(n));
  for (const n of ctx.notes) newest = Math.max(newest ?? 0, feedTime(n));
  return newest;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function withoutKnown(items: FeedNote[], ...known: FeedNote[][]): FeedNote[] {
  const keys = new Set<string>();
  for (const list of known) for (const n of list) keys.add(n.key);
  const out: FeedNote[] = [];
  for (const n of items) {
    if (keys.has(n.key)) continue;
    keys.add(n.key);
    out.push(n);
  }
  return out;
}

export const feedMachine = setup({
  types: {
    context: {} as FeedContext,
    events: {} as FeedEvent,
    input: {} as FeedInput,
  },
  actors: { fetchPage: missingFetch },
  delays: { pollInterval: FEED_POLL_INTERVAL_MS },
  guards: {
    hasMore: ({ context }) => context.hasMore,
    // Spec: new items are checked only when sorted by created_at and fewer than 100 are pending.
    canPoll: ({ context }) => context.loaded && context.orderBy === 'created_at' && context.pending.length < PENDING_CAP,
  },
  actions: {
    reset: assign(({ event, context }) => ({
      spec: event.type === 'SELECT' ? event.spec : context.spec,
      notes: [],
      pending: [],
      cursor: undefined,
      orderBy: 'created_at',
      hasMore: true,
      loaded: false,
      error: undefined,
    })),
  },
}).createMachine({
  id: 'feed',
  type: 'parallel',
  context: ({ input }) => ({
    spec: input.spec,
    userPubkey: input.userPubkey,
    notes: [],
    pending: [],
    orderBy: 'created_at',
    hasMore: true,
    loaded: false,
  }),
  on: {
    SELECT: { target: ['.page.loading', '.poll.waiting'], reenter: true, actions: 'reset' },
    // Valid in every page state: the pending list is independent of paging.
    SHOW_PENDING: {
      actions: assign(({ context }) =>
        context.pending.length === 0
          ? {}
          : { notes: [...withoutKnown(context.pending, context.notes), ...context.notes], pending: [] },
      ),
    },
  },
  states: {
    page: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'fetchPage',
            input: ({ context }) => ({ spec: context.spec, limit: FEED_PAGE_SIZE, userPubkey: context.userPubkey }),
            onDone: {
              target: 'ready',
              actions: assign(({ event }) => {
                const notes = withoutKnown(event.output.notes);
                return {
                  notes,
                  cursor: event.output.since,
                  orderBy: event.output.orderBy ?? 'created_at',
                  hasMore: notes.length > 0 && event.output.since !== undefined,
                  loaded: true,
                  error: undefined,
                };
              }),
            },
            onError: { target: 'error', actions: assign({ error: ({ event }) => errorText(event.error) }) },
          },
        },
        ready: {
          on: { LOAD_MORE: { guard: 'hasMore', target: 'loadingMore' } },
        },
        loadingMore: {
          invoke: {
            src: 'fetchPage',
            input: ({ context }) => ({
              spec: context.spec,
              limit: FEED_PAGE_SIZE,
              until: context.cursor,
              userPubkey: context.userPubkey,
            }),
            onDone: {
              target: 'ready',
              actions: assign(({ context, event }) => {
                // The boundary item comes back again (until = since is inclusive): de-dup by key.
                const added = withoutKnown(event.output.notes, context.notes, context.pending);
                return {
                  notes: added.length > 0 ? [...context.notes, ...added] : context.notes,
                  cursor: event.output.since ?? context.cursor,
                  hasMore: added.length > 0 && event.output.since !== undefined,
                  error: undefined,
                };
              }),
            },
            // Keep what is shown; the next LOAD_MORE tries the same page again.
            onError: { target: 'ready', actions: assign({ error: ({ event }) => errorText(event.error) }) },
          },
        },
        error: {
          on: { RETRY: 'loading', LOAD_MORE: 'loading' },
        },
      },
    },
    poll: {
      initial: 'waiting',
      states: {
        waiting: {
          after: {
            pollInterval: [{ guard: 'canPoll', target: 'polling' }, { target: 'waiting', reenter: true }],
          },
        },
        polling: {
          invoke: {
            src: 'fetchPage',
            input: ({ context }) => ({
              spec: context.spec,
              limit: FEED_POLL_LIMIT,
              since: newestTime(context),
              userPubkey: context.userPubkey,
            }),
            onDone: {
              target: 'waiting',
              actions: assign(({ context, event }) => {
                const fresh = withoutKnown(event.output.notes, context.notes, context.pending);
                if (fresh.length === 0) return {};
                // A since-only query may come back oldest first; the pill shows newest first.
                fresh.sort((a, b) => feedTime(b) - feedTime(a));
                return { pending: [...fresh, ...context.pending].slice(0, PENDING_CAP) };
              }),
            },
            onError: 'waiting',
          },
        },
      },
    },
  },
});

export type FeedMachineSnapshot = SnapshotFrom<typeof feedMachine>;

export function feedStatusOf(snapshot: FeedMachineSnapshot): FeedStatus {
  if (snapshot.matches({ page: 'loading' })) return 'loading';
  if (snapshot.matches({ page: 'loadingMore' })) return 'loadingMore';
  if (snapshot.matches({ page: 'error' })) return 'error';
  return 'ready';
}
