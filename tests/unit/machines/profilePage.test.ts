import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { loadingFlags, profileMachine, pushHistory, type ProfileLoad, type ProfileLoadInput } from '../../../machines/profilePage.ts';
import { emptyStats } from '../../../core/bundle.ts';
import { emptyProfile } from '../../../core/profile.ts';
import { loadProfilePart, parseZapList, relayFlagsOf } from '../../../worker/profilePages.ts';
import type { FeedNote, ProfileHistoryEntry, UserStats } from '../../../core/types.ts';

const pk = (n: number) => n.toString(16).padStart(64, '0');
const flush = () => vi.advanceTimersByTimeAsync(0);

function stats(followers: number): UserStats {
  return {
    followers_count: followers,
    follows_count: 1,
    note_count: 2,
    reply_count: 3,
    time_joined: 1_600_000_000,
    total_zap_count: 0,
    total_satszapped: 0,
    relay_count: 1,
    media_count: 0,
    long_form_note_count: 0,
  };
}

function note(n: number): FeedNote {
  return {
    key: `n${n}`,
    event: { id: `n${n}`, pubkey: pk(1), created_at: n, kind: 1, tags: [], content: '', sig: '' },
    author: emptyProfile(pk(1)),
    stats: emptyStats(),
    topZaps: [],
    referencedEvents: {},
    profiles: {},
  };
}

function start(pubkey = pk(1), history?: ProfileHistoryEntry[]) {
  const calls: { input: ProfileLoadInput; resolve: (r: ProfileLoad) => void; reject: (e: Error) => void }[] = [];
  const machine = profileMachine.provide({
    actors: { load: fromPromise<ProfileLoad, ProfileLoadInput>(({ input }) => new Promise((resolve, reject) => calls.push({ input, resolve, reject }))) },
  });
  const actor = createActor(machine, { input: { pubkey, userPubkey: pk(99), history } });
  actor.start();
  const pending = (what: string) => calls.filter((c) => c.input.what === what).at(-1)!;
  return { actor, calls, pending, ctx: () => actor.getSnapshot().context, flags: () => loadingFlags(actor.getSnapshot()) };
}

describe('profile machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('loads the profile and both sidebars at once, each with its own flag', async () => {
    const h = start();
    expect(h.calls.map((c) => c.input.what).sort()).toEqual(['profile', 'sidebarArticles', 'sidebarNotes']);
    expect(h.flags()).toMatchObject({ profile: true, sidebarNotes: true, sidebarArticles: true, notes: false, zaps: false });
    h.pending('profile').resolve({ what: 'profile', profile: { ...emptyProfile(pk(1)), name: 'egy' }, stats: stats(5), followsYou: true });
    await flush();
    expect(h.flags()).toMatchObject({ profile: false, sidebarNotes: true });
    expect(h.ctx()).toMatchObject({ followsYou: true, stats: { followers_count: 5 } });
    h.pending('sidebarNotes').resolve({ what: 'sidebarNotes', notes: [note(1)] });
    h.pending('sidebarArticles').reject(new Error('timeout'));
    await flush();
    expect(h.flags()).toMatchObject({ sidebarNotes: false, sidebarArticles: false });
    expect(h.ctx().error).toBe('timeout');
  });

  it('tabs: flags notes, replies, zaps, gallery, contacts, followers, relays; paging asks until = RANGE.since', async () => {
    const h = start();
    for (const tab of ['notes', 'replies', 'zaps', 'media', 'follows', 'followers', 'relays'] as const) h.actor.send({ type: 'LOAD_TAB', tab });
    expect(h.flags()).toMatchObject({ notes: true, replies: true, zaps: true, gallery: true, contacts: true, followers: true, relays: true });
    // A tab opened again restarts its own load only.
    h.actor.send({ type: 'LOAD_TAB', tab: 'notes' });
    expect(h.calls.filter((c) => c.input.what === 'profile')).toHaveLength(1);
    h.pending('notes').resolve({ what: 'notes', notes: [note(30), note(20)], since: 20 });
    await flush();
    expect(h.flags().notes).toBe(false);
    h.actor.send({ type: 'LOAD_MORE', tab: 'notes' });
    expect(h.pending('notes').input).toMatchObject({ what: 'notes', until: 20, pubkey: pk(1), userPubkey: pk(99) });
    h.pending('notes').resolve({ what: 'notes', notes: [note(20), note(10)], since: 10 });
    await flush();
    expect(h.ctx().notes.map((n) => n.key)).toEqual(['n30', 'n20', 'n10']);
    h.actor.send({ type: 'LOAD_MORE', tab: 'notes' });
    h.pending('notes').resolve({ what: 'notes', notes: [note(10)], since: 10 });
    await flush();
    expect(h.ctx().hasMore.notes).toBe(false);
    const before = h.calls.length;
    h.actor.send({ type: 'LOAD_MORE', tab: 'notes' });
    expect(h.calls.length).toBe(before);
  });

  it('a key change resets profile, stats and sidebars, cancels the old loads and reloads the open tab', async () => {
    const h = start();
    h.pending('profile').resolve({ what: 'profile', profile: emptyProfile(pk(1)), stats: stats(5), followsYou: true });
    h.actor.send({ type: 'LOAD_TAB', tab: 'replies' });
    h.pending('sidebarNotes').resolve({ what: 'sidebarNotes', notes: [note(1)] });
    await flush();
    const oldReplies = h.pending('replies');
    h.actor.send({ type: 'SET_PUBKEY', pubkey: pk(2) });
    expect(h.ctx()).toMatchObject({ pubkey: pk(2), followsYou: false, sidebarNotes: [], sidebarArticles: [], replies: [] });
    expect(h.ctx().profile).toBeUndefined();
    expect(h.ctx().stats).toBeUndefined();
    expect(h.pending('replies').input.pubkey).toBe(pk(2));
    expect(h.pending('profile').input.pubkey).toBe(pk(2));
    // The old key's answer arrives late and is ignored.
    oldReplies.resolve({ what: 'replies', notes: [note(5)], since: 5 });
    await flush();
    expect(h.ctx().replies).toEqual([]);
    expect(h.ctx().history.map((e) => e.pubkey)).toEqual([pk(2), pk(1)]);
    expect(h.ctx().history[1].stats?.followers_count).toBe(5);
    // The same key again changes nothing.
    const n = h.calls.length;
    h.actor.send({ type: 'SET_PUBKEY', pubkey: pk(2) });
    expect(h.calls.length).toBe(n);
  });

  it('a viewer change (a login settling after the page opened) loads the page again for the new viewer, the history untouched', async () => {
    const h = start();
    h.pending('profile').resolve({ what: 'profile', profile: emptyProfile(pk(1)), stats: stats(5), followsYou: false });
    h.actor.send({ type: 'LOAD_TAB', tab: 'notes' });
    await flush();
    h.actor.send({ type: 'SET_VIEWER', userPubkey: pk(42) });
    expect(h.ctx()).toMatchObject({ pubkey: pk(1), userPubkey: pk(42), followsYou: false });
    expect(h.pending('profile').input.userPubkey).toBe(pk(42));
    expect(h.pending('notes').input.userPubkey).toBe(pk(42));
    expect(h.ctx().history.map((e) => e.pubkey)).toEqual([pk(1)]);
    h.pending('profile').resolve({ what: 'profile', profile: emptyProfile(pk(1)), stats: stats(5), followsYou: true });
    await flush();
    expect(h.ctx().followsYou).toBe(true);
    // The same viewer again changes nothing.
    const n = h.calls.length;
    h.actor.send({ type: 'SET_VIEWER', userPubkey: pk(42) });
    expect(h.calls.length).toBe(n);
  });

  it('history: most recent first, a repeat moves to the front with its stats, above 10 the oldest goes', () => {
    let history: ProfileHistoryEntry[] = [];
    for (let i = 1; i <= 10; i++) history = pushHistory(history, { pubkey: pk(i), stats: stats(i) });
    expect(history.map((e) => e.pubkey)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map(pk));
    history = pushHistory(history, { pubkey: pk(3) });
    expect(history[0]).toMatchObject({ pubkey: pk(3), stats: { followers_count: 3 } });
    expect(history).toHaveLength(10);
    history = pushHistory(history, { pubkey: pk(11), stats: stats(11) });
    expect(history).toHaveLength(10);
    expect(history.map((e) => e.pubkey)).not.toContain(pk(1));
    expect(history.at(-1)?.pubkey).toBe(pk(2));
  });
});

describe('profile requests', () => {
  it('user_profile + is_user_following give the profile, stats, join date source and followsYou', async () => {
    const asked: [string, Record<string, unknown> | undefined][] = [];
    const result = await loadProfilePart(
      async (command, payload) => {
        asked.push([command, payload]);
        if (command === 'is_user_following') return { events: [{ kind: 10000125, content: 'true' }] };
        return {
          events: [
            { kind: 0, id: 'x'.repeat(64), pubkey: pk(1), created_at: 5, tags: [], content: '{"name":"egy"}', sig: 's' },
            { kind: 10000105, content: JSON.stringify({ pubkey: pk(1), followers_count: 7, time_joined: 1_600_000_000 }) },
          ],
        };
      },
      { what: 'profile', pubkey: pk(1), userPubkey: pk(99) },
    );
    expect(asked).toEqual([
      ['user_profile', { pubkey: pk(1), user_pubkey: pk(99) }],
      ['is_user_following', { pubkey: pk(1), user_pubkey: pk(99) }],
    ]);
    expect(result).toMatchObject({ what: 'profile', followsYou: true, profile: { name: 'egy' }, stats: { followers_count: 7, time_joined: 1_600_000_000 } });
  });

  it('tab feeds use the profile specs of mega_feed_directive', async () => {
    const specs: unknown[] = [];
    const request = async (_c: string, payload?: Record<string, unknown>) => {
      specs.push({ spec: JSON.parse(String(payload?.spec)), limit: payload?.limit });
      return { events: [] };
    };
    await loadProfilePart(request, { what: 'replies', pubkey: pk(1) });
    await loadProfilePart(request, { what: 'gallery', pubkey: pk(1) });
    await loadProfilePart(request, { what: 'sidebarArticles', pubkey: pk(1) });
    expect(specs).toEqual([
      { spec: { id: 'feed', kind: 'notes', notes: 'replies', pubkey: pk(1) }, limit: 20 },
      { spec: { id: 'feed', kind: 'notes', notes: 'user_media_thumbnails', pubkey: pk(1) }, limit: 20 },
      { spec: { id: 'feed', kind: 'reads', pubkey: pk(1) }, limit: 2 },
    ]);
  });

  it('relay markers and zap lists', () => {
    expect(relayFlagsOf([['r', 'wss://a'], ['r', 'wss://b', 'write'], ['r', 'wss://c', 'read']])).toEqual({
      'wss://a': { read: true, write: true },
      'wss://b': { read: false, write: true },
      'wss://c': { read: true, write: false },
    });
    const list = parseZapList([
      { kind: 10000129, content: JSON.stringify({ event_id: 'e1', created_at: 50, sender: pk(2), receiver: pk(1), amount_sats: 21, zap_receipt_id: 'z1' }) },
      { kind: 10000113, content: JSON.stringify({ since: 50, until: 50, order_by: 'created_at', elements: ['z1'] }) },
    ]);
    expect(list).toEqual({ zaps: [{ id: 'z1', amount: 21, sender: pk(2), message: '', created_at: 50, eventId: 'e1' }], since: 50 });
  });
});
