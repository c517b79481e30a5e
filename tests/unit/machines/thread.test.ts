import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { threadMachine, threadNotes, threadStatusOf, type FetchThreadInput, type ThreadPage } from '../../../machines/thread.ts';
import { emptyStats } from '../../../core/bundle.ts';
import { emptyProfile } from '../../../core/profile.ts';
import { parseThread } from '../../../worker/threads.ts';
import type { CacheObject, FeedNote, NostrEvent, ThreadTarget } from '../../../core/types.ts';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const id = (n: number) => n.toString(16).padStart(64, '0');
const flush = () => vi.advanceTimersByTimeAsync(0);

function ev(n: number, opts: Partial<NostrEvent> = {}): NostrEvent & CacheObject {
  return { id: id(n), pubkey: A, created_at: n, kind: 1, tags: [], content: `note ${n}`, sig: 's', ...opts };
}
const reply = (n: number, parent: number, root = parent) =>
  ev(n, { tags: [['e', id(root), '', 'root'], ...(root !== parent ? [['e', id(parent), '', 'reply']] : [])] });
const range = (elements: string[]): CacheObject => ({ kind: 10000113, content: JSON.stringify({ since: 0, until: 9, order_by: 'created_at', elements }) });

function feedNote(n: number): FeedNote {
  return { key: id(n), event: ev(n), author: emptyProfile(A), stats: emptyStats(), topZaps: [], referencedEvents: {}, profiles: {} };
}

describe('parseThread', () => {
  it('thread_view: replies first with their RANGE, then the chain oldest first; order is parents, focus, replies', () => {
    const root = ev(1);
    const mid = reply(2, 1);
    const focus = reply(3, 2, 1);
    const r1 = reply(5, 3, 1);
    const r2 = reply(4, 3, 1);
    const objects: CacheObject[] = [r1, r2, { kind: 0, id: 'p'.repeat(64), pubkey: A, created_at: 1, tags: [], content: '{"name":"anna"}', sig: 's' }, range([r1.id, r2.id]), root, mid, focus, range([root.id, mid.id, focus.id])];
    const page = parseThread(objects, { type: 'note', id: focus.id });
    expect(page.parents).toEqual([root.id, mid.id]);
    expect(page.focus).toBe(focus.id);
    expect(page.replies).toEqual([r1.id, r2.id]);
    expect(page.notes[focus.id].author.name).toBe('anna');
    expect(page.unresolved).toEqual([]);
  });

  it('an empty repost is filled from the 10000107 reference; one whose note is missing waits for resolution', () => {
    const focus = ev(1);
    const reposted = ev(7, { pubkey: B, content: 'eredeti' });
    const filled = ev(8, { kind: 6, pubkey: B, content: '', tags: [['e', reposted.id], ['p', B]] });
    const missing = ev(9, { kind: 6, pubkey: B, content: '', tags: [['e', id(77)]] });
    const objects: CacheObject[] = [filled, missing, { kind: 10000107, pubkey: B, content: JSON.stringify(reposted) }, range([filled.id, missing.id]), focus, range([focus.id])];
    const page = parseThread(objects, { type: 'note', id: focus.id });
    expect(page.notes[filled.id]).toMatchObject({ event: { content: 'eredeti' }, repostedBy: { pubkey: B } });
    expect(page.unresolved).toEqual([{ key: missing.id, target: id(77), repostedBy: expect.objectContaining({ pubkey: B }), repostedAt: 9 }]);
  });

  it('a missing note has no focus; an article is found by its address', () => {
    expect(parseThread([range([])], { type: 'note', id: id(1) }).focus).toBeUndefined();
    const article = ev(10, { kind: 30023, tags: [['d', 'cikk'], ['title', 'Cím']] });
    const comment = ev(11, { tags: [['a', `30023:${A}:cikk`, '', 'root']] });
    const page = parseThread([article, comment, range([comment.id])], { type: 'article', pubkey: A, kind: 30023, identifier: 'cikk' });
    expect(page.focus).toBe(article.id);
    expect(page.parents).toEqual([]);
    expect(page.replies).toEqual([comment.id]);
  });
});

describe('thread machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function start(target: ThreadTarget = { type: 'note', id: id(3) }) {
    const fetches: { input: FetchThreadInput; resolve: (p: ThreadPage) => void }[] = [];
    const resolves: { ids: string[]; resolve: (r: Record<string, FeedNote>) => void }[] = [];
    const machine = threadMachine.provide({
      actors: {
        fetchThread: fromPromise<ThreadPage, FetchThreadInput>(({ input }) => new Promise((resolve) => fetches.push({ input, resolve }))),
        resolveReposts: fromPromise<Record<string, FeedNote>, { ids: string[] }>(({ input }) => new Promise((resolve) => resolves.push({ ids: input.ids, resolve }))),
      },
    });
    const actor = createActor(machine, { input: { target, userPubkey: B } });
    actor.start();
    return { actor, fetches, resolves, status: () => threadStatusOf(actor.getSnapshot()), ctx: () => actor.getSnapshot().context };
  }

  it('loads 100 with the viewer, then shows parents, the note and replies', async () => {
    const h = start();
    expect(h.status()).toBe('loading');
    expect(h.fetches[0].input).toEqual({ target: { type: 'note', id: id(3) }, limit: 100, userPubkey: B });
    h.fetches[0].resolve({ parents: [id(1)], focus: id(3), replies: [id(5)], notes: { [id(1)]: feedNote(1), [id(3)]: feedNote(3), [id(5)]: feedNote(5) }, unresolved: [] });
    await flush();
    expect(h.status()).toBe('ready');
    expect(threadNotes(h.ctx(), h.ctx().parents).map((n) => n.key)).toEqual([id(1)]);
  });

  it('reposts are resolved after the answer is in, and filled with the reposted note', async () => {
    const h = start();
    const repostedBy = emptyProfile(B);
    h.fetches[0].resolve({ parents: [], focus: id(3), replies: [id(8), id(5)], notes: { [id(3)]: feedNote(3), [id(5)]: feedNote(5) }, unresolved: [{ key: id(8), target: id(7), repostedBy, repostedAt: 8 }] });
    await flush();
    expect(h.status()).toBe('resolving');
    expect(h.resolves[0].ids).toEqual([id(7)]);
    h.resolves[0].resolve({ [id(7)]: feedNote(7) });
    await flush();
    expect(h.status()).toBe('ready');
    const replies = threadNotes(h.ctx(), h.ctx().replies);
    expect(replies.map((n) => n.key)).toEqual([id(8), id(5)]);
    expect(replies[0]).toMatchObject({ event: { id: id(7) }, repostedBy, repostedAt: 8 });
  });

  it('a viewer change fetches the thread again for the new viewer, keeping what shows meanwhile', async () => {
    const h = start();
    h.fetches[0].resolve({ parents: [], focus: id(3), replies: [], notes: { [id(3)]: feedNote(3) }, unresolved: [] });
    await flush();
    h.actor.send({ type: 'SET_VIEWER', userPubkey: id(40) });
    expect(h.fetches[1].input.userPubkey).toBe(id(40));
    expect(Object.keys(h.ctx().notes)).toEqual([id(3)]);
    h.actor.send({ type: 'SET_VIEWER', userPubkey: id(40) });
    expect(h.fetches).toHaveLength(2);
  });

  it('a missing note ends in notFound; LOAD clears and loads again', async () => {
    const h = start();
    h.fetches[0].resolve({ parents: [], replies: [], notes: {}, unresolved: [] });
    await flush();
    expect(h.status()).toBe('notFound');
    h.actor.send({ type: 'LOAD', target: { type: 'note', id: id(9) } });
    expect(h.status()).toBe('loading');
    expect(h.ctx().notes).toEqual({});
    expect(h.fetches[1].input.target).toEqual({ type: 'note', id: id(9) });
  });
});
