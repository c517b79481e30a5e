/**
 * A worker service whose module loads on first need (a signed-in account, or the first call of
 * its API) instead of with the worker's script; a failed load (chunk unreachable) is tried again
 * on the next call.
 */
export interface LazyService<T> {
  get(): Promise<T>;
  /** The service once loaded; undefined before. */
  readonly loaded: T | undefined;
  dispose(): void;
}

export function lazyService<T extends { dispose(): void }>(load: () => Promise<T>): LazyService<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  let disposed = false;
  return {
    get: () =>
      (loading ??= load().then(
        (service) => {
          loaded = service;
          if (disposed) service.dispose();
          return service;
        },
        (err: unknown) => {
          loading = undefined;
          throw err;
        },
      )),
    get loaded() {
      return loaded;
    },
    dispose() {
      disposed = true;
      loaded?.dispose();
    },
  };
}
