/**
 * Per-tab feed instances living in the shared worker. Each runs machines/feed.ts with a fetchPage
 * actor over the cache socket, and streams throttled FeedSnapshots to the tab's callback.
 */
import { createActor, fromPromise, type Actor } from 'xstate';
import { feedMachine, feedStatusOf, type FeedMachineSnapshot, type FeedPage, type FetchPageInput } from '../machines/feed.ts';
import type { CacheReply, FeedSnapshot, Profile } from './types.ts';
import { parseBundle } from './bundle.ts';
import { SNAPSHOT_THROTTLE_MS } from './config.ts';

export type CacheRequest = (command: string, payload?: Record<string, unknown>) => Promise<CacheReply>;

/** mega_feed_directive {spec, limit, until?, since?, user_pubkey?} to one FeedPage. */
export async function fetchFeedPage(request: CacheRequest, input: FetchPageInput): Promise<FeedPage> {
  const payload: Record<string, unknown> = { spec: input.spec, limit: input.limit };
  if (input.until !== undefined) payload.until = input.until;
  if (input.since !== undefined) payload.since = input.since;
  if (input.userPubkey) payload.user_pubkey = input.userPubkey;
  const reply = await request('mega_feed_directive', payload);
  // A lost answer is worth a retry; a NOTICE is the server's answer (spec §8: an empty result).
  if (reply.notice === 'timeout') throw new Error('timeout');
  if (reply.notice !== undefined) return { notes: [] };
  const { notes, range } = parseBundle(reply.events);
  return { notes, since: range?.since, until: range?.until, orderBy: range?.orderBy };
}

/**
 * Calls `emit` with the latest value at most once per `ms`: the first change goes out at once,
 * later ones within the window are coalesced into one trailing call.
 */
export class Throttle<T> {
  private last = -Infinity;
  private timer?: ReturnType<typeof setTimeout>;
  private latest?: { value: T };

  constructor(
    private readonly ms: number,
    private readonly emit: (value: T) => void,
  ) {}

  push(value: T): void {
    this.latest = { value };
    if (this.timer !== undefined) return;
    const wait = this.last + this.ms - Date.now();
    if (wait <= 0) this.fire();
    else this.timer = setTimeout(() => this.fire(), wait);
  }

  cancel(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.latest = undefined;
  }

  private fire(): void {
    this.timer = undefined;
    const latest = this.latest;
    this.latest = undefined;
    if (!latest) return;
    this.last = Date.now();
    this.emit(latest.value);
  }
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

/** Calls a (possibly Comlink-proxied) callback; a tab that went away must not break the worker. */
export function notify<T>(cb: (value: T) => unknown, value: T): void {
  try {
    const r = cb(value);
    if (r && typeof (r as Promise<unknown>).catch === 'function') (r as Promise<unknown>).catch(() => undefined);
  } catch {
    // The tab's port is gone; its heartbeat lapse will clean the feed up.
  }
}

interface FeedInstance {
  tabId: string;
  actor: Actor<typeof feedMachine>;
  throttle: Throttle<FeedSnapshot>;
  release: () => void;
}

export interface FeedRegistryOptions {
  request: CacheRequest;
  /** The viewer: the logged-in user, else the guest account (spec §6). */
  userPubkey: () => string | undefined;
  throttleMs?: number;
}

export class FeedRegistry {
  private readonly feeds = new Map<number, FeedInstance>();
  private nextHandle = 1;
  private readonly machine;

  constructor(private readonly options: FeedRegistryOptions) {
    this.machine = feedMachine.provide({
      actors: { fetchPage: fromPromise<FeedPage, FetchPageInput>(({ input }) => fetchFeedPage(options.request, input)) },
    });
  }

  open(tabId: string, spec: string, cb: (s: FeedSnapshot) => unknown, release: () => void = () => undefined): number {
    const handle = this.nextHandle++;
    const actor = createActor(this.machine, { input: { spec, userPubkey: this.options.userPubkey() } });
    const throttle = new Throttle<FeedSnapshot>(this.options.throttleMs ?? SNAPSHOT_THROTTLE_MS, (s) => notify(cb, s));
    let previous: FeedSnapshot | undefined;
    actor.subscribe((snap) => {
      const next = toFeedSnapshot(snap);
      // Poll timers re-enter states without changing anything; only real changes cost a clone.
      if (previous && sameSnapshot(previous, next)) return;
      previous = next;
      throttle.push(next);
    });
    this.feeds.set(handle, { tabId, actor, throttle, release });
    actor.start();
    return handle;
  }

  loadMore(handle: number): void {
    this.feeds.get(handle)?.actor.send({ type: 'LOAD_MORE' });
  }

  showPending(handle: number): void {
    this.feeds.get(handle)?.actor.send({ type: 'SHOW_PENDING' });
  }

  select(handle: number, spec: string): void {
    this.feeds.get(handle)?.actor.send({ type: 'SELECT', spec });
  }

  retry(handle: number): void {
    this.feeds.get(handle)?.actor.send({ type: 'RETRY' });
  }

  close(handle: number): void {
    const feed = this.feeds.get(handle);
    if (!feed) return;
    this.feeds.delete(handle);
    feed.throttle.cancel();
    feed.actor.stop();
    feed.release();
  }

  closeTab(tabId: string): void {
    for (const [handle, feed] of [...this.feeds]) if (feed.tabId === tabId) this.close(handle);
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
    a.error === b.error
  );
}
