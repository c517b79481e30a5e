import { afterEach, describe, expect, it, vi } from 'vitest';

// The module imports the worker client for useWorkerRequest; the runner under test never connects.
vi.mock('../../../../src/worker-client', () => ({ connect: () => Promise.reject(new Error('no worker in unit tests')) }));

const { IDLE, reasonOf, startRequest } = await import('../../../../src/lib/useWorkerRequest');
type RequestState<T> = import('../../../../src/lib/useWorkerRequest').RequestState<T>;

/** A promise the test settles by hand, to order answers against cancellations. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The state a component would hold, fed by startRequest's updates. */
function holder<T>(initial: RequestState<T> = IDLE) {
  let state = initial;
  const seen: RequestState<T>[] = [];
  const set = (update: (prev: RequestState<T>) => RequestState<T>) => {
    state = update(state);
    seen.push(state);
  };
  return { set, seen, get: () => state };
}

const settle = () => new Promise<void>((r) => queueMicrotask(r)).then(() => undefined);

afterEach(() => {
  vi.useRealTimers();
});

describe('startRequest', () => {
  it('loads, then holds the answer', async () => {
    const h = holder<number>();
    const d = deferred<number>();
    startRequest(() => d.promise, h.set);
    expect(h.get()).toEqual({ data: undefined, error: undefined, loading: true });
    d.resolve(7);
    await settle();
    expect(h.get()).toEqual({ data: 7, error: undefined, loading: false });
  });

  it('keeps a state that already reads loading as the same object (React then skips the render)', async () => {
    const first = { data: undefined, error: undefined, loading: true };
    const h = holder<number>(first);
    const d = deferred<number>();
    startRequest(() => d.promise, h.set);
    expect(h.seen[0]).toBe(first);
    // An earlier answer or error is not a loading state: it is replaced.
    const answered = holder<number>({ data: 3, error: undefined, loading: false });
    startRequest(() => d.promise, answered.set);
    expect(answered.get()).toEqual({ data: undefined, error: undefined, loading: true });
    const failed = holder<number>({ data: undefined, error: new Error('x'), loading: false });
    startRequest(() => d.promise, failed.set);
    expect(failed.get()).toEqual({ data: undefined, error: undefined, loading: true });
    d.resolve(7);
    await settle();
    expect(h.get()).toEqual({ data: 7, error: undefined, loading: false });
  });

  it('holds the error of a failed run, and of a load that throws before its promise', async () => {
    const h = holder<number>();
    startRequest(() => Promise.reject(new Error('elutasítva')), h.set);
    await settle();
    expect(h.get().loading).toBe(false);
    expect(h.get().data).toBeUndefined();
    expect(reasonOf(h.get().error)).toBe('elutasítva');

    const t = holder<number>();
    startRequest(() => {
      throw new Error('szinkron');
    }, t.set);
    await settle();
    expect(reasonOf(t.get().error)).toBe('szinkron');
  });

  it('a rejection without a reason still reads as an error', async () => {
    const h = holder<number>();
    startRequest(() => Promise.reject(undefined), h.set);
    await settle();
    expect(h.get().error).toBeInstanceOf(Error);
  });

  it('drops the answer and the error of a cancelled run (a stale answer never overwrites a newer one)', async () => {
    const h = holder<string>();
    const old = deferred<string>();
    const cancelOld = startRequest(() => old.promise, h.set);
    cancelOld();
    const fresh = deferred<string>();
    startRequest(() => fresh.promise, h.set);
    fresh.resolve('új');
    await settle();
    old.resolve('régi');
    await settle();
    expect(h.get()).toEqual({ data: 'új', error: undefined, loading: false });

    const failing = deferred<string>();
    const cancel = startRequest(() => failing.promise, h.set);
    const before = h.seen.length;
    cancel();
    failing.reject(new Error('késő'));
    await settle();
    expect(h.seen.length).toBe(before);
  });

  it('clears the previous answer while loading, unless asked to keep it', async () => {
    const cleared = holder<number>({ data: 1, error: undefined, loading: false });
    startRequest(() => new Promise<number>(() => undefined), cleared.set);
    expect(cleared.get()).toEqual({ data: undefined, error: undefined, loading: true });

    const kept = holder<number>({ data: 1, error: undefined, loading: false });
    startRequest(() => Promise.reject(new Error('x')), kept.set, { keep: true });
    expect(kept.get()).toEqual({ data: 1, error: undefined, loading: true });
    await settle();
    expect(kept.get().data).toBe(1);
    expect(reasonOf(kept.get().error)).toBe('x');
  });

  it('with a delay, runs only once the delay passed, and never when cancelled first', async () => {
    vi.useFakeTimers();
    const load = vi.fn(() => Promise.resolve('kész'));
    const h = holder<string>();
    const cancel = startRequest(load, h.set, { delayMs: 300 });
    expect(h.get().loading).toBe(true);
    vi.advanceTimersByTime(299);
    expect(load).not.toHaveBeenCalled();
    cancel();
    vi.advanceTimersByTime(1000);
    expect(load).not.toHaveBeenCalled();

    startRequest(load, h.set, { delayMs: 300 });
    vi.advanceTimersByTime(300);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.runAllTimersAsync();
    expect(h.get()).toEqual({ data: 'kész', error: undefined, loading: false });
  });
});
