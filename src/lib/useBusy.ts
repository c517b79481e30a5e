import { useCallback, useState } from 'react';

export type Run = <T>(f: () => Promise<T>) => Promise<T>;

/** A page that saves: `busy` while any `run(f)` is in flight, so its buttons wait for the worker. */
export function useBusy(): { busy: boolean; run: Run } {
  const [pending, setPending] = useState(0);
  const run = useCallback(async <T,>(f: () => Promise<T>): Promise<T> => {
    setPending((n) => n + 1);
    try {
      return await f();
    } finally {
      setPending((n) => n - 1);
    }
  }, []);
  return { busy: pending > 0, run };
}
