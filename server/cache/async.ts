/**
 * Long-lived ("async") subscriptions (S §1.5): commands that only register on the REQ and
 * later push plain-text EVENT frames until CLOSE or disconnect. Each command contributes a
 * factory here; the connection owns one AsyncHub, so a socket runs at most one timer and
 * none at all while nothing is subscribed.
 */
import type { Args } from './args.ts';
import { dmAsyncCommands } from './commands/dms.ts';
import { liveAsyncCommands } from './commands/live.ts';
import { membershipAsyncCommands } from './commands/membership.ts';
import { notificationAsyncCommands } from './commands/notifications.ts';
import type { CacheObject } from './data.ts';
import { netStats } from './netstats.ts';
import type { CommandEnv } from './registry.ts';

/** S §1.5: subscriptions are walked five times a second. */
export const TICK_MS = 200;

export interface AsyncSubscription {
  /** How often to poll, in milliseconds; rounded to whole ticks. */
  everyMs: number;
  /** The objects to push now, possibly none. */
  poll(): Promise<CacheObject[]>;
  /** Releases whatever the subscription holds (listeners, buffers) when it ends. */
  dispose?(): void;
}

/** Validates the arguments (throwing CommandError for a NOTICE) and returns the subscription. */
export type AsyncCommand = (args: Args, env: CommandEnv) => Promise<AsyncSubscription>;

const netStatsCommand: AsyncCommand = async (_args, { ctx }) => ({
  everyMs: TICK_MS,
  poll: async () => [await netStats(ctx)],
});

export const ASYNC_COMMANDS: ReadonlyMap<string, AsyncCommand> = new Map<string, AsyncCommand>([
  ['net_stats', netStatsCommand],
  ...notificationAsyncCommands,
  ...dmAsyncCommands,
  ...liveAsyncCommands,
  ...membershipAsyncCommands,
]);

/** Counts `sub` in `counts[name]` until it is released, whichever way it ends. */
export function counted(name: string, sub: AsyncSubscription, counts: Record<string, number>): AsyncSubscription {
  counts[name] = (counts[name] ?? 0) + 1;
  let released = false;
  return {
    everyMs: sub.everyMs,
    poll: () => sub.poll(),
    dispose: () => {
      if (!released) {
        released = true;
        counts[name]--;
      }
      sub.dispose?.();
    },
  };
}

interface Entry {
  sub: AsyncSubscription;
  everyTicks: number;
  /** Ticks left until the next poll; 0 polls on the very next tick. */
  wait: number;
}

/** Per-connection set of async subscriptions and the one timer that polls them. */
export class AsyncHub {
  private readonly entries = new Map<string, Entry>();
  private timer?: NodeJS.Timeout;
  private polling = false;

  constructor(
    /** Hands a poll's objects to the connection; `stillActive` tells whether the subscription survived the poll. */
    private readonly deliver: (subid: string, objects: CacheObject[], stillActive: () => boolean) => void,
    private readonly onError: (err: unknown) => void,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  add(subid: string, sub: AsyncSubscription): void {
    this.remove(subid);
    this.entries.set(subid, { sub, everyTicks: Math.max(1, Math.round(sub.everyMs / TICK_MS)), wait: 0 });
    this.timer ??= setInterval(() => void this.tick(), TICK_MS);
  }

  remove(subid: string): void {
    const entry = this.entries.get(subid);
    if (!entry) return;
    this.entries.delete(subid);
    this.release(entry);
    if (this.entries.size === 0) this.stop();
  }

  clear(): void {
    const all = [...this.entries.values()];
    this.entries.clear();
    for (const entry of all) this.release(entry);
    this.stop();
  }

  private release(entry: Entry): void {
    try {
      entry.sub.dispose?.();
    } catch (err) {
      this.onError(err);
    }
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    // A slow database skips ticks rather than piling polls up.
    if (this.polling) return;
    this.polling = true;
    try {
      for (const [subid, entry] of [...this.entries]) {
        if (entry.wait > 0) {
          entry.wait--;
          continue;
        }
        entry.wait = entry.everyTicks - 1;
        try {
          const objects = await entry.sub.poll();
          if (objects.length) this.deliver(subid, objects, () => this.entries.get(subid) === entry);
        } catch (err) {
          this.onError(err);
        }
      }
    } finally {
      this.polling = false;
    }
  }
}
