import { releaseProxy } from 'comlink';

/** Comlink proxies hold their tab's port open until released; plain functions (tests) have nothing to release. */
export function releaser(cb: object): () => void {
  return () => {
    const release = (cb as { [releaseProxy]?: unknown })[releaseProxy];
    if (typeof release !== 'function') return;
    try {
      (release as () => void)();
    } catch {
      // Already released, or the port is gone.
    }
  };
}
