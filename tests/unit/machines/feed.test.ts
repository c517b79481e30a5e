import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { feedMachine, feedStatusOf, type FeedPage, type FetchPageInput } from '../../../machines/feed.ts';
import { emptyStats } from '../../../core/bundle.ts';
import { emptyProfile } from '../../../core/profile.ts';
import type { FeedNote } from '../../../core/types.ts';

function note(n: number, opts: { repostOf?: number } = {}): FeedNote {
  const pubkey = String(n % 10).repeat(64);
  return {
    key: opts.repostOf !== undefined ? `repost${n}` : `n${n}`,
    event: { id: `n${opts.repostOf ?? n}`, pubkey, created_at: n, kind: 1, tags: [], content: `#${n}`, sig: '' },
    author: emptyProfile(pubkey),
    stats: emptyStats(),
    topZaps: [],
    referencedEvents: {},
    profiles: {},
    ...(opts.repostOf !== undefined ? { repostedAt: n, repostedBy: emptyProfile(pubkey) } : {}),
  };
}
/** Notes newest first, as a created_at page would hold them. */
const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => note(from - i));
const page = (notes: FeedNote[], orderBy = 'created_at'): FeedPage => ({
  notes,
  since: notes.length ? Math.min(...notes.map((x) => x.event.created_at)) : undefined,
  until: notes.length ? Math.max(...notes.map((x) => x.event.created_at)) : undefined,
  orderBy,
});

interface Call {
  input: FetchPageInput;
  resolve: (p: FeedPage) => void;
  reject: (e: Error) => void;
}

function start(spec = '{"id":"all-notes","kind":"notes"}', userPubkey?: string) {
  const calls: Call[] = [];
  const fetchPage = fromPromise<FeedPage, FetchPageInput>(
    ({ input }) => new Promise<FeedPage>((resolve, reject) => calls.push({ input, resolve, reject })),
  );
  const actor = createActor(feedMachine.provide({ actors: { fetchPage } }), { input: { spec, userPubkey } });
  actor.start();
  const ctx = () => actor.getSnapshot().context;
  const status = () => feedStatusOf(actor.getSnapshot());
  return { actor, calls, ctx, status };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('feed machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('loads the first page of 20 with the viewer', async () => {
    const { calls, ctx, status } = start(undefined, 'guest');
    expect(status()).toBe('loading');
    expect(calls[0].input).toEqual({ spec: '{"id":"all-notes","kind":"notes"}', limit: 20, userPubkey: 'guest' });
    calls[0].resolve(page(range(100, 81)));
    await flush();
    expect(status()).toBe('ready');
    expect(ctx().notes).toHaveLength(20);
    expect(ctx().cursor).toBe(81);
    expect(ctx().hasMore).toBe(true);
  });

  it('loadMore asks until = RANGE.since, de-dups the boundary item, and stops when a page adds nothing', async () => {
    const { actor, calls, ctx, status } = start();
    calls[0].resolve(page(range(100, 81)));
    await flush();
    actor.send({ type: 'LOAD_MORE' });
    expect(status()).toBe('loadingMore');
    expect(calls[1].input).toMatchObject({ until: 81, limit: 20 });
    expect(calls[1].input.since).toBeUndefined();
    calls[1].resolve(page(range(81, 62)));
    await flush();
    expect(ctx().notes.map((n) => n.key)).toEqual(range(100, 62).map((n) => n.key));
    expect(ctx().cursor).toBe(62);
    actor.send({ type: 'LOAD_MORE' });
    calls[2].resolve(page([note(62)]));
    await flush();
    expect(ctx().hasMore).toBe(false);
    actor.send({ type: 'LOAD_MORE' });
    expect(calls).toHaveLength(3);
    expect(status()).toBe('ready');
  });

  it('an empty first page has nothing more', async () => {
    const { actor, calls, ctx } = start();
    calls[0].resolve({ notes: [] });
    await flush();
    expect(ctx().hasMore).toBe(false);
    actor.send({ type: 'LOAD_MORE' });
    expect(calls).toHaveLength(1);
  });

  it('polls every 30 s for newer items with since = newest created_at and limit 100', async () => {
    const { calls, ctx } = start();
    calls[0].resolve(page(range(100, 81)));
    await flush();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls[1].input).toMatchObject({ since: 100, limit: 100 });
    // Oldest first, with the boundary item again: the pill shows them newest first, without it.
    calls[1].resolve(page([note(100), note(101), note(102)]));
    await flush();
    expect(ctx().pending.map((n) => n.key)).toEqual(['n102', 'n101']);
    expect(ctx().notes).toHaveLength(20);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls[2].input.since).toBe(102);
  });

  it('SHOW_PENDING prepends the pending items', async () => {
    const { actor, calls, ctx } = start();
    calls[0].resolve(page(range(100, 96)));
    await flush();
    await vi.advanceTimersByTimeAsync(30_000);
    calls[1].resolve(page(range(103, 101)));
    await flush();
    actor.send({ type: 'SHOW_PENDING' });
    expect(ctx().pending).toEqual([]);
    expect(ctx().notes.map((n) => n.event.created_at)).toEqual([103, 102, 101, 100, 99, 98, 97, 96]);
  });

  it('caps pending at 100 and stops polling while 100 are pending', async () => {
    const { calls, ctx } = start();
    calls[0].resolve(page(range(100, 91)));
    await flush();
    await vi.advanceTimersByTimeAsync(30_000);
    calls[1].resolve(page(range(180, 101)));
    await flush();
    expect(ctx().pending).toHaveLength(80);
    await vi.advanceTimersByTimeAsync(30_000);
    calls[2].resolve(page(range(230, 181)));
    await flush();
    expect(ctx().pending).toHaveLength(100);
    expect(ctx().pending[0].event.created_at).toBe(230);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(3);
  });

  it('does not poll before the first page has arrived', async () => {
    const { calls, ctx } = start();
    await vi.advanceTimersByTimeAsync(45_000);
    expect(calls).toHaveLength(1);
    calls[0].resolve(page(range(100, 81)));
    await flush();
    await vi.advanceTimersByTimeAsync(15_000);
    expect(calls).toHaveLength(2);
    expect(calls[1].input.since).toBe(100);
    expect(ctx().pending).toEqual([]);
  });

  it('does not poll a feed that is not sorted by created_at', async () => {
    const { calls } = start('{"id":"global-trending","kind":"notes"}');
    calls[0].resolve(page(range(100, 81), 'score'));
    await flush();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(1);
  });

  it('uses the repost time for reposts when asking for newer items', async () => {
    const { calls } = start();
    calls[0].resolve(page([note(150, { repostOf: 90 }), note(100)]));
    await flush();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls[1].input.since).toBe(150);
  });

  it('SELECT clears the notes and loads the first page of the new spec', async () => {
    const { actor, calls, ctx, status } = start();
    calls[0].resolve(page(range(100, 81)));
    await flush();
    await vi.advanceTimersByTimeAsync(30_000);
    calls[1].resolve(page([note(101)]));
    await flush();
    actor.send({ type: 'SELECT', spec: '{"id":"latest","kind":"notes"}' });
    expect(status()).toBe('loading');
    expect(ctx().notes).toEqual([]);
    expect(ctx().pending).toEqual([]);
    expect(calls[2].input).toMatchObject({ spec: '{"id":"latest","kind":"notes"}', limit: 20 });
    expect(calls[2].input.until).toBeUndefined();
  });

  it('a failed first page is an error that RETRY recovers from', async () => {
    const { actor, calls, ctx, status } = start();
    calls[0].reject(new Error('timeout'));
    await flush();
    expect(status()).toBe('error');
    expect(ctx().error).toBe('timeout');
    actor.send({ type: 'RETRY' });
    expect(status()).toBe('loading');
    calls[1].resolve(page([note(1)]));
    await flush();
    expect(status()).toBe('ready');
    expect(ctx().error).toBeUndefined();
  });

  it('a failed older page keeps the notes and can be asked again', async () => {
    const { actor, calls, ctx, status } = start();
    calls[0].resolve(page(range(100, 81)));
    await flush();
    actor.send({ type: 'LOAD_MORE' });
    calls[1].reject(new Error('timeout'));
    await flush();
    expect(status()).toBe('ready');
    expect(ctx().notes).toHaveLength(20);
    actor.send({ type: 'LOAD_MORE' });
    expect(calls[2].input.until).toBe(81);
  });
});
