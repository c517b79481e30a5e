/**
 * Reports this tab's mouse, scroll, key and touch activity to the worker, at most once per
 * ACTIVITY_REPORT_THROTTLE_MS: the worker sleeps only when every tab has been quiet for 5 minutes.
 */
import { ACTIVITY_REPORT_THROTTLE_MS } from '../../core/config';
import { connect, tabId } from '../worker-client';

const EVENTS = ['mousemove', 'mousedown', 'keydown', 'wheel', 'scroll', 'touchstart'] as const;

export function trackActivity(): () => void {
  let last = Number.NEGATIVE_INFINITY;
  const report = () => {
    const now = Date.now();
    if (now - last < ACTIVITY_REPORT_THROTTLE_MS) return;
    last = now;
    connect()
      // Comlink's Remote type cannot call an optional method; the worker always implements this one.
      .then((api) => (api as unknown as { reportActivity(id: string): Promise<void> }).reportActivity(tabId))
      .catch(() => undefined);
  };
  // Capture phase: scroll does not bubble, and inner handlers may stop propagation.
  const opts: AddEventListenerOptions = { capture: true, passive: true };
  for (const type of EVENTS) window.addEventListener(type, report, opts);
  // Opening a tab is itself activity: it wakes a sleeping worker at once.
  report();
  return () => {
    for (const type of EVENTS) window.removeEventListener(type, report, opts);
  };
}
