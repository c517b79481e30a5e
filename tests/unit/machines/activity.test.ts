import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { activityMachine, activityStateOf, type ActivityEmitted } from '../../../machines/activity.ts';

const MIN = 60_000;

function start(proxy = false) {
  const actor = createActor(activityMachine, { input: { proxy } });
  const emitted: ActivityEmitted[] = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  return { actor, emitted, state: () => activityStateOf(actor.getSnapshot()) };
}

describe('activity machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('starts woke and sleeps after 5 minutes without activity in any tab', () => {
    const { state, emitted } = start();
    expect(state()).toBe('woke');
    vi.advanceTimersByTime(5 * MIN - 1);
    expect(state()).toBe('woke');
    vi.advanceTimersByTime(1);
    expect(state()).toBe('sleeping');
    expect(emitted).toEqual([{ type: 'sleep', proxy: false }]);
  });

  it('activity in any tab restarts the 5 minutes: sleep needs silence in every tab', () => {
    const { actor, state } = start();
    vi.advanceTimersByTime(4 * MIN);
    actor.send({ type: 'ACTIVITY', tabId: 'tab1' });
    vi.advanceTimersByTime(4 * MIN);
    actor.send({ type: 'ACTIVITY', tabId: 'tab2' });
    vi.advanceTimersByTime(5 * MIN - 1);
    expect(state()).toBe('woke');
    expect(actor.getSnapshot().context.lastTab).toBe('tab2');
    vi.advanceTimersByTime(1);
    expect(state()).toBe('sleeping');
  });

  it('activity while asleep wakes (reconnect), and waking becomes woke after 36 s', () => {
    const { actor, state, emitted } = start();
    vi.advanceTimersByTime(5 * MIN);
    actor.send({ type: 'ACTIVITY', tabId: 'tab2' });
    expect(state()).toBe('waking');
    expect(emitted.at(-1)).toEqual({ type: 'wake', proxy: false });
    vi.advanceTimersByTime(35_999);
    expect(state()).toBe('waking');
    vi.advanceTimersByTime(1);
    expect(state()).toBe('woke');
    // Awake again, the inactivity count runs from the waking activity.
    vi.advanceTimersByTime(5 * MIN - 36_000);
    expect(state()).toBe('sleeping');
    expect(emitted.filter((e) => e.type === 'sleep')).toHaveLength(2);
  });

  it('more activity while waking neither re-emits wake nor cuts the 36 s short', () => {
    const { actor, state, emitted } = start();
    vi.advanceTimersByTime(5 * MIN);
    actor.send({ type: 'ACTIVITY', tabId: 't' });
    vi.advanceTimersByTime(10_000);
    actor.send({ type: 'ACTIVITY', tabId: 't' });
    expect(state()).toBe('waking');
    expect(emitted.filter((e) => e.type === 'wake')).toHaveLength(1);
    vi.advanceTimersByTime(26_000);
    expect(state()).toBe('woke');
  });

  it('proxy on and off is emitted once per change and reported with sleep and wake', () => {
    const { actor, emitted } = start();
    actor.send({ type: 'SET_PROXY', on: true });
    actor.send({ type: 'SET_PROXY', on: true });
    expect(emitted).toEqual([{ type: 'proxy', on: true }]);
    vi.advanceTimersByTime(5 * MIN);
    expect(emitted.at(-1)).toEqual({ type: 'sleep', proxy: true });
    actor.send({ type: 'ACTIVITY', tabId: 't' });
    expect(emitted.at(-1)).toEqual({ type: 'wake', proxy: true });
    actor.send({ type: 'SET_PROXY', on: false });
    expect(emitted.at(-1)).toEqual({ type: 'proxy', on: false });
    expect(actor.getSnapshot().context.proxy).toBe(false);
  });
});
