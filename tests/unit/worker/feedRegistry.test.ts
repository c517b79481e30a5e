import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchFeedPage, FeedRegistry } from '../../../worker/feedRegistry.ts';
import { Throttle } from '../../../worker/util/throttle.ts';
import type { CacheRequest } from '../../../worker/util/cacheRequest.ts';
import type { CacheReply, FeedSnapshot } from '../../../core/types.ts';
import { OwnNotes } from '../../../worker/ownNotes.ts';
import { NO_FILTER, viewerFilterOf } from '../../../worker/feedView.ts';

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

describe('FeedRegistry through feedView', () => {
  const LATEST = JSON.stringify({ id: 'latest', kind: 'notes' });
  const page = (ids: string[], author: string): CacheReply => ({
    events: [
      ...ids.map((id, i) => ({ id, pubkey: author, created_at: 2000 - i, kind: 1, tags: [], content: id, sig: '' })),
      { kind: 10000113, content: JSON.stringify({ since: 1, until: 2000, order_by: 'created_at', elements: ids }) },
    ],
  });
  const me = 'ee'.repeat(32);
  const other = 'ab'.repeat(32);

  it('shows a note published from any tab at once, pending then plain, and gone when refused; mutes apply on refresh', async () => {
    const own = new OwnNotes();
    let filter = NO_FILTER;
    const registry = new FeedRegistry({ request: async () => page(['n1', 'n2'], other), userPubkey: () => me, throttleMs: 0, own, filter: () => filter });
    own.watch(() => registry.refresh());
    const seen: FeedSnapshot[] = [];
    const handle = registry.open('tab', LATEST, (s) => seen.push(s));
    await expect.poll(() => seen.at(-1)?.notes.length).toBe(2);

    own.add({ id: 'mine', pubkey: me, created_at: 3000, kind: 1, tags: [], content: 'szia', sig: 's' });
    expect(seen.at(-1)!.notes.map((n) => [n.key, n.local])).toEqual([['mine', 'pending'], ['n1', undefined], ['n2', undefined]]);
    own.confirm('mine');
    expect(seen.at(-1)!.notes.map((n) => [n.key, n.local])).toEqual([['mine', undefined], ['n1', undefined], ['n2', undefined]]);
    own.add({ id: 'refused', pubkey: me, created_at: 3001, kind: 1, tags: [], content: 'nem', sig: 's' });
    expect(seen.at(-1)!.notes[0].key).toBe('refused');
    own.fail('refused');
    expect(seen.at(-1)!.notes.map((n) => n.key)).toEqual(['mine', 'n1', 'n2']);

    filter = viewerFilterOf({ muted: [other], mutedTags: [] }, me);
    registry.refresh();
    expect(seen.at(-1)!.notes.map((n) => n.key)).toEqual(['mine']);
    registry.close(handle);
  });
});
