/**
 * Spec §4 Notifications: the unread count (a long-lived notification_counts subscription that is
 * open only while someone is signed in, the key is known and the user is active), the
 * notification list (100 newest, then 20 older a page) and the mobile-release download badge.
 * Pure: the subscription, the requests and the storage are actors the worker provides.
 */
import { assign, emit, fromCallback, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { FeedNote, FeedStatus, MobileRelease, NotificationItem, NotificationTypeGroup, Profile } from '../core/types.ts';

/** Spec §9: notifications 100 newest and 20 older. */
export const NOTIFICATIONS_FIRST_PAGE = 100;
export const NOTIFICATIONS_MORE_PAGE = 20;

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

// ---------------------------------------------------------------- the unread count

export interface CountContext {
  pubkey?: string;
  active: boolean;
  count: number;
}

export type CountEvent =
  | { type: 'USER'; pubkey?: string }
  | { type: 'ACTIVE'; active: boolean }
  | { type: 'COUNT'; count: number }
  | { type: 'MARK_SEEN' }
  /** The same user can now sign (a PIN-protected key was unlocked): the private counts need a new signed subscription. */
  | { type: 'RESUBSCRIBE' };

export type CountEmitted = { type: 'seen'; ok: boolean; code?: string };

const missingSubscription = fromCallback<CountEvent, { pubkey: string }>(() => {
  throw new Error('notificationCount: the countSubscription actor must be provided with machine.provide()');
});
const missingMarkSeen = fromPromise<void, { pubkey: string }>(async () => {
  throw new Error('notificationCount: the markSeen actor must be provided with machine.provide()');
});

export const notificationCountMachine = setup({
  types: {
    context: {} as CountContext,
    events: {} as CountEvent,
    input: {} as { pubkey?: string; active?: boolean },
    emitted: {} as CountEmitted,
  },
  actors: { countSubscription: missingSubscription, markSeen: missingMarkSeen },
  guards: {
    canSubscribe: ({ context }) => context.pubkey !== undefined && context.active,
    otherUser: ({ context, event }) => event.type === 'USER' && event.pubkey !== context.pubkey,
    hasUser: ({ context }) => context.pubkey !== undefined,
  },
}).createMachine({
  id: 'notificationCount',
  type: 'parallel',
  context: ({ input }) => ({ pubkey: input.pubkey, active: input.active ?? true, count: 0 }),
  on: {
    // Another account (or none): drop the old subscription and count; `off` resubscribes when it may.
    USER: {
      guard: 'otherUser',
      target: ['.subscription.off', '.reset.idle'],
      reenter: true,
      actions: assign(({ event }) => ({ pubkey: event.type === 'USER' ? event.pubkey : undefined, count: 0 })),
    },
    ACTIVE: { actions: assign({ active: ({ event }) => (event.type === 'ACTIVE' ? event.active : true) }) },
  },
  states: {
    subscription: {
      initial: 'off',
      states: {
        off: { always: { guard: 'canSubscribe', target: 'on' } },
        on: {
          // Leaving `on` stops the actor, and its cleanup sends CLOSE.
          invoke: { src: 'countSubscription', input: ({ context }) => ({ pubkey: context.pubkey ?? '' }) },
          always: { guard: ({ context }) => !(context.pubkey !== undefined && context.active), target: 'off' },
          on: {
            COUNT: { actions: assign({ count: ({ event }) => (event.type === 'COUNT' ? event.count : 0) }) },
            RESUBSCRIBE: { target: 'on', reenter: true },
          },
        },
      },
    },
    reset: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            MARK_SEEN: [
              // The badge clears at once; the server's next push agrees once it stored the mark.
              { guard: 'hasUser', target: 'marking', actions: assign({ count: 0 }) },
              { actions: emit({ type: 'seen', ok: false, code: 'no-pubkey' }) },
            ],
          },
        },
        marking: {
          invoke: {
            src: 'markSeen',
            input: ({ context }) => ({ pubkey: context.pubkey ?? '' }),
            onDone: { target: 'idle', actions: [assign({ count: 0 }), emit({ type: 'seen', ok: true })] },
            onError: { target: 'idle', actions: emit(({ event }) => ({ type: 'seen' as const, ok: false, code: errorText(event.error) })) },
          },
          on: { MARK_SEEN: {} },
        },
      },
    },
  },
});

export type NotificationCountSnapshotOf = SnapshotFrom<typeof notificationCountMachine>;

/** The web client's rule (protocol S §1.5): the sum of every key of 10000112 except kind and pubkey. */
export function sumNotificationCounts(obj: Record<string, unknown>): number {
  let total = 0;
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'kind' || key === 'pubkey') continue;
    const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
    if (Number.isFinite(n)) total += n;
  }
  return total;
}

// ---------------------------------------------------------------- the notification list

export interface FetchNotificationsInput {
  pubkey: string;
  typeGroup: NotificationTypeGroup;
  limit: number;
  until?: number;
}

export interface NotificationPage {
  notifications: NotificationItem[];
  notes: Record<string, FeedNote>;
  users: Record<string, Profile>;
}

export interface NotificationListContext extends NotificationPage {
  pubkey: string;
  typeGroup: NotificationTypeGroup;
  hasMore: boolean;
  error?: string;
}

export type NotificationListEvent = { type: 'LOAD_MORE' } | { type: 'RETRY' } | { type: 'SELECT'; typeGroup: NotificationTypeGroup };

const missingFetchNotifications = fromPromise<NotificationPage, FetchNotificationsInput>(async () => {
  throw new Error('notifications: the fetchNotifications actor must be provided with machine.provide()');
});

/** The oldest created_at shown: the next page asks `until` = this (inclusive, so the boundary repeats). */
export function oldestNotification(items: NotificationItem[]): number | undefined {
  let oldest: number | undefined;
  for (const n of items) oldest = oldest === undefined ? n.created_at : Math.min(oldest, n.created_at);
  return oldest;
}

function withoutKnownNotifications(items: NotificationItem[], known: NotificationItem[] = []): NotificationItem[] {
  const ids = new Set(known.map((n) => n.id));
  const out: NotificationItem[] = [];
  for (const n of items) {
    if (ids.has(n.id)) continue;
    ids.add(n.id);
    out.push(n);
  }
  return out;
}

export const notificationListMachine = setup({
  types: {
    context: {} as NotificationListContext,
    events: {} as NotificationListEvent,
    input: {} as { pubkey: string; typeGroup: NotificationTypeGroup },
  },
  actors: { fetchNotifications: missingFetchNotifications },
  guards: { hasMore: ({ context }) => context.hasMore },
}).createMachine({
  id: 'notificationList',
  initial: 'loading',
  context: ({ input }) => ({ pubkey: input.pubkey, typeGroup: input.typeGroup, notifications: [], notes: {}, users: {}, hasMore: true }),
  on: {
    SELECT: {
      target: '.loading',
      reenter: true,
      actions: assign(({ event }) => ({ typeGroup: event.type === 'SELECT' ? event.typeGroup : 'all', notifications: [], notes: {}, users: {}, hasMore: true, error: undefined })),
    },
  },
  states: {
    loading: {
      invoke: {
        src: 'fetchNotifications',
        input: ({ context }) => ({ pubkey: context.pubkey, typeGroup: context.typeGroup, limit: NOTIFICATIONS_FIRST_PAGE }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => {
            const notifications = withoutKnownNotifications(event.output.notifications);
            return { notifications, notes: event.output.notes, users: event.output.users, hasMore: notifications.length > 0, error: undefined };
          }),
        },
        onError: { target: 'error', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    ready: { on: { LOAD_MORE: { guard: 'hasMore', target: 'loadingMore' } } },
    loadingMore: {
      invoke: {
        src: 'fetchNotifications',
        input: ({ context }) => ({
          pubkey: context.pubkey,
          typeGroup: context.typeGroup,
          limit: NOTIFICATIONS_MORE_PAGE,
          until: oldestNotification(context.notifications),
        }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => {
            const added = withoutKnownNotifications(event.output.notifications, context.notifications);
            return {
              notifications: added.length ? [...context.notifications, ...added] : context.notifications,
              notes: { ...context.notes, ...event.output.notes },
              users: { ...context.users, ...event.output.users },
              hasMore: added.length > 0,
              error: undefined,
            };
          }),
        },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    error: { on: { RETRY: 'loading', LOAD_MORE: 'loading' } },
  },
});

export type NotificationListSnapshotOf = SnapshotFrom<typeof notificationListMachine>;

export function notificationListStatus(snap: NotificationListSnapshotOf): FeedStatus {
  if (snap.matches('loading')) return 'loading';
  if (snap.matches('loadingMore')) return 'loadingMore';
  if (snap.matches('error')) return 'error';
  return 'ready';
}

// ---------------------------------------------------------------- the download badge

export interface Releases {
  ios?: MobileRelease;
  android?: MobileRelease;
}

export interface Acknowledged {
  ios?: string;
  android?: string;
}

export interface ReleasesContext {
  releases: Releases;
  acknowledged: Acknowledged;
  badge: boolean;
}

export type ReleasesEvent = { type: 'ACKNOWLEDGE' } | { type: 'REFRESH' };

/** Numeric dotted versions, segment by segment: 1.1.10 is newer than 1.1.9. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** Spec §4: a release counts when it is newer than the acknowledged version and already released. */
export function releaseBadge(releases: Releases, acknowledged: Acknowledged, nowSec: number): boolean {
  return (['ios', 'android'] as const).some((platform) => {
    const r = releases[platform];
    if (!r || r.date > nowSec) return false;
    const seen = acknowledged[platform];
    return seen === undefined || compareVersions(r.version, seen) > 0;
  });
}

/** Milliseconds until the next announced-but-unreleased release comes out, if any. */
export function nextReleaseDelay(releases: Releases, nowMs: number): number | undefined {
  let next: number | undefined;
  for (const r of [releases.ios, releases.android]) {
    if (!r) continue;
    const ms = r.date * 1000 - nowMs;
    if (ms > 0) next = next === undefined ? ms : Math.min(next, ms);
  }
  return next;
}

const nowSec = () => Math.floor(Date.now() / 1000);

const missingLoadReleases = fromPromise<{ releases: Releases; acknowledged: Acknowledged }>(async () => {
  throw new Error('releases: the loadReleases actor must be provided with machine.provide()');
});
const missingSaveAcknowledged = fromPromise<void, Acknowledged>(async () => {
  throw new Error('releases: the saveAcknowledged actor must be provided with machine.provide()');
});

export const releasesMachine = setup({
  types: { context: {} as ReleasesContext, events: {} as ReleasesEvent },
  actors: { loadReleases: missingLoadReleases, saveAcknowledged: missingSaveAcknowledged },
  delays: { untilRelease: ({ context }) => nextReleaseDelay(context.releases, Date.now()) ?? 0 },
  guards: { upcoming: ({ context }) => nextReleaseDelay(context.releases, Date.now()) !== undefined },
  actions: { rate: assign({ badge: ({ context }) => releaseBadge(context.releases, context.acknowledged, nowSec()) }) },
}).createMachine({
  id: 'releases',
  initial: 'loading',
  context: { releases: {}, acknowledged: {}, badge: false },
  on: {
    ACKNOWLEDGE: {
      target: '.saving',
      actions: assign(({ context }) => ({
        acknowledged: { ...context.acknowledged, ios: context.releases.ios?.version, android: context.releases.android?.version },
        badge: false,
      })),
    },
  },
  states: {
    loading: {
      invoke: {
        src: 'loadReleases',
        onDone: { target: 'ready', actions: [assign(({ event }) => ({ ...event.output })), 'rate'] },
        // No answer: no badge, rather than a badge for nothing.
        onError: 'ready',
      },
    },
    ready: {
      entry: 'rate',
      initial: 'check',
      states: {
        check: { always: [{ guard: 'upcoming', target: 'waiting' }, { target: 'settled' }] },
        // A release announced for later starts counting the moment it comes out.
        waiting: { after: { untilRelease: { target: '#releases.ready', reenter: true } } },
        settled: {},
      },
      on: { REFRESH: 'loading' },
    },
    saving: {
      invoke: { src: 'saveAcknowledged', input: ({ context }) => context.acknowledged, onDone: 'ready', onError: 'ready' },
    },
  },
});

export type ReleasesSnapshotOf = SnapshotFrom<typeof releasesMachine>;
