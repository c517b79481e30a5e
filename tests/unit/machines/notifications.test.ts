import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import {
  compareVersions,
  notificationCountMachine,
  notificationListMachine,
  notificationListStatus,
  releaseBadge,
  releasesMachine,
  sumNotificationCounts,
  type Acknowledged,
  type CountEvent,
  type FetchNotificationsInput,
  type NotificationPage,
  type Releases,
} from '../../../machines/notifications.ts';
import { NotificationService, parseNotifications, parseReleases, type ReleaseStore } from '../../../worker/notifications.ts';
import type { Subscription, SubscriptionHandlers } from '../../../worker/cache.ts';
import type { CacheReply, NotificationCountSnapshot, NotificationItem, NotificationsSnapshot, ReleasesSnapshot } from '../../../core/types.ts';

const ME = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const flush = () => vi.advanceTimersByTimeAsync(0);

function countHarness(input: { pubkey?: string; active?: boolean } = {}) {
  const opened: string[] = [];
  const closed: string[] = [];
  let push: ((e: CountEvent) => void) | undefined;
  const marks: { pubkey: string; resolve: () => void; reject: (e: Error) => void }[] = [];
  const machine = notificationCountMachine.provide({
    actors: {
      countSubscription: fromCallback<CountEvent, { pubkey: string }>(({ input: i, sendBack }) => {
        opened.push(i.pubkey);
        push = sendBack;
        return () => closed.push(i.pubkey);
      }),
      markSeen: fromPromise<void, { pubkey: string }>(({ input: i }) => new Promise<void>((resolve, reject) => marks.push({ pubkey: i.pubkey, resolve, reject }))),
    },
  });
  const actor = createActor(machine, { input });
  const seen: { ok: boolean; code?: string }[] = [];
  actor.on('seen', (e) => seen.push({ ok: e.ok, code: e.code }));
  actor.start();
  const subscribed = () => actor.getSnapshot().matches({ subscription: 'on' });
  return { actor, opened, closed, marks, seen, subscribed, push: (count: number) => push?.({ type: 'COUNT', count }) };
}

describe('notification count machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is unsubscribed without a user, subscribes on login, CLOSEs on logout', () => {
    const h = countHarness();
    expect(h.subscribed()).toBe(false);
    expect(h.opened).toEqual([]);
    h.actor.send({ type: 'USER', pubkey: ME });
    expect(h.subscribed()).toBe(true);
    expect(h.opened).toEqual([ME]);
    h.push(7);
    expect(h.actor.getSnapshot().context.count).toBe(7);
    h.actor.send({ type: 'USER', pubkey: undefined });
    expect(h.subscribed()).toBe(false);
    expect(h.closed).toEqual([ME]);
    expect(h.actor.getSnapshot().context.count).toBe(0);
  });

  it('RESUBSCRIBE (a PIN unlock: the same user can now sign) closes and reopens the subscription; without one open it does nothing', () => {
    const h = countHarness({ pubkey: ME });
    h.push(3);
    h.actor.send({ type: 'RESUBSCRIBE' });
    expect(h.closed).toEqual([ME]);
    expect(h.opened).toEqual([ME, ME]);
    expect(h.subscribed()).toBe(true);
    h.actor.send({ type: 'ACTIVE', active: false });
    h.actor.send({ type: 'RESUBSCRIBE' });
    expect(h.opened).toEqual([ME, ME]);
  });

  it('sleep closes the subscription and waking opens it again; a repeated USER does not resubscribe', () => {
    const h = countHarness({ pubkey: ME });
    expect(h.opened).toEqual([ME]);
    h.actor.send({ type: 'USER', pubkey: ME });
    expect(h.opened).toEqual([ME]);
    h.actor.send({ type: 'ACTIVE', active: false });
    expect(h.subscribed()).toBe(false);
    expect(h.closed).toEqual([ME]);
    h.actor.send({ type: 'USER', pubkey: OTHER });
    expect(h.opened).toEqual([ME]);
    h.actor.send({ type: 'ACTIVE', active: true });
    expect(h.opened).toEqual([ME, OTHER]);
  });

  it('switching accounts closes the old subscription before opening the new one', () => {
    const h = countHarness({ pubkey: ME });
    h.actor.send({ type: 'USER', pubkey: OTHER });
    expect(h.closed).toEqual([ME]);
    expect(h.opened).toEqual([ME, OTHER]);
  });

  it('MARK_SEEN zeroes the count and signs the reset for the user; without a user it is refused', async () => {
    const none = countHarness();
    none.actor.send({ type: 'MARK_SEEN' });
    expect(none.seen).toEqual([{ ok: false, code: 'no-pubkey' }]);
    expect(none.marks).toHaveLength(0);

    const h = countHarness({ pubkey: ME });
    h.push(5);
    h.actor.send({ type: 'MARK_SEEN' });
    expect(h.actor.getSnapshot().context.count).toBe(0);
    expect(h.marks.map((m) => m.pubkey)).toEqual([ME]);
    h.marks[0].resolve();
    await flush();
    expect(h.seen).toEqual([{ ok: true }]);
    h.actor.send({ type: 'MARK_SEEN' });
    h.marks[1].reject(new Error('sign-no-nsec'));
    await flush();
    expect(h.seen.at(-1)).toEqual({ ok: false, code: 'sign-no-nsec' });
  });

  it('sums every key of 10000112 except kind and pubkey', () => {
    expect(sumNotificationCounts({ kind: 10000112, pubkey: ME, '1': 2, '3': 1, '6': 4, '101': 0 })).toBe(7);
  });
});

function notification(id: string, createdAt: number, type = 4): NotificationItem {
  return { id, type, created_at: createdAt, pubkey: ME, args: {} };
}

describe('notification list machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function start(typeGroup: 'all' | 'zaps' = 'all') {
    const calls: { input: FetchNotificationsInput; resolve: (p: NotificationPage) => void }[] = [];
    const machine = notificationListMachine.provide({
      actors: { fetchNotifications: fromPromise<NotificationPage, FetchNotificationsInput>(({ input }) => new Promise((resolve) => calls.push({ input, resolve }))) },
    });
    const actor = createActor(machine, { input: { pubkey: ME, typeGroup } });
    actor.start();
    return { actor, calls };
  }
  const page = (items: NotificationItem[]): NotificationPage => ({ notifications: items, notes: {}, users: {} });

  it('loads 100 newest, then 20 older with until = the oldest created_at; stops when nothing is new', async () => {
    const { actor, calls } = start();
    expect(calls[0].input).toEqual({ pubkey: ME, typeGroup: 'all', limit: 100 });
    calls[0].resolve(page([notification('n1', 300), notification('n2', 200)]));
    await flush();
    expect(notificationListStatus(actor.getSnapshot())).toBe('ready');
    actor.send({ type: 'LOAD_MORE' });
    expect(notificationListStatus(actor.getSnapshot())).toBe('loadingMore');
    expect(calls[1].input).toEqual({ pubkey: ME, typeGroup: 'all', limit: 20, until: 200 });
    calls[1].resolve(page([notification('n2', 200), notification('n3', 100)]));
    await flush();
    expect(actor.getSnapshot().context.notifications.map((n) => n.id)).toEqual(['n1', 'n2', 'n3']);
    actor.send({ type: 'LOAD_MORE' });
    expect(calls[2].input.until).toBe(100);
    calls[2].resolve(page([notification('n3', 100)]));
    await flush();
    expect(actor.getSnapshot().context.hasMore).toBe(false);
    actor.send({ type: 'LOAD_MORE' });
    expect(calls).toHaveLength(3);
  });

  it('selecting a type group clears the list and loads that group', async () => {
    const { actor, calls } = start();
    calls[0].resolve(page([notification('n1', 300)]));
    await flush();
    actor.send({ type: 'SELECT', typeGroup: 'zaps' });
    expect(actor.getSnapshot().context.notifications).toEqual([]);
    expect(calls[1].input).toEqual({ pubkey: ME, typeGroup: 'zaps', limit: 100 });
  });
});

describe('download badge', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('counts an iOS or Android release newer than the acknowledged one and already released', () => {
    const now = 2_000_000_000;
    const out = { version: '1.2.0', date: now - 10 };
    expect(releaseBadge({ ios: out }, { ios: '1.1.10' }, now)).toBe(true);
    expect(releaseBadge({ ios: out }, { ios: '1.2.0' }, now)).toBe(false);
    expect(releaseBadge({ android: { version: '0.91.2', date: now - 1 } }, { android: '0.91.10' }, now)).toBe(false);
    // Not yet released: no badge, however new.
    expect(releaseBadge({ android: { version: '9.0.0', date: now + 60 } }, {}, now)).toBe(false);
    expect(compareVersions('1.1.10', '1.1.9')).toBeGreaterThan(0);
  });

  it('a release dated later starts counting when that moment comes; acknowledging stores the versions', async () => {
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const nowSec = Math.floor(Date.now() / 1000);
    const releases: Releases = { ios: { version: '2.0.0', date: nowSec + 3600 } };
    const saved: Acknowledged[] = [];
    const machine = releasesMachine.provide({
      actors: {
        loadReleases: fromPromise<{ releases: Releases; acknowledged: Acknowledged }>(async () => ({ releases, acknowledged: { ios: '1.1.10' } })),
        saveAcknowledged: fromPromise<void, Acknowledged>(async ({ input }) => void saved.push(input)),
      },
    });
    const actor = createActor(machine).start();
    await flush();
    expect(actor.getSnapshot().context.badge).toBe(false);
    await vi.advanceTimersByTimeAsync(3600_000);
    expect(actor.getSnapshot().context.badge).toBe(true);
    actor.send({ type: 'ACKNOWLEDGE' });
    await flush();
    expect(actor.getSnapshot().context.badge).toBe(false);
    expect(saved).toEqual([{ ios: '2.0.0', android: undefined }]);
    actor.stop();
  });

  it('reads get_app_releases', () => {
    const r = parseReleases([{ kind: 10000138, content: JSON.stringify({ ios: { date: 1714521600, version: '1.1.10' }, android: { date: 1714521600, version: '0.91.2' } }) }]);
    expect(r).toEqual({ ios: { date: 1714521600, version: '1.1.10' }, android: { date: 1714521600, version: '0.91.2' } });
  });
});

describe('notification service', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function service(replies: Record<string, CacheReply> = {}) {
    const subs: { command: string; payload?: Record<string, unknown>; handlers: SubscriptionHandlers; closed: boolean }[] = [];
    const requests: { command: string; payload?: Record<string, unknown> }[] = [];
    const stored: Acknowledged[] = [];
    const store: ReleaseStore = { load: async () => ({}), save: async (a) => void stored.push(a) };
    const svc = new NotificationService({
      request: async (command, payload) => {
        requests.push({ command, payload });
        return replies[command] ?? { events: [] };
      },
      subscribe: (command, payload, handlers): Subscription => {
        const entry = { command, payload, handlers, closed: false };
        subs.push(entry);
        return { subid: `s${subs.length}`, close: () => void (entry.closed = true) };
      },
      signRequest: async (op) => ({ id: 'x', pubkey: ME, created_at: Math.floor(Date.now() / 1000), kind: 30078, tags: [['d', 'Primal-Web App', op]], content: '', sig: 's' }),
      releases: store,
      throttleMs: 0,
    });
    return { svc, subs, requests, stored };
  }

  it('subscribes notification_counts for the user, sums pushes, closes when asleep and resets with a signed event', async () => {
    const { svc, subs, requests } = service();
    const seen: NotificationCountSnapshot[] = [];
    svc.watchCount('t1', (s) => seen.push(s), () => undefined);
    svc.setUser(ME);
    await flush();
    expect(subs).toHaveLength(1);
    // The counts are private: the subscription carries the user's fresh signed request.
    expect(subs[0]).toMatchObject({ command: 'notification_counts', payload: { pubkey: ME, event_from_user: { tags: [['d', 'Primal-Web App', 'notification_counts']] } } });
    subs[0].handlers.onEvent({ kind: 10000112, pubkey: ME, '1': 1, '4': 2 });
    expect(seen.at(-1)).toEqual({ count: 3, subscribed: true });
    svc.setActive(false);
    expect(subs[0].closed).toBe(true);
    svc.setActive(true);
    await flush();
    expect(subs).toHaveLength(2);
    expect(await svc.markSeen()).toEqual({ ok: true });
    const reset = requests.find((r) => r.command === 'set_notifications_seen');
    expect((reset?.payload?.event_from_user as { tags: string[][] }).tags).toEqual([['d', 'Primal-Web App', 'notifications_laste_seen']]);
    expect(seen.at(-1)?.count).toBe(0);
    svc.dispose();
    expect(subs[1].closed).toBe(true);
  });

  it('opens a list with limit 100 and type_group, and the badge follows acknowledgement', async () => {
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const { svc, requests, stored } = service({
      get_app_releases: { events: [{ kind: 10000138, content: JSON.stringify({ ios: { date: 1714521600, version: '1.1.10' } }) }] },
    });
    svc.setUser(ME);
    const lists: NotificationsSnapshot[] = [];
    svc.openList('t1', 'replies', (s) => lists.push(s), () => undefined);
    await flush();
    expect(requests.find((r) => r.command === 'get_notifications')?.payload).toMatchObject({ pubkey: ME, limit: 100, type_group: 'replies', user_pubkey: ME });
    const badges: ReleasesSnapshot[] = [];
    svc.watchReleases('t1', (s) => badges.push(s), () => undefined);
    await flush();
    expect(badges.at(-1)?.badge).toBe(true);
    svc.acknowledgeRelease();
    await flush();
    expect(badges.at(-1)?.badge).toBe(false);
    expect(stored.at(-1)).toMatchObject({ ios: '1.1.10' });
    svc.closeTab('t1');
    svc.dispose();
  });

  it('parses notifications with their roles, notes and users', () => {
    const post = { id: 'e'.repeat(64), pubkey: ME, created_at: 10, kind: 1, tags: [], content: 'hello', sig: 's' };
    const page = parseNotifications([
      { kind: 10000110, content: JSON.stringify({ id: 'n1', pubkey: ME, created_at: 20, type: 3, your_post: post.id, who_zapped_it: OTHER, satszapped: 21, message: 'köszi' }) },
      { kind: 10000105, content: JSON.stringify({ pubkey: OTHER, followers_count: 9 }) },
      post,
      { kind: 0, pubkey: OTHER, id: 'p'.repeat(64), created_at: 1, tags: [], content: '{"name":"bob"}', sig: 's' },
    ]);
    expect(page.notifications[0]).toMatchObject({ id: 'n1', type: 3, actor: OTHER, post: post.id, satszapped: 21, message: 'köszi' });
    expect(page.notes[post.id].event.content).toBe('hello');
    expect(page.users[OTHER]).toMatchObject({ name: 'bob', followers: 9 });
  });
});
