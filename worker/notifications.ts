/**
 * Runs machines/notifications.ts in the worker: one unread-count machine for every tab (one
 * notification_counts subscription per worker), one list machine per open notifications page,
 * and one releases machine behind the download badge.
 */
import { createActor, fromCallback, fromPromise, type Actor } from 'xstate';
import {
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
} from '../machines/notifications.ts';
import { parseBundle } from '../core/bundle.ts';
import type { CacheRequest } from './feeds.ts';
import { InstanceRegistry, Watchers } from './instances.ts';
import { signedSubscription, type CacheSubscribe, type RequestSigner } from './signedSubscription.ts';
import type { AccountStorage } from './storage.ts';
import type {
  ActionResult,
  CacheObject,
  FeedNote,
  MobileRelease,
  NotificationCountSnapshot,
  NotificationItem,
  NotificationsSnapshot,
  NotificationTypeGroup,
  Profile,
  ReleasesSnapshot,
} from '../core/types.ts';
import { CacheKind } from '../core/kinds.ts';

/** The op of the seen mark, in the web client's spelling (sic), which servers may key on. */
export const NOTIFICATIONS_SEEN_OP = 'notifications_laste_seen';

export type { CacheSubscribe, RequestSigner } from './signedSubscription.ts';
/** The op of the count subscription: the command itself (the reference names no op for it). */
export const NOTIFICATION_COUNTS_OP = 'notification_counts';

const ACTOR_KEYS = [
  'follower',
  'who_zapped_it',
  'who_liked_it',
  'who_reposted_it',
  'who_replied_to_it',
  'you_were_mentioned_by',
  'your_post_was_mentioned_by',
  'who_highlighted_it',
  'who_bookmarked_it',
  'who_reacted',
  'sender',
  'host',
];
const POST_KEYS = ['your_post', 'post_you_were_mentioned_in', 'post_your_post_was_mentioned_in', 'you_were_mentioned_in', 'live_event_id', 'event_id'];
const RELATED_KEYS = ['reply', 'your_post_were_mentioned_in', 'highlight'];

function firstString(obj: Record<string, unknown>, keys: string[], skip?: string): string | undefined {
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === 'string' && v !== '' && v !== skip) return v;
  }
  return undefined;
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One 10000110 content to a NotificationItem; undefined when it is not a notification object. */
export function toNotification(content: unknown): NotificationItem | undefined {
  const n = parseJson(content);
  if (typeof n !== 'object' || n === null || Array.isArray(n)) return undefined;
  const o = n as Record<string, unknown>;
  const type = Number(o.type);
  const createdAt = Number(o.created_at);
  if (!Number.isFinite(type) || !Number.isFinite(createdAt)) return undefined;
  const post = firstString(o, POST_KEYS);
  const item: NotificationItem = {
    // The server's id is a hash of the other fields; without one, the content itself identifies it.
    id: typeof o.id === 'string' ? o.id : `${type}:${createdAt}:${String(content)}`,
    type,
    created_at: createdAt,
    pubkey: typeof o.pubkey === 'string' ? o.pubkey : '',
    args: o,
  };
  const actor = firstString(o, ACTOR_KEYS);
  if (actor) item.actor = actor;
  if (post) item.post = post;
  const related = firstString(o, RELATED_KEYS, post);
  if (related) item.related = related;
  const sats = Number(o.satszapped);
  if (o.satszapped !== undefined && Number.isFinite(sats)) item.satszapped = sats;
  if (typeof o.reaction === 'string') item.reaction = o.reaction;
  if (typeof o.message === 'string') item.message = o.message;
  return item;
}

/** A get_notifications reply (protocol S §3.5): notifications newest first, their notes and users. */
export function parseNotifications(objects: CacheObject[]): NotificationPage {
  const notifications: NotificationItem[] = [];
  const rest: CacheObject[] = [];
  const followers = new Map<string, number>();
  for (const o of objects) {
    if (o.kind === CacheKind.NOTIFICATION) {
      const item = toNotification(o.content);
      if (item) notifications.push(item);
    } else if (o.kind === CacheKind.USER_PROFILE) {
      const c = parseJson(o.content) as { pubkey?: unknown; followers_count?: unknown } | undefined;
      if (c && typeof c.pubkey === 'string' && typeof c.followers_count === 'number') followers.set(c.pubkey, c.followers_count);
    } else rest.push(o);
  }
  const bundle = parseBundle(rest);
  const notes: Record<string, FeedNote> = {};
  for (const n of bundle.notes) notes[n.event.id] = n;
  const users: Record<string, Profile> = { ...bundle.profiles };
  for (const [pk, count] of followers) if (users[pk]) users[pk] = { ...users[pk], followers: count };
  notifications.sort((a, b) => b.created_at - a.created_at);
  return { notifications, notes, users };
}

export async function fetchNotifications(request: CacheRequest, input: FetchNotificationsInput, viewer?: string): Promise<NotificationPage> {
  const payload: Record<string, unknown> = { pubkey: input.pubkey, limit: input.limit, type_group: input.typeGroup };
  if (input.until !== undefined) payload.until = input.until;
  payload.user_pubkey = viewer ?? input.pubkey;
  const reply = await request('get_notifications', payload);
  if (reply.notice !== undefined) throw new Error(reply.notice);
  return parseNotifications(reply.events);
}

function release(v: unknown): MobileRelease | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const r = v as Record<string, unknown>;
  const date = Number(r.date);
  if (typeof r.version !== 'string' || !Number.isFinite(date)) return undefined;
  return { version: r.version, date };
}

/** get_app_releases (10000138 `{ios:{date,version}, android:{...}}`). */
export function parseReleases(objects: CacheObject[]): Releases {
  const obj = objects.find((o) => o.kind === CacheKind.APP_RELEASES) ?? objects.find((o) => typeof o.content === 'string');
  const c = parseJson(obj?.content) as Record<string, unknown> | undefined;
  if (!c || typeof c !== 'object') return {};
  const out: Releases = {};
  const ios = release(c.ios);
  const android = release(c.android);
  if (ios) out.ios = ios;
  if (android) out.android = android;
  return out;
}

export interface ReleaseStore {
  load(): Promise<Acknowledged>;
  save(acknowledged: Acknowledged): Promise<void>;
}

/** Not a pubkey, so it can never meet a user's settings row. */
const RELEASES_KEY = 'strucc:acknowledged-releases';

/**
 * The acknowledged versions kept through the account storage's settings rows (the one keyed
 * store it has), in a row of their own: they belong to the device, not to any account.
 */
export function releaseStoreOn(storage: AccountStorage): ReleaseStore {
  return {
    async load() {
      const row = await storage.loadSettings(RELEASES_KEY);
      const ack = row?.settings.acknowledgedReleases;
      return typeof ack === 'object' && ack !== null ? (ack as Acknowledged) : {};
    },
    async save(acknowledged) {
      await storage.saveSettings(RELEASES_KEY, {
        theme: 'sunrise',
        animated: true,
        settings: { acknowledgedReleases: acknowledged },
        homeFeeds: [],
        readsFeeds: [],
        nwc: null,
        unsaved: [],
      });
    },
  };
}

export interface NotificationServiceOptions {
  request: CacheRequest;
  subscribe: CacheSubscribe;
  signRequest: RequestSigner;
  releases: ReleaseStore;
  throttleMs?: number;
}

const sameCount = (a: NotificationCountSnapshot, b: NotificationCountSnapshot) => a.count === b.count && a.subscribed === b.subscribed;
const sameReleases = (a: ReleasesSnapshot, b: ReleasesSnapshot) => JSON.stringify(a) === JSON.stringify(b);

export class NotificationService {
  readonly count: Actor<typeof notificationCountMachine>;
  private readonly countWatchers = new Watchers<NotificationCountSnapshot>();
  private readonly releaseWatchers = new Watchers<ReleasesSnapshot>();
  private readonly lists: InstanceRegistry<Actor<typeof notificationListMachine>, NotificationsSnapshot>;
  private readonly listMachine;
  private releases?: Actor<typeof releasesMachine>;

  constructor(private readonly options: NotificationServiceOptions) {
    const { request, subscribe, signRequest } = options;
    this.count = createActor(
      notificationCountMachine.provide({
        actors: {
          countSubscription: fromCallback<CountEvent, { pubkey: string }>(({ input, sendBack }) => {
            const sub = signedSubscription(subscribe, signRequest, 'notification_counts', NOTIFICATION_COUNTS_OP, { pubkey: input.pubkey }, {
              onEvent: (e) => {
                if (e.kind === CacheKind.NOTIFICATIONS_SUMMARY) sendBack({ type: 'COUNT', count: sumNotificationCounts(e) });
              },
            });
            return () => sub.close();
          }),
          markSeen: fromPromise(async () => {
            const event = await signRequest(NOTIFICATIONS_SEEN_OP);
            const reply = await request('set_notifications_seen', { event_from_user: event });
            if (reply.notice !== undefined) throw new Error(reply.notice);
          }),
        },
      }),
      { input: { active: true } },
    );
    this.count.subscribe(() => this.countWatchers.emit(this.countSnapshot(), sameCount));
    this.count.start();

    this.listMachine = notificationListMachine.provide({
      actors: { fetchNotifications: fromPromise<NotificationPage, FetchNotificationsInput>(({ input }) => fetchNotifications(request, input)) },
    });
    this.lists = new InstanceRegistry((actor) => {
      const snap = actor.getSnapshot();
      const { context } = snap;
      const out: NotificationsSnapshot = {
        typeGroup: context.typeGroup,
        status: notificationListStatus(snap),
        notifications: context.notifications,
        notes: context.notes,
        users: context.users,
        hasMore: context.hasMore,
      };
      if (context.error !== undefined) out.error = context.error;
      return out;
    }, options.throttleMs);
  }

  /** The signed-in user (undefined when nobody is, or the login has no pubkey yet). */
  setUser(pubkey: string | undefined): void {
    this.count.send({ type: 'USER', pubkey });
  }

  /** Activity: a sleeping app closes the subscription, waking opens it again. */
  setActive(active: boolean): void {
    if (this.count.getSnapshot().context.active !== active) this.count.send({ type: 'ACTIVE', active });
  }

  countSnapshot(): NotificationCountSnapshot {
    const snap = this.count.getSnapshot();
    return { count: snap.context.count, subscribed: snap.matches({ subscription: 'on' }) };
  }

  watchCount(tabId: string, cb: (s: NotificationCountSnapshot) => unknown, release: () => void): number {
    return this.countWatchers.add(tabId, cb, release, this.countSnapshot());
  }

  unwatchCount(handle: number): void {
    this.countWatchers.remove(handle);
  }

  markSeen(): Promise<ActionResult> {
    return new Promise((resolve) => {
      const sub = this.count.on('seen', (e) => {
        sub.unsubscribe();
        resolve(e.ok ? { ok: true } : { ok: false, code: e.code });
      });
      this.count.send({ type: 'MARK_SEEN' });
    });
  }

  openList(tabId: string, typeGroup: NotificationTypeGroup, cb: (s: NotificationsSnapshot) => unknown, release: () => void): number {
    const pubkey = this.count.getSnapshot().context.pubkey ?? '';
    return this.lists.open(tabId, createActor(this.listMachine, { input: { pubkey, typeGroup } }), cb, release);
  }

  loadMore(handle: number): void {
    this.lists.get(handle)?.send({ type: 'LOAD_MORE' });
  }

  selectGroup(handle: number, typeGroup: NotificationTypeGroup): void {
    this.lists.get(handle)?.send({ type: 'SELECT', typeGroup });
  }

  closeList(handle: number): void {
    this.lists.close(handle);
  }

  watchReleases(tabId: string, cb: (s: ReleasesSnapshot) => unknown, release: () => void): number {
    const actor = this.startReleases();
    const handle = this.releaseWatchers.add(tabId, cb, release, this.releasesSnapshot(actor));
    return handle;
  }

  unwatchReleases(handle: number): void {
    this.releaseWatchers.remove(handle);
  }

  acknowledgeRelease(): void {
    this.startReleases().send({ type: 'ACKNOWLEDGE' });
  }

  closeTab(tabId: string): void {
    this.countWatchers.closeTab(tabId);
    this.releaseWatchers.closeTab(tabId);
    this.lists.closeTab(tabId);
  }

  dispose(): void {
    this.countWatchers.dispose();
    this.releaseWatchers.dispose();
    this.lists.dispose();
    this.releases?.stop();
    this.count.stop();
  }

  private releasesSnapshot(actor: Actor<typeof releasesMachine>): ReleasesSnapshot {
    const { releases, acknowledged } = actor.getSnapshot().context;
    const out: ReleasesSnapshot = { acknowledged, badge: releaseBadge(releases, acknowledged, Math.floor(Date.now() / 1000)) };
    if (releases.ios) out.ios = releases.ios;
    if (releases.android) out.android = releases.android;
    return out;
  }

  /** The releases are asked once, by the first tab that shows the badge. */
  private startReleases(): Actor<typeof releasesMachine> {
    if (this.releases) return this.releases;
    const { request, releases: store } = this.options;
    const actor = createActor(
      releasesMachine.provide({
        actors: {
          loadReleases: fromPromise(async () => {
            const [reply, acknowledged] = await Promise.all([request('get_app_releases'), store.load().catch(() => ({}))]);
            return { releases: reply.notice === undefined ? parseReleases(reply.events) : {}, acknowledged };
          }),
          saveAcknowledged: fromPromise<void, Acknowledged>(({ input }) => store.save(input)),
        },
      }),
    );
    this.releases = actor;
    actor.subscribe(() => this.releaseWatchers.emit(this.releasesSnapshot(actor), sameReleases));
    actor.start();
    return actor;
  }
}
