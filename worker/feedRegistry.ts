/**
 * Per-tab feed instances living in the shared worker. Each runs machines/feed.ts with a fetchPage
 * actor over the cache socket, and streams throttled FeedSnapshots to the tab's callback.
 */
import { createActor, fromPromise, type Actor } from 'xstate';
import { feedMachine, feedStatusOf, type FeedMachineSnapshot, type FeedPage, type FetchPageInput } from '../machines/feed.ts';
import type { FeedNote, FeedSnapshot } from '../core/types.ts';
import type { CacheRequest } from './util/cacheRequest.ts';
import { notify } from './util/notify.ts';
import { Throttle } from './util/throttle.ts';
import { TabHandles } from './util/tabHandles.ts';
import { parseBundle } from '../core/bundle.ts';
import { FEED_POLL_INTERVAL_MS, SNAPSHOT_THROTTLE_MS } from '../core/config.ts';
import { CACHED_NOTES_PER_FEED, type FeedCache } from './feedCache.ts';
import { FeedView, NO_FILTER, sameSnapshot, type FeedState, type ViewerFilter } from './feedView.ts';
import type { OwnNotes } from './ownNotes.ts';

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

/** The machine's side of a feed, for FeedView. */
export function feedStateOf(snapshot: FeedMachineSnapshot): FeedState {
  const { context } = snapshot;
  const out: FeedState = {
    spec: context.spec,
    status: feedStatusOf(snapshot),
    notes: context.notes,
    pending: context.pending,
    hasMore: context.hasMore,
    loaded: context.loaded,
  };
  if (context.error !== undefined) out.error = context.error;
  return out;
}

interface FeedInstance {
  actor: Actor<typeof feedMachine>;
  throttle: Throttle<FeedSnapshot>;
  view: FeedView;
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
  /** The viewer's mutes, applied to every feed and its pill. */
  filter?: () => ViewerFilter;
  /** What the person just published from any tab, shown in the feeds it belongs to. */
  own?: OwnNotes;
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

  /**
   * painted: the cards the tab already shows for this spec (its first screen), shown until the
   * network answers so the tab never drops back to a skeleton.
   */
  open(tabId: string, spec: string, cb: (s: FeedSnapshot) => unknown, release: () => void = () => undefined, painted?: FeedNote[]): number {
    let handle = 0;
    const create = (forSpec: string) => createActor(this.machine, { input: { spec: forSpec, userPubkey: this.options.userPubkey() } });
    let actor = create(spec);
    const throttle = new Throttle<FeedSnapshot>(this.options.throttleMs ?? SNAPSHOT_THROTTLE_MS, (s) => notify(cb, s));
    let previous: FeedSnapshot | undefined;
    const view = new FeedView();
    if (painted?.length) view.restore(painted);
    const cache = this.options.cache;
    let viewer = actor.getSnapshot().context.userPubkey;
    let saved: { spec: string; notes: FeedNote[] } | undefined;
    const emit = (now = false) => {
      const snap = actor.getSnapshot();
      const { spec: currentSpec, loaded } = snap.context;
      const next = view.view(feedStateOf(snap), this.context());
      // The kept page is a copy of what the feed showed (without notes a relay has not accepted yet);
      // saved when its top changed (first page, pill opened, pages up to the cached size).
      if (cache && loaded && !next.fromCache) {
        const notes = savedCopy(next.notes);
        if (notes !== saved?.notes && (saved?.spec !== currentSpec || topChanged(saved.notes, notes))) {
          saved = { spec: currentSpec, notes };
          void cache.savePage(currentSpec, viewer, notes);
        }
      }
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

  private context() {
    return { filter: this.options.filter?.() ?? NO_FILTER, own: this.options.own?.all ?? [] };
  }

  /** The mutes or the own notes changed: every open feed shows them now. */
  refresh(): void {
    for (const feed of this.feeds.values()) feed.emit();
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

function savedCopy(notes: FeedNote[]): FeedNote[] {
  return notes.some((n) => n.local) ? notes.filter((n) => !n.local) : notes;
}

/** Whether the part of the feed the cache keeps differs between two lists of the same feed. */
function topChanged(before: FeedNote[], after: FeedNote[]): boolean {
  const n = Math.min(after.length, CACHED_NOTES_PER_FEED);
  if (n !== Math.min(before.length, CACHED_NOTES_PER_FEED)) return true;
  for (let i = 0; i < n; i++) if (before[i].key !== after[i].key) return true;
  return false;
}
