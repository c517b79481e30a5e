/**
 * The one way a component follows something in the worker (a watcher, a page, a subscription):
 * open it when the component mounts or `deps` change, deliver its values only while that effect
 * lives, and close its handle afterwards, also when the component left before the worker answered.
 */
import { useEffect, useRef, useState, type DependencyList } from 'react';
import { Comlink, connect, type Api } from '../worker-client';

export interface WorkerWatchOptions<T> {
  /** Every value as it arrives (after it became the hook's value). */
  onValue?: (value: T) => void;
  /** The open handle, and null once it is being closed: for calls on the open page (load more...). */
  onHandle?: (handle: number | null) => void;
  /** The worker could not be reached or refused to open; a value returned becomes the hook's value. */
  onError?: (err: unknown) => T | void;
}

/**
 * Returns the latest value `open` delivered, null until the first one (and again after deps
 * changed). `open` is skipped while it is null: nothing to follow yet.
 */
export function useWorkerWatch<T>(
  open: ((api: Api, cb: (value: T) => void) => Promise<number>) | null,
  close: (api: Api, handle: number) => Promise<unknown>,
  deps: DependencyList = [],
  options: WorkerWatchOptions<T> = {},
): T | null {
  const [value, setValue] = useState<T | null>(null);
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    setValue(null);
    if (!open) return;
    let live = true;
    let handle: number | null = null;
    const shut = (h: number) => {
      void connect()
        .then((api) => close(api, h))
        .catch(() => undefined);
    };
    connect()
      .then((api) =>
        open(
          api,
          Comlink.proxy((v: T) => {
            if (!live) return;
            setValue(() => v);
            latest.current.onValue?.(v);
          }),
        ),
      )
      .then((h) => {
        if (!live) return shut(h);
        handle = h;
        latest.current.onHandle?.(h);
      })
      .catch((err: unknown) => {
        if (!live) return;
        const fallback = latest.current.onError?.(err);
        if (fallback !== undefined) setValue(() => fallback);
      });
    return () => {
      live = false;
      if (handle === null) return;
      latest.current.onHandle?.(null);
      shut(handle);
    };
    // open and close are read when deps change, like an effect's body.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return value;
}
