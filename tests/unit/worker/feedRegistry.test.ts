import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchFeedPage } from '../../../worker/feedRegistry.ts';
import { Throttle } from '../../../worker/util/throttle.ts';
import type { CacheRequest } from '../../../worker/util/cacheRequest.ts';
import type { CacheReply } from '../../../core/types.ts';

describe('fetchFeedPage', () => {
  const reply = (r: CacheReply): CacheRequest => vi.fn(async () => r);

  it('sends mega_feed_directive with only the cursors it has', async () => {
    const request = reply({ events: [] });
    await fetchFeedPage(request, { spec: 's', limit: 20 });
    expect(request).toHaveBeenCalledWith('mega_feed_directive', { spec: 's', limit: 20 });
    await fetchFeedPage(request, { spec: 's', limit: 20, until: 5, userPubkey: 'pk' });
    expect(request).toHaveBeenLastCalledWith('mega_feed_directive', { spec: 's', limit: 20, until: 5, user_pubkey: 'pk' });
    await fetchFeedPage(request, { spec: 's', limit: 100, since: 9 });
    expect(request).toHaveBeenLastCalledWith('mega_feed_directive', { spec: 's', limit: 100, since: 9 });
  });

  it('returns the RANGE cursor and order', async () => {
    const page = await fetchFeedPage(
      reply({ events: [{ kind: 10000113, content: JSON.stringify({ since: 3, until: 7, order_by: 'score', elements: [] }) }] }),
      { spec: 's', limit: 20 },
    );
    expect(page).toEqual({ notes: [], since: 3, until: 7, orderBy: 'score' });
  });

  it('a NOTICE is an empty page; a timeout is an error worth retrying', async () => {
    expect(await fetchFeedPage(reply({ events: [], notice: 'invalid spec format' }), { spec: 's', limit: 20 })).toEqual({ notes: [] });
    await expect(fetchFeedPage(reply({ events: [], notice: 'timeout' }), { spec: 's', limit: 20 })).rejects.toThrow('timeout');
  });
});

describe('Throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('emits the first value at once and coalesces a burst into one trailing call', () => {
    const out: number[] = [];
    const t = new Throttle<number>(50, (v) => out.push(v));
    t.push(1);
    expect(out).toEqual([1]);
    t.push(2);
    t.push(3);
    vi.advanceTimersByTime(49);
    expect(out).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(out).toEqual([1, 3]);
    vi.advanceTimersByTime(100);
    t.push(4);
    expect(out).toEqual([1, 3, 4]);
  });

  it('cancel drops a pending value', () => {
    const out: number[] = [];
    const t = new Throttle<number>(50, (v) => out.push(v));
    t.push(1);
    t.push(2);
    t.cancel();
    vi.advanceTimersByTime(100);
    expect(out).toEqual([1]);
  });
});
