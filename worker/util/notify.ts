/** Calls a (possibly Comlink-proxied) callback; a tab that went away must not break the worker. */
export function notify<T>(cb: (value: T) => unknown, value: T): void {
  try {
    const r = cb(value);
    if (r && typeof (r as Promise<unknown>).catch === 'function') (r as Promise<unknown>).catch(() => undefined);
  } catch {
    // The tab's port is gone; its heartbeat lapse or closed lock will close the handle.
  }
}
