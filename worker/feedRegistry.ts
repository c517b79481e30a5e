/**
 * Per-tab feed instances living in the shared worker. Each runs machines/feed.ts with a fetchPage
 * actor over the cache socket, and streams throttled FeedSnapshots to the tab's callback.
 */
import { createActor, fromPromise, type Actor } from 'xstate';
import { feedMachine, feedStatusOf, type FeedMachineSnapshot, type FeedPage, type FetchPageInput } from '../machines/feed.ts';
import type { FeedNote, FeedSnapshot, Profile } from '../core/types.ts';
import type { CacheRequest } from './util/cacheRequest.ts';
import { notify } from './util/notify.ts';
import { Throttle } from './util/throttle.ts';
import { TabHandles } from './util/tabHandles.ts';
import { parseBundle } from '../core/bundle.ts';
import { FEED_POLL_INTERVAL_MS, SNAPSHOT_THROTTLE_MS } from '../core/config.ts';
import { CACHED_NOTES_PER_FEED, CachedFeedView, type FeedCache } from './feedCache.ts';

/** mega_feed_directive {spec, limit, until?, since?, user_pubkey?} to one FeedPage. */
export async function fetchFeedPage(request: CacheRequest, input: FetchPageInput): Promise<FeedPage> {
  const payload: Record<string, unknown> = { spec: input.spec, limit: input.limit };
  if (input.until !== undefined) payload.until = input.until;
  if (input.since !== undefined) payload.since = input.since;
  if (input.userPubkey) payload.user_pubkey = input.userPubkey;
  // A command call ["explore", {timeframe, scope}] runs through advanced_feed (S §3.7), so a feed can
  // be any ranked command with the same paging; its own arguments (user_pubkey too) win.
  const call = input.spec.startsWith('[');
  if (call) {
    delete payload.spec;
    try {
      payload.specification = JSON.parse(input.spec) as unknown;
    } catch {
      return { notes: [] };
    }
  }
  const reply = await request(call ? 'advanced_feed' : 'mega_feed_directive', payload);
  // A lost answer is worth a retry; a NOTICE is the server's answer (spec §8: an empty result).
  if (reply.notice === 'timeout') throw new Error('timeout');
  if (reply.notice !== undefined) return { notes: [] };
  const { notes, range } = parseBundle(reply.events);
  return { notes, since: range?.since, until: range?.until, orderBy: range?.orderBy };
}

const PILL_AUTHORS = 3;

export function toFeedSnapshot(snapshot: FeedMachineSnapshot): FeedSnapshot {
  const { context } = snapshot;
  const pendingAuthors: Profile[] = [];
  const seen = new Set<string>();
  for (const n of context.pending) {
    const author = n.repostedBy ?? n.author;
    if (seen.has(author.pubkey)) continue;
    seen.add(author.pubkey);
    pendingAuthors.push(author);
    if (pendingAuthors.length === PILL_AUTHORS) break;
  }
  const out: FeedSnapshot = {
    spec: context.spec,
    status: feedStatusOf(snapshot),
    notes: context.notes,
    pendingCount: context.pending.length,
    pendingAuthors,
    hasMore: context.hasMore,
  };
  if (context.error !== undefined) out.error = context.error;
  return out;
}

interface FeedInstance {
  actor: Actor<typeof feedMachine>;
  throttle: Throttle<FeedSnapshot>;
  view: CachedFeedView;
  /** Re-sends the current snapshot (after the cached page or the pill changed what the tab sees). */
  emit: () => void;
  /** Reads the cached page of the current spec. */
  restore: () => void;
  /** Starts the feed over (same spec) for the current viewer. */
  restart: () => void;
}

export interface FeedRegistryOptions {
  request: CacheRequest;
  /** The viewer: the logged-in user, else the guest account (spec §6). */
  userPubkey: () => string | undefined;
  throttleMs?: number;
  /** Paints the last page seen before the network answers, and keeps each network first page. */
  cache?: FeedCache;
}

export class FeedRegistry {
  private readonly feeds = new TabHandles<FeedInstance>();
  private readonly machine;
  private pollMs = FEED_POLL_INTERVAL_MS;

  constructor(private readonly options: FeedRegistryOptions) {
    this.machine = feedMachine.provide({
      actors: { fetchPage: fromPromise<FeedPage, FetchPageInput>(({ input }) => fetchFeedPage(options.request, input)) },
      // Read each time a feed starts waiting, so a devMode tab's interval applies to running feeds too.
      delays: { pollInterval: () => this.pollMs },
    });
  }

  /** A devMode tab's shorter polling (ClientConfig.devTimings); the spec's 30 s otherwise. */
  setPollInterval(ms: number): void {
    this.pollMs = ms;
  }

  open(tabId: string, spec: string, cb: (s: FeedSnapshot) => unknown, release: () => void = () => undefined): number {
    let handle = 0;
    const create = (forSpec: string) => createActor(this.machine, { input: { spec: forSpec, userPubkey: this.options.userPubkey() } });
    let actor = create(spec);
    const throttle = new Throttle<FeedSnapshot>(this.options.throttleMs ?? SNAPSHOT_THROTTLE_MS, (s) => notify(cb, s));
    let previous: FeedSnapshot | undefined;
    const view = new CachedFeedView();
    const cache = this.options.cache;
    let viewer = actor.getSnapshot().context.userPubkey;
    let saved: { spec: string; notes: FeedNote[] } | undefined;
    const emit = (now = false) => {
      const snap = actor.getSnapshot();
      const { spec: currentSpec, loaded, notes } = snap.context;
      // The top of the feed changed (first page, pill opened, pages up to the cached size): keep it.
      if (cache && loaded && notes !== saved?.notes && (saved?.spec !== currentSpec || topChanged(saved.notes, notes))) {
        saved = { spec: currentSpec, notes };
        void cache.savePage(currentSpec, viewer, notes);
      }
      const next = view.apply(toFeedSnapshot(snap), loaded);
      // Poll timers re-enter states without changing anything; only real changes cost a clone.
      if (previous && sameSnapshot(previous, next)) return;
      previous = next;
      if (now) throttle.pushNow(next);
      else throttle.push(next);
    };
    const restore = () => {
      if (!cache) return;
      const forSpec = actor.getSnapshot().context.spec;
      void cache.loadPage(forSpec, viewer).then((notes) => {
        if (!notes || !this.feeds.has(handle) || actor.getSnapshot().context.spec !== forSpec) return;
        if (view.restore(notes)) emit(true);
      });
    };
    let subscription = actor.subscribe(() => emit());
    const instance: FeedInstance = { actor, throttle, view, emit, restore, restart: () => undefined };
    // Notes are ranked and filtered for the viewer (follows, mutes), so a sign-in or sign-out starts the feed over.
    instance.restart = () => {
      const current = actor.getSnapshot().context.spec;
      subscription.unsubscribe();
      actor.stop();
      view.reset();
      saved = undefined;
      actor = create(current);
      viewer = actor.getSnapshot().context.userPubkey;
      instance.actor = actor;
      subscription = actor.subscribe(() => emit());
      actor.start();
      restore();
    };
    handle = this.feeds.add(tabId, instance, () => {
      instance.throttle.cancel();
      instance.actor.stop();
      release();
    });
    actor.start();
    restore();
    return handle;
  }

  /** Starts over every open feed that was opened for another viewer than the current one. */
  refreshViewer(): void {
    const now = this.options.userPubkey();
    for (const feed of this.feeds.values()) if (feed.actor.getSnapshot().context.userPubkey !== now) feed.restart();
  }

  loadMore(handle: number): void {
    this.feeds.get(handle)?.actor.send({ type: 'LOAD_MORE' });
  }

  showPending(handle: number): void {
    const feed = this.feeds.get(handle);
    if (!feed) return;
    feed.view.showPending();
    feed.actor.send({ type: 'SHOW_PENDING' });
    feed.emit();
  }

  select(handle: number, spec: string): void {
    const feed = this.feeds.get(handle);
    if (!feed) return;
    feed.view.reset();
    feed.actor.send({ type: 'SELECT', spec });
    feed.restore();
  }

  retry(handle: number): void {
    this.feeds.get(handle)?.actor.send({ type: 'RETRY' });
  }

  close(handle: number): void {
    this.feeds.close(handle);
  }

  closeTab(tabId: string): void {
    this.feeds.closeTab(tabId);
  }

  get size(): number {
    return this.feeds.size;
  }
}

function sameSnapshot(a: FeedSnapshot, b: FeedSnapshot): boolean {
  return (
    a.spec === b.spec &&
    a.status === b.status &&
    a.notes === b.notes &&
    a.pendingCount === b.pendingCount &&
    a.pendingAuthors.length === b.pendingAuthors.length &&
    a.pendingAuthors.every((p, i) => p.pubkey === b.pendingAuthors[i].pubkey) &&
    a.hasMore === b.hasMore &&
    a.error === b.error &&
    a.fromCache === b.fromCache
  );
}

/** Whether the part of the feed the cache keeps differs between two lists of the same feed. */
function topChanged(before: FeedNote[], after: FeedNote[]): boolean {
  const n = Math.min(after.length, CACHED_NOTES_PER_FEED);
  if (n !== Math.min(before.length, CACHED_NOTES_PER_FEED)) return true;
  for (let i = 0; i < n; i++) if (before[i].key !== after[i].key) return true;
  return false;
}
