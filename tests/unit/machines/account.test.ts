import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { accountMachine, followRepairOpen, showPremiumReminder, type PublishOutput } from '../../../machines/account.ts';
import { defaultRecord, type Draft, type ListName, type RemoteList } from '../../../machines/accountLists.ts';
import type { KeyState } from '../../../machines/login.ts';
import { PREMIUM_REMINDER_INTERVAL_MS } from '../../../core/config.ts';
import type { AccountAction, AccountRecord, ActionResult, MembershipTier, NostrEvent } from '../../../core/types.ts';

const ME = 'a'.repeat(64);
const BOB = 'b'.repeat(64);
const CAROL = 'c'.repeat(64);
const DAVE = 'd'.repeat(64);

interface Fakes {
  stored?: Partial<AccountRecord>;
  remote: Partial<Record<ListName, RemoteList | null>>;
  publishOk: boolean;
  published: Draft[];
  fetched: ListName[];
  tier?: MembershipTier;
  fetchFails?: boolean;
}

function signedFrom(draft: Draft, created_at: number): NostrEvent {
  const content = draft.encryptPrivate ? `enc(${JSON.stringify(draft.encryptPrivate)})` : draft.content;
  return { id: 'e'.repeat(64), pubkey: ME, created_at, kind: draft.kind, tags: draft.tags, content, sig: 'f'.repeat(128) };
}

function start(f: Fakes, keyState: KeyState = 'sign') {
  let clock = 1_000_000;
  const actor = createActor(
    accountMachine.provide({
      actors: {
        loadRecord: fromPromise(async () => (f.stored ? ({ ...defaultRecord(ME), ...f.stored } as AccountRecord) : undefined)),
        fetchLists: fromPromise(async () => ({ ...f.remote })),
        fetchList: fromPromise<RemoteList | null, { pubkey: string; list: ListName }>(async ({ input }) => {
          f.fetched.push(input.list);
          if (f.fetchFails) throw new Error('fetch-failed');
          return f.remote[input.list] ?? null;
        }),
        publish: fromPromise<PublishOutput, { draft: Draft }>(async ({ input }) => {
          f.published.push(input.draft);
          clock += 10;
          if (!f.publishOk) return { success: false, reasons: ['wss://a: timeout', 'wss://b: failed'] };
          return { success: true, reasons: [], event: signedFrom(input.draft, Math.max(clock, input.draft.after + 1)) };
        }),
        checkMembership: fromPromise(async () => f.tier),
      },
    }),
  );
  const results = new Map<number, ActionResult>();
  const pins: number[] = [];
  actor.on('done', (e) => results.set(e.id, e.result));
  actor.on('needPin', () => pins.push(1));
  actor.start();
  let nextId = 1;
  const act = async (action: AccountAction): Promise<ActionResult | undefined> => {
    const id = nextId++;
    actor.send({ type: 'ACTION', id, action });
    await vi.advanceTimersByTimeAsync(0);
    return results.get(id);
  };
  const record = () => actor.getSnapshot().context.record as AccountRecord;
  return { actor, act, record, results, pins, setUser: async (ks: KeyState = keyState) => {
    actor.send({ type: 'SET_USER', pubkey: ME, keyState: ks });
    await vi.advanceTimersByTimeAsync(0);
  } };
}

const contacts = (created_at: number, ...pks: string[]): RemoteList => ({
  created_at,
  tags: pks.map((p) => ['p', p]),
  content: '{"wss://relay":{"read":true,"write":true}}',
});

function fakes(over: Partial<Fakes> = {}): Fakes {
  return { remote: {}, publishOk: true, published: [], fetched: [], ...over };
}

describe('account machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('without a user every action answers no-pubkey', async () => {
    const { act } = start(fakes());
    expect(await act({ type: 'follow', pubkey: BOB })).toEqual({ ok: false, code: 'no-pubkey' });
  });

  it('loads the stored record with every default, own key always in the filter lists', async () => {
    const { record, setUser } = start(fakes());
    await setUser();
    const r = record();
    expect(r).toMatchObject({ pubkey: ME, following: [], likes: [], emojiHistory: [], membershipTier: 'none', usePrimalRelay: true });
    expect(r.mutelists).toEqual([{ pubkey: ME, content: true, trending: true }]);
    expect(r.uploadTime).toEqual({ small: 250, medium: 250, large: 250, huge: 250, final: 100 });
  });

  it('follow: fetches the latest contacts, keeps content and other tags, publishes kind 3 newer than the list', async () => {
    const f = fakes({ remote: { contacts: { ...contacts(500, BOB, CAROL), tags: [['p', BOB], ['p', CAROL], ['t', 'x']] } } });
    const { act, record, setUser } = start(f);
    await setUser();
    expect(record().following).toEqual([BOB, CAROL]);
    expect(await act({ type: 'follow', pubkey: DAVE })).toEqual({ ok: true });
    expect(f.fetched).toEqual(['contacts']);
    const draft = f.published[0];
    expect(draft).toMatchObject({ kind: 3, after: 500, content: '{"wss://relay":{"read":true,"write":true}}' });
    expect(draft.tags).toEqual([['p', BOB], ['p', CAROL], ['t', 'x'], ['p', DAVE]]);
    expect(record().following).toEqual([BOB, CAROL, DAVE]);
    expect(record().followingSince).toBeGreaterThan(500);
  });

  it('follow: an older remote list than the stored one is not accepted', async () => {
    const f = fakes({ stored: { following: [BOB, CAROL], contactTags: [['p', BOB], ['p', CAROL]], followingSince: 900 } });
    const { act, record, setUser } = start(f);
    await setUser();
    f.remote.contacts = contacts(800, BOB);
    await act({ type: 'follow', pubkey: DAVE });
    expect(f.published[0].tags).toEqual([['p', BOB], ['p', CAROL], ['p', DAVE]]);
    expect(record().following).toEqual([BOB, CAROL, DAVE]);
  });

  it('follow: a newer remote list that already has the user makes the follow a no-op', async () => {
    const f = fakes({ stored: { following: [BOB, CAROL], contactTags: [['p', BOB], ['p', CAROL]], followingSince: 100 } });
    const { act, setUser } = start(f);
    await setUser();
    f.remote.contacts = contacts(200, BOB, CAROL, DAVE);
    expect(await act({ type: 'follow', pubkey: DAVE })).toEqual({ ok: true, code: 'ignored' });
    expect(f.published).toEqual([]);
  });

  it('following an already followed user and unfollowing yourself are ignored without any fetch', async () => {
    const f = fakes({ remote: { contacts: contacts(500, BOB, CAROL) } });
    const { act, setUser } = start(f);
    await setUser();
    expect(await act({ type: 'follow', pubkey: BOB })).toEqual({ ok: true, code: 'ignored' });
    expect(await act({ type: 'unfollow', pubkey: ME })).toEqual({ ok: true, code: 'ignored' });
    expect(f.published).toEqual([]);
  });

  it('a result with fewer than 2 contacts opens the repair dialog; confirming publishes, cancelling does not', async () => {
    const f = fakes({ remote: { contacts: null } });
    const { actor, act, record, setUser } = start(f);
    await setUser();
    const follow = act({ type: 'follow', pubkey: BOB });
    await follow;
    expect(followRepairOpen(actor.getSnapshot())).toBe(true);
    expect(f.published).toEqual([]);
    expect(await act({ type: 'repairFollows', confirm: false })).toEqual({ ok: true });
    expect(followRepairOpen(actor.getSnapshot())).toBe(false);
    expect(record().following).toEqual([]);

    act({ type: 'follow', pubkey: BOB });
    await vi.advanceTimersByTimeAsync(0);
    expect(followRepairOpen(actor.getSnapshot())).toBe(true);
    expect(await act({ type: 'repairFollows', confirm: true })).toEqual({ ok: true });
    expect(f.published).toHaveLength(1);
    expect(record().following).toEqual([BOB]);
  });

  it('unfollow down to one contact also asks for repair', async () => {
    const f = fakes({ remote: { contacts: contacts(10, BOB, CAROL) } });
    const { actor, act, setUser } = start(f);
    await setUser();
    await act({ type: 'unfollow', pubkey: BOB });
    expect(followRepairOpen(actor.getSnapshot())).toBe(true);
  });

  it('a failed publish reports the reasons and changes nothing', async () => {
    const f = fakes({ remote: { contacts: contacts(10, BOB, CAROL) }, publishOk: false });
    const { act, record, setUser } = start(f);
    await setUser();
    expect(await act({ type: 'follow', pubkey: DAVE })).toEqual({ ok: false, code: 'publish-failed', reasons: ['wss://a: timeout', 'wss://b: failed'] });
    expect(record().following).toEqual([BOB, CAROL]);
  });

  it('a list that cannot be fetched is not overwritten', async () => {
    const f = fakes({ remote: { contacts: contacts(10, BOB, CAROL) } });
    const { act, setUser } = start(f);
    await setUser();
    f.fetchFails = true;
    expect(await act({ type: 'follow', pubkey: DAVE })).toEqual({ ok: false, code: 'fetch-failed' });
    expect(f.published).toEqual([]);
  });

  it('actions run one at a time: two quick follows build on each other', async () => {
    const f = fakes({ remote: { contacts: contacts(10, BOB, CAROL) } });
    const { actor, results, setUser } = start(f);
    await setUser();
    actor.send({ type: 'ACTION', id: 1, action: { type: 'follow', pubkey: DAVE } });
    actor.send({ type: 'ACTION', id: 2, action: { type: 'follow', pubkey: 'e'.repeat(64) } });
    await vi.advanceTimersByTimeAsync(0);
    expect(results.get(1)).toEqual({ ok: true });
    expect(results.get(2)).toEqual({ ok: true });
    expect(f.published[1].tags.map((t) => t[1])).toEqual([BOB, CAROL, DAVE, 'e'.repeat(64)]);
  });

  it('mute is refused read-only (sign-no-nsec) and without any user', async () => {
    const f = fakes();
    const { act, setUser } = start(f, 'readonly');
    await setUser();
    expect(await act({ type: 'mute', pubkey: BOB })).toEqual({ ok: false, code: 'sign-no-nsec' });
    expect(f.fetched).toEqual([]);
  });

  it('mute with only a PIN-protected key opens the PIN prompt and goes on once unlocked', async () => {
    const f = fakes();
    const { actor, act, pins, record, setUser } = start(f, 'pin');
    await setUser();
    const pending = act({ type: 'mute', pubkey: BOB });
    expect(await pending).toBeUndefined();
    expect(pins).toHaveLength(1);
    expect(actor.getSnapshot().matches({ ready: { ops: 'awaitingKey' } })).toBe(true);
    actor.send({ type: 'KEY_STATE', keyState: 'sign' });
    await vi.advanceTimersByTimeAsync(0);
    expect(f.published[0]).toMatchObject({ kind: 10000, tags: [['p', BOB]] });
    expect(record().muted).toEqual([BOB]);
  });

  it('a cancelled PIN prompt refuses the waiting mute', async () => {
    const { actor, results, setUser } = start(fakes(), 'pin');
    await setUser();
    actor.send({ type: 'ACTION', id: 7, action: { type: 'mute', pubkey: BOB } });
    actor.send({ type: 'PIN_CANCELLED' });
    expect(results.get(7)).toEqual({ ok: false, code: 'sign-no-nsec' });
  });

  it('mute merges the newer remote list first and encrypts private mutes into content', async () => {
    const f = fakes({ stored: { muted: [BOB], mutedTags: [['p', BOB]], mutedSince: 100 } });
    const { act, record, setUser } = start(f);
    await setUser();
    f.remote.mutes = { created_at: 200, tags: [['p', CAROL], ['word', 'spam']], content: 'x', privateTags: [['p', DAVE]] };
    await act({ type: 'mute', pubkey: 'e'.repeat(64), private: true });
    const draft = f.published[0];
    expect(draft.tags).toEqual([['p', CAROL], ['word', 'spam']]);
    expect(draft.encryptPrivate).toEqual([['p', DAVE], ['p', 'e'.repeat(64)]]);
    expect(draft.after).toBe(200);
    expect(record().muted.sort()).toEqual([CAROL, DAVE, 'e'.repeat(64)].sort());
    expect(record().mutedPrivate).toMatch(/^enc\(/);

    await act({ type: 'unmute', pubkey: DAVE });
    expect(f.published[1].encryptPrivate).toEqual([['p', 'e'.repeat(64)]]);
    expect(await act({ type: 'unmute', pubkey: BOB })).toEqual({ ok: true, code: 'ignored' });
  });

  it('private mutes unreadable at sync time are read again before a change, never dropped', async () => {
    const remote: RemoteList = { created_at: 300, tags: [['p', BOB]], content: 'ciphertext' };
    const f = fakes({ remote: { mutes: remote } });
    const { act, record, setUser } = start(f);
    await setUser();
    expect(record()).toMatchObject({ muted: [BOB], mutedSince: 0 });
    f.remote.mutes = { ...remote, privateTags: [['p', CAROL]] };
    await act({ type: 'mute', pubkey: DAVE });
    expect(f.published[0]).toMatchObject({ tags: [['p', BOB], ['p', DAVE]], encryptPrivate: [['p', CAROL]], after: 300 });
  });

  it('like: kind 7 "+", id added on success, ignored when already liked', async () => {
    const f = fakes();
    const { act, record, setUser } = start(f);
    await setUser();
    const note = { id: '1'.repeat(64), pubkey: BOB, kind: 1 };
    expect(await act({ type: 'like', note })).toEqual({ ok: true });
    expect(f.published[0]).toMatchObject({ kind: 7, content: '+', tags: [['e', note.id], ['p', BOB], ['k', '1']] });
    expect(record().likes).toEqual([note.id]);
    expect(await act({ type: 'like', note })).toEqual({ ok: true, code: 'ignored' });
    expect(f.published).toHaveLength(1);
  });

  it('a failed like leaves likes unchanged', async () => {
    const f = fakes({ publishOk: false });
    const { act, record, setUser } = start(f);
    await setUser();
    expect((await act({ type: 'like', note: { id: '1'.repeat(64), pubkey: BOB, kind: 1 } }))?.ok).toBe(false);
    expect(record().likes).toEqual([]);
  });

  it('bookmarks (10003), allow list and subscribed mute lists publish their lists', async () => {
    const f = fakes();
    const { act, record, setUser } = start(f);
    await setUser();
    await act({ type: 'bookmark', tag: ['e', '1'.repeat(64)] });
    expect(f.published[0]).toMatchObject({ kind: 10003, tags: [['e', '1'.repeat(64)]] });
    expect(await act({ type: 'bookmark', tag: ['e', '1'.repeat(64)] })).toEqual({ ok: true, code: 'ignored' });
    await act({ type: 'unbookmark', tag: ['e', '1'.repeat(64)] });
    expect(record().bookmarks).toEqual([]);

    await act({ type: 'allow', pubkey: BOB });
    expect(f.published.at(-1)).toMatchObject({ kind: 30000, tags: [['d', 'allowlist'], ['p', BOB]] });
    expect(record().allowlist).toEqual([BOB]);

    await act({ type: 'subscribeMuteList', pubkey: CAROL, petname: 'spam' });
    expect(f.published.at(-1)?.tags).toEqual([['d', 'mutelists'], ['p', ME], ['p', CAROL, '', 'spam']]);
    await act({ type: 'setMuteListFlags', pubkey: CAROL, content: false, trending: true });
    expect(record().mutelists).toEqual([
      { pubkey: ME, content: true, trending: true },
      { pubkey: CAROL, petname: 'spam', content: false, trending: true },
    ]);
    expect(await act({ type: 'unsubscribeMuteList', pubkey: ME })).toEqual({ ok: true, code: 'ignored' });
    expect(await act({ type: 'setMuteListFlags', pubkey: ME, content: false, trending: false })).toEqual({ ok: true, code: 'ignored' });
  });

  it('relays: the pool snapshot is kept; publishing them writes kind 10002 with markers', async () => {
    const f = fakes();
    const { actor, act, record, setUser } = start(f);
    await setUser();
    const relays = { 'wss://a': { read: true, write: true }, 'wss://r': { read: true, write: false }, 'wss://w': { read: false, write: true } };
    actor.send({ type: 'SET_RELAY_SNAPSHOT', relays });
    expect(record().relaySettings).toEqual(relays);
    await act({ type: 'publishRelays', relays });
    expect(f.published[0]).toMatchObject({ kind: 10002, tags: [['r', 'wss://a'], ['r', 'wss://r', 'read'], ['r', 'wss://w', 'write']] });
    // Two edits in one second must not tie: the next list is kept after the one just published.
    const first = record().relaysSince;
    expect(first).toBeGreaterThan(0);
    await act({ type: 'publishRelays', relays: { 'wss://a': { read: true, write: true } } });
    expect(f.published[1].after).toBe(first);
    expect(record().relaysSince).toBeGreaterThan(first);
  });

  it('emoji history keeps 40, most recent first; drafts are kept per parent with their user refs', async () => {
    const { act, record, setUser } = start(fakes(), 'readonly');
    await setUser();
    for (let i = 0; i < 45; i++) await act({ type: 'addEmoji', emoji: { name: `e${i}` } });
    await act({ type: 'addEmoji', emoji: { name: 'e10' } });
    expect(record().emojiHistory).toHaveLength(40);
    expect(record().emojiHistory[0]).toEqual({ name: 'e10' });
    expect(record().emojiHistory[1]).toEqual({ name: 'e44' });

    await act({ type: 'setDraft', text: 'új jegyzet' });
    await act({ type: 'setDraft', parent: 'note1', text: 'válasz', userRefs: { [BOB]: { pubkey: BOB } as never } });
    expect(record().noteDraft).toEqual({ root: 'új jegyzet', note1: 'válasz' });
    expect(Object.keys(record().noteDraftUserRefs.note1)).toEqual([BOB]);
    await act({ type: 'clearDraft', parent: 'note1' });
    expect(record().noteDraft).toEqual({ root: 'új jegyzet' });
    await act({ type: 'setLocal', patch: { dmLastRelation: 'other', selectedFeeds: { home: 'x' } } });
    expect(record()).toMatchObject({ dmLastRelation: 'other', selectedFeeds: { home: 'x' } });
  });

  it('membership: checked when the key is set; a missing answer is tier none', async () => {
    const a = start(fakes({ tier: 'premium-legend' }));
    await a.setUser();
    expect(a.record().membershipTier).toBe('premium-legend');

    const b = start(fakes({ tier: undefined }));
    await b.setUser('readonly');
    expect(b.actor.getSnapshot().matches({ ready: { membership: 'waiting' } })).toBe(true);
    b.actor.send({ type: 'KEY_STATE', keyState: 'sign' });
    await vi.advanceTimersByTimeAsync(0);
    expect(b.record().membershipTier).toBe('none');
  });

  it('membership: asked again after a purchase, so the new tier and the hidden reminder follow', async () => {
    const f = fakes({ tier: undefined });
    const { actor, record, setUser } = start(f);
    await setUser();
    expect(record().membershipTier).toBe('none');
    expect(showPremiumReminder(actor.getSnapshot())).toBe(true);
    f.tier = 'premium';
    actor.send({ type: 'MEMBERSHIP_CHANGED' });
    await vi.advanceTimersByTimeAsync(0);
    expect(record().membershipTier).toBe('premium');
    expect(showPremiumReminder(actor.getSnapshot())).toBe(false);
  });

  it('the premium reminder shows for tier none, hides for 7 days when cleared, then shows again', async () => {
    vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
    const { actor, act, setUser } = start(fakes({ tier: undefined }));
    await setUser();
    expect(showPremiumReminder(actor.getSnapshot())).toBe(true);
    await act({ type: 'clearPremiumReminder' });
    expect(showPremiumReminder(actor.getSnapshot())).toBe(false);
    await vi.advanceTimersByTimeAsync(PREMIUM_REMINDER_INTERVAL_MS - 1000);
    expect(showPremiumReminder(actor.getSnapshot())).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(showPremiumReminder(actor.getSnapshot())).toBe(true);

    const premium = start(fakes({ tier: 'premium' }));
    await premium.setUser();
    expect(showPremiumReminder(premium.actor.getSnapshot())).toBe(false);
  });

  it('a new user drops the old queue; logging out answers waiting actions', async () => {
    const { actor, results, setUser } = start(fakes(), 'pin');
    await setUser();
    actor.send({ type: 'ACTION', id: 9, action: { type: 'mute', pubkey: BOB } });
    actor.send({ type: 'SET_USER', pubkey: undefined, keyState: 'none' });
    expect(results.get(9)).toEqual({ ok: false, code: 'no-pubkey' });
    expect(actor.getSnapshot().value).toBe('noUser');
    expect(actor.getSnapshot().context.record).toBeUndefined();
  });
});
