/**
 * Per-tab machine instances and watchers of a shared value, for the services the tabs open:
 * throttled snapshots, and nothing left behind when a tab goes (TabHandles keeps the handles).
 */
import type { AnyActorRef } from 'xstate';
import { notify } from './util/notify.ts';
import { Throttle } from './util/throttle.ts';
import { TabHandles } from './util/tabHandles.ts';
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
  actor: A;
  /** Sends the view again when something outside the actor that it shows changed. */
  refresh: () => void;
}

export class InstanceRegistry<A extends AnyActorRef, S extends object> {
  private readonly items = new TabHandles<Instance<A>>();

  constructor(
    private readonly view: (actor: A) => S,
    private readonly throttleMs: number = SNAPSHOT_THROTTLE_MS,
  ) {}

  /** Starts the actor and streams its view to cb; the handle closes it. */
  open(tabId: string, actor: A, cb: (s: S) => unknown, release: () => void): number {
    const throttle = new Throttle<S>(this.throttleMs, (s) => notify(cb, s));
    let previous: S | undefined;
    const send = () => {
      const next = this.view(actor);
      if (previous && shallowSame(previous, next)) return;
      previous = next;
      throttle.push(next);
    };
    const sub = actor.subscribe(send);
    const handle = this.items.add(tabId, { actor, refresh: send }, () => {
      throttle.cancel();
      sub.unsubscribe();
      actor.stop();
      release();
    });
    actor.start();
    return handle;
  }

  get(handle: number): A | undefined {
    return this.items.get(handle)?.actor;
  }

  forEach(fn: (actor: A) => void): void {
    for (const item of this.items.values()) fn(item.actor);
  }

  /** Views also show state kept outside their actors (the notes just published): re-sends what changed. */
  refresh(): void {
    for (const item of this.items.values()) item.refresh();
  }

  close(handle: number): void {
    this.items.close(handle);
  }

  closeTab(tabId: string): void {
    this.items.closeTab(tabId);
  }

  dispose(): void {
    this.items.dispose();
  }

  get size(): number {
    return this.items.size;
  }
}

/** Tabs watching one shared value (a count, the releases, the socket state): each gets the current value at once. */
export class Watchers<T> {
  private readonly items = new TabHandles<(v: T) => unknown>();
  private last?: { value: T };

  add(tabId: string, cb: (v: T) => unknown, release: () => void, current: T): number {
    const handle = this.items.add(tabId, cb, release);
    notify(cb, current);
    return handle;
  }

  /** Sends to every watcher, unless the value is the one sent last. */
  emit(value: T, same: (a: T, b: T) => boolean): void {
    if (this.last && same(this.last.value, value)) return;
    this.last = { value };
    for (const cb of this.items.values()) notify(cb, value);
  }

  remove(handle: number): void {
    this.items.close(handle);
  }

  closeTab(tabId: string): void {
    this.items.closeTab(tabId);
  }

  dispose(): void {
    this.items.dispose();
  }

  get size(): number {
    return this.items.size;
  }
}
