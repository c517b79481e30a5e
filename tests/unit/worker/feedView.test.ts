import { describe, expect, it } from 'vitest';
import {
  FeedView,
  NO_FILTER,
  ownNoteBelongs,
  pillOf,
  shownList,
  viewerFilterOf,
  visibleNotes,
  withOwnNotes,
  withOwnReplies,
  type FeedState,
  type FeedViewContext,
  type OwnNote,
} from '../../../worker/feedView.ts';
import { OwnNotes } from '../../../worker/ownNotes.ts';
import { keys, note, profile } from '../helpers/feedNotes.ts';
import type { FeedNote } from '../../../core/types.ts';

const LATEST = JSON.stringify({ id: 'latest', kind: 'notes' });
const ME = 'me';

function state(notes: FeedNote[], extra: Partial<FeedState> = {}): FeedState {
  return { spec: LATEST, status: 'ready', notes, pending: [], hasMore: true, loaded: true, ...extra };
}

const loading = state([], { status: 'loading', loaded: false });
const plain: FeedViewContext = { filter: NO_FILTER, own: [] };
const muting = (...pubkeys: string[]): FeedViewContext => ({
  filter: viewerFilterOf({ muted: pubkeys, mutedTags: [], mutedPrivateTags: [] }, ME),
  own: [],
});

function pendingOwn(key: string, createdAt: number, extra = {}): OwnNote {
  return { note: note(key, createdAt, ME, extra), state: 'pending' };
}

describe('visible list and mutes', () => {
  it('hides muted people, their reposts and muted threads, never the viewer; unchanged lists keep their identity', () => {
    const filter = viewerFilterOf({ muted: ['bad', ME], mutedTags: [['e', 'root1']], mutedPrivateTags: [['p', 'x']] }, ME);
    const repost = { ...note('r', 5, 'ok'), repostedBy: profile('bad') };
    const inThread = note('t', 5, 'ok', { tags: [['e', 'root1', '', 'root']] });
    const list = [note('a', 9, 'bad'), note('b', 8, ME), repost, inThread, note('root1', 4, 'ok'), note('c', 3, 'ok')];
    expect(keys(visibleNotes(list, filter))).toEqual(['b', 'c']);
    const clean = [note('b', 8, ME), note('c', 3, 'ok')];
    expect(visibleNotes(clean, filter)).toBe(clean);
    expect(viewerFilterOf({ muted: [ME], mutedTags: [] }, ME)).toBe(NO_FILTER);
  });

  it('the pill counts and shows only what the viewer would see, one avatar per person, at most three', () => {
    const view = new FeedView();
    const pending = [note('p1', 9, 'bad'), note('p2', 8, 'x'), note('p3', 7, 'x'), note('p4', 6, 'y'), note('p5', 5, 'z'), note('p6', 4, 'w')];
    const shown = view.view(state([note('a', 1, 'bad'), note('b', 1, 'ok')], { pending }), muting('bad'));
    expect(keys(shown.notes)).toEqual(['b']);
    expect(shown.pendingCount).toBe(5);
    expect(shown.pendingAuthors.map((p) => p.pubkey)).toEqual(['x', 'y', 'z']);
    // A reposted note's avatar is the reposter's.
    expect(pillOf([{ ...note('q', 1, 'author'), repostedBy: profile('sharer') }]).pendingAuthors.map((p) => p.pubkey)).toEqual(['sharer']);
  });
});

describe('keep while loading (cached page, first screen)', () => {
  it('shows the cached page as ready until the network page arrives, never a skeleton in between', () => {
    const view = new FeedView();
    expect(view.view(loading, plain)).toMatchObject({ status: 'loading', notes: [] });
    expect(view.restore([note('b'), note('c')])).toBe(true);
    const shown = view.view(loading, plain);
    expect(shown).toMatchObject({ status: 'ready', fromCache: true, hasMore: true });
    expect(keys(shown.notes)).toEqual(['b', 'c']);
    // The tab's six first-screen cards, then the worker's longer stored page: the longer one wins, the shorter never replaces it.
    expect(view.restore([note('b'), note('c'), note('d')])).toBe(true);
    expect(view.restore([note('b')])).toBe(false);
    expect(keys(view.view(loading, plain).notes)).toEqual(['b', 'c', 'd']);
    // A failed first load with a cached page still says it failed.
    expect(view.view({ ...loading, status: 'error', error: 'timeout' }, plain)).toMatchObject({ status: 'error', fromCache: true, error: 'timeout' });
  });

  it('keeps shared notes in place and holds the new ones above them behind the pill until it is opened', () => {
    const view = new FeedView();
    view.restore([note('b'), note('c'), note('gone')]);
    const network = state([note('new1', 5, 'x'), note('new2', 4, 'y'), note('b'), note('c'), note('d')]);
    const shown = view.view(network, plain);
    expect(keys(shown.notes)).toEqual(['b', 'c', 'd']);
    expect(shown.pendingCount).toBe(2);
    expect(shown.pendingAuthors.map((p) => p.pubkey)).toEqual(['x', 'y']);
    expect(shown.fromCache).toBeUndefined();
    // The same machine state again (a poll that found nothing): the same snapshot, no clone for the tab.
    expect(view.view({ ...network }, plain)).toBe(shown);
    view.showPending();
    expect(keys(view.view(network, plain).notes)).toEqual(['new1', 'new2', 'b', 'c', 'd']);
  });

  it('adds held notes to the poll pending count, poll authors first', () => {
    const view = new FeedView();
    view.restore([note('b')]);
    const shown = view.view(state([note('n', 5, 'x'), note('b')], { pending: [note('p', 9, 'p')] }), plain);
    expect(shown.pendingCount).toBe(2);
    expect(shown.pendingAuthors.map((p) => p.pubkey)).toEqual(['p', 'x']);
  });

  it('replaces a cache sharing nothing with the network page; a cached page read after the network answered is not shown', () => {
    const view = new FeedView();
    view.restore([note('old')]);
    const network = state([note('a'), note('b')]);
    expect(view.view(network, plain).notes).toBe(network.notes);
    expect(view.restore([note('z')])).toBe(false);
    expect(keys(view.view(network, plain).notes)).toEqual(['a', 'b']);
  });
});

describe('own notes', () => {
  it('belong to Legújabb, everyone-newest and the own profile tabs, by reply or not', () => {
    const post = note('n', 1, ME);
    const reply = { ...note('r', 1, ME), replyTo: { id: 'parent' } };
    const profileNotes = JSON.stringify({ id: 'feed', kind: 'notes', notes: 'authored', pubkey: ME });
    const profileReplies = JSON.stringify({ id: 'feed', kind: 'notes', notes: 'replies', pubkey: ME });
    expect([LATEST, JSON.stringify({ id: 'all-notes', kind: 'notes' }), profileNotes, profileReplies].map((s) => ownNoteBelongs(s, post))).toEqual([true, true, true, false]);
    expect([LATEST, profileNotes, profileReplies].map((s) => ownNoteBelongs(s, reply))).toEqual([false, false, true]);
    expect(ownNoteBelongs(JSON.stringify({ id: 'global-trending', kind: 'notes' }), post)).toBe(false);
    expect(ownNoteBelongs(JSON.stringify({ id: 'feed', kind: 'notes', pubkey: 'someone' }), post)).toBe(false);
    expect(ownNoteBelongs('not json', post)).toBe(false);
  });

  it('a pending own note is on top at once, marked; confirmed it shows as a normal card', () => {
    const view = new FeedView();
    const network = state([note('a', 50, 'x'), note('b', 40, 'y')]);
    const mine = pendingOwn('mine', 60);
    const shown = view.view(network, { filter: NO_FILTER, own: [mine] });
    expect(keys(shown.notes)).toEqual(['mine', 'a', 'b']);
    expect(shown.notes[0].local).toBe('pending');
    expect(shown.pendingCount).toBe(0);
    const confirmed = view.view(network, { filter: NO_FILTER, own: [{ ...mine, state: 'confirmed' }] });
    expect(keys(confirmed.notes)).toEqual(['mine', 'a', 'b']);
    expect(confirmed.notes[0].local).toBeUndefined();
  });

  it('once the server returns the own note it is shown once, the server copy, and not counted behind the pill', () => {
    const view = new FeedView();
    const own = [pendingOwn('mine', 60)];
    const server = { ...note('mine', 60, ME), stats: { ...note('x').stats, likes: 3 } };
    const inPage = view.view(state([server, note('a', 50)]), { filter: NO_FILTER, own });
    expect(keys(inPage.notes)).toEqual(['mine', 'a']);
    expect(inPage.notes[0].stats.likes).toBe(3);
    expect(inPage.notes[0].local).toBeUndefined();
    // A poll found it: it stays on screen and the pill does not count it.
    const polled = view.view(state([note('a', 50)], { pending: [server, note('other', 70, 'z')] }), { filter: NO_FILTER, own });
    expect(keys(polled.notes)).toEqual(['mine', 'a']);
    expect(polled.pendingCount).toBe(1);
    expect(polled.pendingAuthors.map((p) => p.pubkey)).toEqual(['z']);
  });

  it('an own note older than the last shown card waits for its page; a feed without more pages takes it', () => {
    const old = pendingOwn('old', 10);
    expect(keys(withOwnNotes([note('a', 50)], [old], () => true, true))).toEqual(['a']);
    expect(keys(withOwnNotes([note('a', 50)], [old], () => true, false))).toEqual(['a', 'old']);
    // Only into feeds it belongs to; a cached page being shown takes it too.
    expect(keys(withOwnNotes([note('a', 50)], [pendingOwn('n', 60)], () => false))).toEqual(['a']);
    const view = new FeedView();
    view.restore([note('c', 50)]);
    expect(keys(view.view(loading, { filter: NO_FILTER, own: [pendingOwn('n', 60)] }).notes)).toEqual(['n', 'c']);
  });

  it("a thread takes own replies to its focused note or to a reply it shows, newest first, and no one else's", () => {
    const focus = note('focus', 10, 'x');
    const replies = [note('r2', 30, 'y'), note('r1', 20, 'z')];
    const toFocus = { note: { ...note('m1', 40, ME), replyTo: { id: 'focus' } }, state: 'pending' as const };
    const toReply = { note: { ...note('m2', 25, ME), replyTo: { id: 'r1' } }, state: 'confirmed' as const };
    const elsewhere = { note: { ...note('m3', 50, ME), replyTo: { id: 'another' } }, state: 'pending' as const };
    const shown = withOwnReplies(focus, replies, [elsewhere, toReply, toFocus]);
    expect(shown.map((n) => [n.key, n.local])).toEqual([['m1', 'pending'], ['r2', undefined], ['m2', undefined], ['r1', undefined]]);
    expect(withOwnReplies(focus, replies, [elsewhere])).toBe(replies);
    expect(withOwnReplies(undefined, replies, [toFocus])).toBe(replies);
  });

  it('a profile list keeps its answer while the list, the own notes and the mutes stay the same', () => {
    const list = [note('a', 10, 'x')];
    let made = 0;
    const make = () => (made++, [...list]);
    const first = shownList('notes', list, plain, make);
    expect(shownList('notes', list, plain, make)).toBe(first);
    expect(shownList('replies', list, plain, make)).not.toBe(first);
    expect(shownList('notes', list, { filter: NO_FILTER, own: [pendingOwn('m', 20)] }, make)).not.toBe(first);
    expect(made).toBe(3);
  });

  it('the store: signed notes become cards (pending), confirm, failure removes, the profile fills in once', async () => {
    const asked: string[] = [];
    const own = new OwnNotes([
      async () => undefined,
      async (pubkey) => (asked.push(pubkey), { ...profile(pubkey), name: 'Én' }),
    ]);
    let changes = 0;
    own.watch(() => changes++);
    const event = { id: 'e1', pubkey: ME, created_at: 100, kind: 1, tags: [['e', 'parent', '', 'reply']], content: 'szia', sig: 's' };
    own.add(event);
    own.add(event);
    own.add({ ...event, id: 'k7', kind: 7 });
    expect(own.all.map((o) => [o.note.event.id, o.state])).toEqual([['e1', 'pending']]);
    expect(own.all[0].note.replyTo?.id).toBe('parent');
    await expect.poll(() => own.all[0].note.author.name).toBe('Én');
    own.confirm('e1');
    expect(own.all[0].state).toBe('confirmed');
    own.add({ ...event, id: 'e2', tags: [] });
    expect(own.all[0].note.author.name).toBe('Én');
    own.fail('e2');
    expect(own.all.map((o) => o.note.event.id)).toEqual(['e1']);
    expect(asked).toEqual([ME]);
    expect(changes).toBe(5);
  });
});
