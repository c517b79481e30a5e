/**
 * Per-tab machine instances and watchers for the notification, DM, profile and thread services:
 * the FeedRegistry pattern (throttled snapshots, nothing left behind when a tab goes) made
 * generic over the machine and its snapshot.
 */
import type { AnyActorRef } from 'xstate';
import { notify, Throttle } from './feeds.ts';
import { SNAPSHOT_THROTTLE_MS } from '../core/config.ts';

/** Top-level fields compared by identity: machines replace what changed, so this spots real changes. */
export function shallowSame<T extends object>(a: T, b: T): boolean {
  const ka = Object.keys(a) as (keyof T)[];
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => {
    const x = a[k];
    const y = b[k];
    if (x === y) return true;
    // Small records (loading flags, hasMore) are rebuilt on every view; compare them one level down.
    if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && !Array.isArray(y)) {
      const ox = x as Record<string, unknown>;
      const oy = y as Record<string, unknown>;
      const keys = Object.keys(ox);
      return keys.length === Object.keys(oy).length && keys.every((kk) => ox[kk] === oy[kk]);
    }
    return false;
  });
}

interface Instance<A> {
  tabId: string;
  actor: A;
  throttle: Throttle<unknown>;
  release: () => void;
  unsubscribe: () => void;
}

export class InstanceRegistry<A extends AnyActorRef, S extends object> {
  private readonly items = new Map<number, Instance<A>>();
  private next = 1;

  constructor(
    private readonly view: (actor: A) => S,
    private readonly throttleMs: number = SNAPSHOT_THROTTLE_MS,
  ) {}

  /** Starts the actor and streams its view to cb; the handle closes it. */
  open(tabId: string, actor: A, cb: (s: S) => unknown, release: () => void): number {
    const handle = this.next++;
    const throttle = new Throttle<S>(this.throttleMs, (s) => notify(cb, s));
    let previous: S | undefined;
    const sub = actor.subscribe(() => {
      const next = this.view(actor);
      if (previous && shallowSame(previous, next)) return;
      previous = next;
      throttle.push(next);
    });
    this.items.set(handle, { tabId, actor, throttle: throttle as Throttle<unknown>, release, unsubscribe: () => sub.unsubscribe() });
    actor.start();
    return handle;
  }

  get(handle: number): A | undefined {
    return this.items.get(handle)?.actor;
  }

  forEach(fn: (actor: A) => void): void {
    for (const item of this.items.values()) fn(item.actor);
  }

  close(handle: number): void {
    const item = this.items.get(handle);
    if (!item) return;
    this.items.delete(handle);
    item.throttle.cancel();
    item.unsubscribe();
    item.actor.stop();
    item.release();
  }

  closeTab(tabId: string): void {
    for (const [handle, item] of [...this.items]) if (item.tabId === tabId) this.close(handle);
  }

  dispose(): void {
    for (const handle of [...this.items.keys()]) this.close(handle);
  }

  get size(): number {
    return this.items.size;
  }
}

/** Tabs watching one shared value (a count, the releases): each gets the current value at once. */
export class Watchers<T> {
  private readonly items = new Map<number, { tabId: string; cb: (v: T) => unknown; release: () => void }>();
  private next = 1;
  private last?: { value: T };

  add(tabId: string, cb: (v: T) => unknown, release: () => void, current: T): number {
    const handle = this.next++;
    this.items.set(handle, { tabId, cb, release });
    notify(cb, current);
    return handle;
  }

  /** Sends to every watcher, unless the value is the one sent last. */
  emit(value: T, same: (a: T, b: T) => boolean): void {
    if (this.last && same(this.last.value, value)) return;
    this.last = { value };
    for (const w of this.items.values()) notify(w.cb, value);
  }

  remove(handle: number): void {
    const w = this.items.get(handle);
    if (!w) return;
    this.items.delete(handle);
    w.release();
  }

  closeTab(tabId: string): void {
    for (const [handle, w] of [...this.items]) if (w.tabId === tabId) this.remove(handle);
  }

  dispose(): void {
    for (const handle of [...this.items.keys()]) this.remove(handle);
  }

  get size(): number {
    return this.items.size;
  }
}
