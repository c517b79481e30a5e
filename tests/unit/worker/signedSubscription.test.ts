import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Subscription, SubscriptionHandlers } from '../../../worker/cache.ts';
import { signedSubscription } from '../../../worker/signedSubscription.ts';
import type { NostrEvent } from '../../../core/types.ts';

const ME = 'a'.repeat(64);
const flush = () => vi.advanceTimersByTimeAsync(0);

function harness(canSign = true) {
  const subs: { payload?: Record<string, unknown>; handlers: SubscriptionHandlers; closed: boolean }[] = [];
  let signatures = 0;
  const subscribe = (_command: string, payload: Record<string, unknown> | undefined, handlers: SubscriptionHandlers): Subscription => {
    const entry = { payload, handlers, closed: false };
    subs.push(entry);
    return { subid: `s${subs.length}`, close: () => void (entry.closed = true) };
  };
  const signRequest = async (op: string): Promise<NostrEvent> => {
    if (!canSign) throw new Error('sign-no-nsec');
    signatures += 1;
    return { id: `e${signatures}`, pubkey: ME, created_at: Math.floor(Date.now() / 1000), kind: 30078, tags: [['d', 'Primal-Web App', op]], content: '', sig: 's' };
  };
  return { subs, subscribe, signRequest, signatures: () => signatures };
}

describe('signedSubscription (private counts)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens with a fresh signed request, and signs again when the server refuses a stale re-sent one', async () => {
    const h = harness();
    const sub = signedSubscription(h.subscribe, h.signRequest, 'notification_counts', 'notification_counts', { pubkey: ME }, { onEvent: () => undefined });
    await flush();
    expect(h.subs).toHaveLength(1);
    expect(h.subs[0].payload).toMatchObject({ pubkey: ME, event_from_user: { id: 'e1', tags: [['d', 'Primal-Web App', 'notification_counts']] } });
    // A refusal right after signing is not staleness: no loop of signatures.
    h.subs[0].handlers.onNotice?.('invalid pubkey');
    await flush();
    expect(h.subs).toHaveLength(1);
    // After a long outage the cache client re-sends the old frame; the server says it is too old.
    await vi.advanceTimersByTimeAsync(6 * 60_000);
    h.subs[0].handlers.onNotice?.('invalid event_from_user: created_at is too old (signed requests are valid for 5 minutes)');
    await flush();
    expect(h.subs[0].closed).toBe(true);
    expect(h.subs).toHaveLength(2);
    expect((h.subs[1].payload?.event_from_user as NostrEvent).id).toBe('e2');
    sub.close();
    expect(h.subs[1].closed).toBe(true);
  });

  it('opens nothing without a key that can sign, and nothing once closed before the signature arrived', async () => {
    const readOnly = harness(false);
    signedSubscription(readOnly.subscribe, readOnly.signRequest, 'directmsg_count', 'directmsg_count', { pubkey: ME }, { onEvent: () => undefined });
    await flush();
    expect(readOnly.subs).toEqual([]);
    const h = harness();
    signedSubscription(h.subscribe, h.signRequest, 'directmsg_count', 'directmsg_count', { pubkey: ME }, { onEvent: () => undefined }).close();
    await flush();
    expect(h.subs).toEqual([]);
  });
});
