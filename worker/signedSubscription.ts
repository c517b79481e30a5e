/**
 * A long-lived cache subscription that only its owner may open (notification and DM counts):
 * the REQ carries a fresh signed request (protocol C.1), which the server accepts for five
 * minutes. The cache client re-sends a subscription's frame after a reconnect; once that frame
 * is stale the server answers with a NOTICE, and the subscription signs again and re-opens.
 */
import type { Subscription, SubscriptionHandlers } from './cache.ts';
import type { NostrEvent } from '../core/types.ts';

export type CacheSubscribe = (command: string, payload: Record<string, unknown> | undefined, handlers: SubscriptionHandlers) => Subscription;
/** Signs a protocol C.1 request event (kind 30078, ["d","Primal-Web App",op], created_at now). */
export type RequestSigner = (op: string, content?: unknown) => Promise<NostrEvent>;

/** A refusal of a request signed less than this long ago is not staleness: re-signing would loop. */
const RESIGN_AFTER_MS = 60_000;

/**
 * Opens `command` with `payload` plus a fresh `event_from_user` for `op`. Without a key that can
 * sign (read-only or PIN-locked login) nothing is opened: the counts are private.
 */
export function signedSubscription(
  subscribe: CacheSubscribe,
  signRequest: RequestSigner,
  command: string,
  op: string,
  payload: Record<string, unknown>,
  handlers: SubscriptionHandlers,
): { close(): void } {
  let closed = false;
  let current: Subscription | undefined;
  let signedAt = 0;
  const open = async () => {
    let event: NostrEvent;
    try {
      event = await signRequest(op);
    } catch {
      return;
    }
    if (closed) return;
    signedAt = Date.now();
    current = subscribe(command, { ...payload, event_from_user: event }, {
      ...handlers,
      onNotice: (message) => {
        handlers.onNotice?.(message);
        if (closed || Date.now() - signedAt < RESIGN_AFTER_MS) return;
        current?.close();
        current = undefined;
        void open();
      },
    });
  };
  void open();
  return {
    close() {
      closed = true;
      current?.close();
    },
  };
}
