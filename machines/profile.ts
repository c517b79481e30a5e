/**
 * Spec §4 Profile: one profile page. Every part (the profile with its stats, each tab, each
 * sidebar) loads in its own region, so each has its own loading flag and a key change can cancel
 * all of them at once. Changing the profile key resets profile, stats and sidebars; the history
 * keeps the last 10 profiles with their stats, most recent first. Pure: every request goes
 * through the `load` actor the worker provides.
 */
import { assign, enqueueActions, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { FeedNote, Profile, ProfileHistoryEntry, ProfileLists, ProfileLoadingFlag, ProfileTab, ProfileZap, RelayFlags, UserStats } from '../core/types.ts';

/** Spec §9: profile history 10; a profile feed page 20; scored content 5; the reads sidebar 2. */
export const PROFILE_HISTORY_MAX = 10;
export const PROFILE_PAGE_SIZE = 20;
export const SCORED_CONTENT_LIMIT = 5;
export const SIDEBAR_READS_LIMIT = 2;

export type ProfileLoader = ProfileLoadingFlag;
type PagedLoader = 'notes' | 'replies' | 'reads' | 'gallery' | 'zaps';
type PagedTab = 'notes' | 'replies' | 'reads' | 'media' | 'zaps';

export const LOADER_OF_TAB: Record<ProfileTab, ProfileLoader> = {
  notes: 'notes',
  replies: 'replies',
  reads: 'reads',
  media: 'gallery',
  zaps: 'zaps',
  follows: 'contacts',
  followers: 'followers',
  relays: 'relays',
};

const TAB_OF_PAGED: Record<PagedLoader, PagedTab> = { notes: 'notes', replies: 'replies', reads: 'reads', gallery: 'media', zaps: 'zaps' };
const isPaged = (w: ProfileLoader): w is PagedLoader => w in TAB_OF_PAGED;

export interface ProfileLoadInput {
  what: ProfileLoader;
  pubkey: string;
  userPubkey?: string;
  /** Set for a next page: the last page's RANGE.since. */
  until?: number;
}

export type ProfileLoad =
  | { what: 'profile'; profile?: Profile; stats?: UserStats; followsYou: boolean }
  | { what: 'sidebarNotes' | 'sidebarArticles'; notes: FeedNote[] }
  | { what: 'notes' | 'replies' | 'reads' | 'gallery'; notes: FeedNote[]; since?: number }
  | { what: 'zaps'; zaps: ProfileZap[]; since?: number }
  | { what: 'contacts' | 'followers'; users: Profile[] }
  | { what: 'relays'; relays: Record<string, RelayFlags> };

export interface ProfileContext extends ProfileLists {
  pubkey: string;
  userPubkey?: string;
  profile?: Profile;
  stats?: UserStats;
  followsYou: boolean;
  cursors: Partial<Record<PagedLoader, number>>;
  hasMore: Record<PagedTab, boolean>;
  /** Loaders whose running request is a next page rather than the first. */
  more: Partial<Record<ProfileLoader, boolean>>;
  activeTab?: ProfileTab;
  history: ProfileHistoryEntry[];
  error?: string;
}

export type ProfileEvent =
  | { type: 'SET_PUBKEY'; pubkey: string }
  /** The signed-in viewer changed (a login settling after the page opened): its own view is loaded again. */
  | { type: 'SET_VIEWER'; userPubkey?: string }
  | { type: 'LOAD_TAB'; tab: ProfileTab }
  | { type: 'LOAD_MORE'; tab: ProfileTab };

export interface ProfileInput {
  pubkey: string;
  userPubkey?: string;
  history?: ProfileHistoryEntry[];
}

const ALL_TRUE: Record<PagedTab, boolean> = { notes: true, replies: true, reads: true, media: true, zaps: true };

/** Spec: most recent first; a repeat moves to the front (keeping its stats); above 10 the oldest goes. */
export function pushHistory(history: ProfileHistoryEntry[], entry: ProfileHistoryEntry): ProfileHistoryEntry[] {
  const old = history.find((h) => h.pubkey === entry.pubkey);
  const merged: ProfileHistoryEntry = { ...old, ...entry };
  if (entry.profile === undefined && old?.profile) merged.profile = old.profile;
  if (entry.stats === undefined && old?.stats) merged.stats = old.stats;
  return [merged, ...history.filter((h) => h.pubkey !== entry.pubkey)].slice(0, PROFILE_HISTORY_MAX);
}

function dedupNotes(list: FeedNote[], add: FeedNote[]): FeedNote[] {
  const keys = new Set(list.map((n) => n.key));
  return add.filter((n) => !keys.has(n.key) && (keys.add(n.key), true));
}

/** The per-profile state a key change clears: profile, stats, sidebars and every tab. */
function cleared(): Omit<ProfileContext, 'pubkey' | 'userPubkey' | 'history' | 'activeTab'> {
  return {
    profile: undefined,
    stats: undefined,
    followsYou: false,
    sidebarNotes: [],
    sidebarArticles: [],
    notes: [],
    replies: [],
    reads: [],
    media: [],
    zaps: [],
    follows: [],
    followers: [],
    relays: {},
    cursors: {},
    hasMore: { ...ALL_TRUE },
    more: {},
    error: undefined,
  };
}

function applyLoad(ctx: ProfileContext, r: ProfileLoad): Partial<ProfileContext> {
  const more = { ...ctx.more, [r.what]: false };
  switch (r.what) {
    case 'profile':
      return {
        more,
        profile: r.profile,
        stats: r.stats,
        followsYou: r.followsYou,
        history: pushHistory(ctx.history, { pubkey: ctx.pubkey, profile: r.profile, stats: r.stats }),
      };
    case 'sidebarNotes':
    case 'sidebarArticles':
      return { more, [r.what]: r.notes };
    case 'contacts':
      return { more, follows: r.users };
    case 'followers':
      return { more, followers: r.users };
    case 'relays':
      return { more, relays: r.relays };
    case 'zaps': {
      const known = new Set(ctx.zaps.map((z) => z.id));
      const added = ctx.more.zaps ? r.zaps.filter((z) => !known.has(z.id)) : r.zaps;
      return {
        more,
        zaps: ctx.more.zaps ? [...ctx.zaps, ...added] : added,
        cursors: { ...ctx.cursors, zaps: r.since ?? ctx.cursors.zaps },
        hasMore: { ...ctx.hasMore, zaps: added.length > 0 && r.since !== undefined },
      };
    }
    default: {
      const key = r.what === 'gallery' ? 'media' : r.what;
      const current = ctx.more[r.what] ? ctx[key] : [];
      const added = dedupNotes(current, r.notes);
      return {
        more,
        [key]: [...current, ...added],
        cursors: { ...ctx.cursors, [r.what]: r.since ?? ctx.cursors[r.what] },
        hasMore: { ...ctx.hasMore, [TAB_OF_PAGED[r.what]]: added.length > 0 && r.since !== undefined },
      };
    }
  }
}

const tabEvent = (what: ProfileLoader, type: ProfileEvent['type']) => ({ event }: { event: ProfileEvent }) =>
  event.type === type && (event.type === 'LOAD_TAB' || event.type === 'LOAD_MORE') && LOADER_OF_TAB[event.tab] === what;

/** One part of the page: idle, or loading (its flag). LOAD_TAB restarts it, LOAD_MORE pages it. */
function region(what: ProfileLoader) {
  return {
    initial: 'idle' as const,
    on: { LOAD_TAB: { guard: tabEvent(what, 'LOAD_TAB'), target: '.loading', actions: { type: 'startTab' as const, params: { what } } } },
    states: {
      idle: {
        on: {
          LOAD_MORE: {
            guard: ({ context, event }: { context: ProfileContext; event: ProfileEvent }) =>
              tabEvent(what, 'LOAD_MORE')({ event }) && isPaged(what) && context.hasMore[TAB_OF_PAGED[what]],
            target: 'loading',
            actions: { type: 'startMore' as const, params: { what } },
          },
        },
      },
      loading: {
        invoke: {
          src: 'load' as const,
          input: ({ context }: { context: ProfileContext }): ProfileLoadInput => ({
            what,
            pubkey: context.pubkey,
            userPubkey: context.userPubkey,
            until: context.more[what] && isPaged(what) ? context.cursors[what] : undefined,
          }),
          onDone: { target: 'idle', actions: { type: 'store' as const } },
          onError: { target: 'idle', actions: { type: 'fail' as const, params: { what } } },
        },
      },
    },
  };
}

/** Every region, re-entered when the profile or the viewer changes: what was loading for the old one is cancelled. */
const RELOAD_TARGETS = [
  '.profile.loading',
  '.sidebarNotes.loading',
  '.sidebarArticles.loading',
  '.notes.idle',
  '.replies.idle',
  '.reads.idle',
  '.gallery.idle',
  '.zaps.idle',
  '.contacts.idle',
  '.followers.idle',
  '.relays.idle',
];

export const profileMachine = setup({
  types: { context: {} as ProfileContext, events: {} as ProfileEvent, input: {} as ProfileInput },
  actors: {
    load: fromPromise<ProfileLoad, ProfileLoadInput>(async () => {
      throw new Error('profile: the load actor must be provided with machine.provide()');
    }),
  },
  actions: {
    startTab: assign(({ context }, params: { what: ProfileLoader }) => {
      const tab = (Object.keys(LOADER_OF_TAB) as ProfileTab[]).find((t) => LOADER_OF_TAB[t] === params.what);
      return { activeTab: tab, more: { ...context.more, [params.what]: false } };
    }),
    startMore: assign(({ context }, params: { what: ProfileLoader }) => ({ more: { ...context.more, [params.what]: true } })),
    // The done event of a region's `load`: its output is that region's result.
    store: assign(({ context, event }) => applyLoad(context, (event as unknown as { output: ProfileLoad }).output)),
    fail: assign(({ context, event }, params: { what: ProfileLoader }) => {
      const err = (event as unknown as { error?: unknown }).error;
      return { more: { ...context.more, [params.what]: false }, error: err instanceof Error ? err.message : String(err) };
    }),
  },
}).createMachine({
  id: 'profile',
  type: 'parallel',
  context: ({ input }) => ({
    pubkey: input.pubkey,
    userPubkey: input.userPubkey,
    ...cleared(),
    history: pushHistory(input.history ?? [], { pubkey: input.pubkey }),
  }),
  on: {
    SET_VIEWER: {
      guard: ({ context, event }) => event.userPubkey !== context.userPubkey,
      target: RELOAD_TARGETS,
      reenter: true,
      actions: [
        assign(({ event }) => ({ userPubkey: event.userPubkey, ...cleared() })),
        enqueueActions(({ context, enqueue }) => {
          if (context.activeTab) enqueue.raise({ type: 'LOAD_TAB', tab: context.activeTab });
        }),
      ],
    },
    SET_PUBKEY: {
      guard: ({ context, event }) => event.pubkey !== context.pubkey,
      // Every region is re-entered: loads for the old key are cancelled with it.
      target: RELOAD_TARGETS,
      reenter: true,
      actions: [
        assign(({ context, event }) => ({ pubkey: event.pubkey, ...cleared(), history: pushHistory(context.history, { pubkey: event.pubkey }) })),
        // The tab the user was looking at shows the new profile's items.
        enqueueActions(({ context, enqueue }) => {
          if (context.activeTab) enqueue.raise({ type: 'LOAD_TAB', tab: context.activeTab });
        }),
      ],
    },
  },
  states: {
    profile: { ...region('profile'), initial: 'loading' },
    sidebarNotes: { ...region('sidebarNotes'), initial: 'loading' },
    sidebarArticles: { ...region('sidebarArticles'), initial: 'loading' },
    notes: region('notes'),
    replies: region('replies'),
    reads: region('reads'),
    gallery: region('gallery'),
    zaps: region('zaps'),
    contacts: region('contacts'),
    followers: region('followers'),
    relays: region('relays'),
  },
});

export type ProfileMachineSnapshot = SnapshotFrom<typeof profileMachine>;

export const PROFILE_LOADERS: readonly ProfileLoader[] = [
  'profile',
  'notes',
  'replies',
  'reads',
  'zaps',
  'gallery',
  'contacts',
  'followers',
  'relays',
  'sidebarNotes',
  'sidebarArticles',
];

export function loadingFlags(snap: ProfileMachineSnapshot): Record<ProfileLoadingFlag, boolean> {
  const value = snap.value as Record<string, string>;
  const out = {} as Record<ProfileLoadingFlag, boolean>;
  for (const w of PROFILE_LOADERS) out[w] = value[w] === 'loading';
  return out;
}
