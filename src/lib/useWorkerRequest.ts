/**
 * The one way a component asks something once (a cache command, a signed membership call, a
 * lookup): run it when the component mounts or `deps` change, keep only the answer of the newest
 * run, and drop answers that arrive after the component left or the deps moved on. Things that
 * keep pushing values (subscriptions, watchers) go through useWorkerWatch instead.
 */
import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';
import { connect, type Api } from '../worker-client';

export interface RequestState<T> {
  /** The newest run's answer; undefined before it (and while a new run loads, unless `keep`). */
  data: T | undefined;
  /** Why the newest run failed; undefined while loading and after a success. */
  error: unknown;
  loading: boolean;
}

export interface RequestOptions {
  /** Wait this long before running, and not at all if the deps change first (as-you-type checks). */
  delayMs?: number;
  /** Keep the previous answer on screen while the next run loads (a reload, a refined search). */
  keep?: boolean;
}

export interface WorkerRequest<T> extends RequestState<T> {
  /** Runs the request again with the same deps. */
  reload: () => void;
}

export const IDLE: RequestState<never> = { data: undefined, error: undefined, loading: false };

/**
 * Starts one run and reports each state change to `set`; the returned function cancels it: the
 * delay timer stops and a late answer or error is dropped. Plain code so it is tested without React.
 */
export function startRequest<T>(
  load: () => Promise<T>,
  set: (update: (prev: RequestState<T>) => RequestState<T>) => void,
  options: RequestOptions = {},
): () => void {
  let live = true;
  // A state that already reads "loading" (useRequest's first one) stays the same object, so React
  // skips the render: every note card with a NIP-05 address otherwise drew itself twice on mount.
  set((prev) =>
    prev.loading && prev.error === undefined && (options.keep || prev.data === undefined) ? prev : { data: options.keep ? prev.data : undefined, error: undefined, loading: true },
  );
  const run = () => {
    let answer: Promise<T>;
    try {
      answer = load();
    } catch (err) {
      answer = Promise.reject(err);
    }
    answer.then(
      (data) => live && set(() => ({ data, error: undefined, loading: false })),
      (error: unknown) => live && set((prev) => ({ data: options.keep ? prev.data : undefined, error: error ?? new Error('failed'), loading: false })),
    );
  };
  const timer = options.delayMs ? setTimeout(run, options.delayMs) : undefined;
  if (!timer) run();
  return () => {
    live = false;
    if (timer) clearTimeout(timer);
  };
}

/**
 * Runs `load` (any promise: a fetch, a module-level cache) per `deps`; `load` null means nothing
 * to ask yet and leaves the idle state. `load` is read when deps change, like an effect's body.
 */
export function useRequest<T>(load: (() => Promise<T>) | null, deps: DependencyList, options: RequestOptions = {}): WorkerRequest<T> {
  const [state, setState] = useState<RequestState<T>>(() => (load ? { ...IDLE, loading: true } : IDLE));
  const [round, setRound] = useState(0);
  const latest = useRef({ load, options });
  latest.current = { load, options };
  useEffect(() => {
    const { load: current, options: opts } = latest.current;
    if (!current) {
      setState(IDLE);
      return;
    }
    return startRequest(current, setState, opts);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}

/** useRequest with the worker's API: `load` runs once the tab is connected. */
export function useWorkerRequest<T>(load: ((api: Api) => Promise<T>) | null, deps: DependencyList, options: RequestOptions = {}): WorkerRequest<T> {
  return useRequest(load && (() => connect().then(load)), deps, options);
}

/** An error's own text for the screens that show the reason beside their Hungarian message. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
