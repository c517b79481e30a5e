/**
 * Runs machines/activity.ts: turns its sleep, wake and proxy decisions into cache-socket and
 * relay-pool commands, and keeps the tabs' watchers informed.
 */
import { createActor, type Subscription } from 'xstate';
import { activityMachine, activityStateOf } from '../machines/activity.ts';
import { INACTIVITY_MS, WAKE_UP_MS } from '../core/config.ts';
import type { RelayService } from './relays.ts';
import type { ActivitySnapshot, ActivityTimings } from '../core/types.ts';

export interface CacheSocketControl {
  /** Reopens the cache socket (a no-op before the first tab said hello). */
  connect(): void;
  disconnect(): void;
}

export class ActivityService {
  /** The spec's 5 min / 36 s unless a devMode tab asked for test-speed timings (setTimings). */
  private timings: ActivityTimings = { sleepMs: INACTIVITY_MS, wakeMs: WAKE_UP_MS };
  // Delays are read each time a state is entered, so new timings apply from the next activity report.
  private readonly actor = createActor(
    activityMachine.provide({ delays: { inactivity: () => this.timings.sleepMs, wakeUp: () => this.timings.wakeMs } }),
    { input: {} },
  );
  private readonly watchers = new Set<(s: ActivitySnapshot) => void>();
  private readonly subs: Subscription[];
  private last: ActivitySnapshot;

  constructor(cache: CacheSocketControl, relays: RelayService) {
    this.last = this.snapshot();
    this.subs = [
      this.actor.on('sleep', (e) => {
        cache.disconnect();
        // Proxied relays are suspended already; sleeping must not count as a second reason to wake them.
        if (!e.proxy) relays.suspend('sleep');
      }),
      this.actor.on('wake', () => {
        cache.connect();
        relays.resume('sleep');
        // Waking is also the moment to retry relays that gave up while the user was away.
        relays.connectAll();
      }),
      this.actor.on('proxy', (e) => {
        if (e.on) relays.suspend('proxy');
        else {
          relays.resume('proxy');
          relays.connectAll();
        }
      }),
      this.actor.subscribe(() => {
        const next = this.snapshot();
        if (next.state === this.last.state && next.proxy === this.last.proxy) return;
        this.last = next;
        for (const cb of [...this.watchers]) cb(next);
      }),
    ];
    this.actor.start();
  }

  get proxy(): boolean {
    return this.actor.getSnapshot().context.proxy;
  }

  snapshot(): ActivitySnapshot {
    const snap = this.actor.getSnapshot();
    return { state: activityStateOf(snap), proxy: snap.context.proxy };
  }

  report(tabId: string): void {
    this.actor.send({ type: 'ACTIVITY', tabId });
  }

  /** Replaces the sleep and wake timings; only devMode tabs pass them (worker/api.ts hello). */
  setTimings(timings: ActivityTimings): void {
    this.timings = { ...timings };
  }

  setProxy(on: boolean): void {
    this.actor.send({ type: 'SET_PROXY', on });
  }

  watch(cb: (s: ActivitySnapshot) => void): () => void {
    this.watchers.add(cb);
    cb(this.snapshot());
    return () => this.watchers.delete(cb);
  }

  dispose(): void {
    for (const s of this.subs) s.unsubscribe();
    this.watchers.clear();
    this.actor.stop();
  }
}
