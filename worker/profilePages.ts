/**
 * Runs machines/profilePage.ts in the worker: each part of a profile page is one cache request
 * (protocol S §3.3, §3.1 profile feeds, §3.2 zaps), turned into what ProfileSnapshot shows.
 */
import { createActor, fromPromise, type Actor } from 'xstate';
import {
  loadingFlags,
  profileMachine,
  PROFILE_PAGE_SIZE,
  SCORED_CONTENT_LIMIT,
  SIDEBAR_READS_LIMIT,
  type ProfileLoad,
  type ProfileLoadInput,
} from '../machines/profilePage.ts';
import { isNostrEvent, K, parseBundle } from '../core/bundle.ts';
import { fetchFeedPage } from './feedRegistry.ts';
import type { CacheRequest } from './util/cacheRequest.ts';
import { InstanceRegistry } from './instances.ts';
import { NO_FILTER, ownNoteBelongs, shownList, visibleNotes, withOwnNotes, type FeedViewContext, type ViewerFilter } from './feedView.ts';
import type { OwnNotes } from './ownNotes.ts';
import { emptyProfile } from '../core/profile.ts';
import { zapFromInfo, zapFromReceipt } from '../core/zaps.ts';
import type { CacheObject, CacheReply, FeedNote, Profile, ProfileHistoryEntry, ProfileSnapshot, ProfileTab, ProfileZap, RelayFlags, UserStats } from '../core/types.ts';
import { CacheKind } from '../core/kinds.ts';

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function checked(reply: CacheReply): CacheObject[] {
  if (reply.notice !== undefined) throw new Error(reply.notice);
  return reply.events;
}

const num = (v: unknown): number => (Number.isFinite(Number(v)) ? Number(v) : 0);

/** A 10000105 USER_PROFILE to the spec's User stats. */
export function parseUserStats(obj: CacheObject | undefined): UserStats | undefined {
  const c = parseJson(obj?.content) as Record<string, unknown> | undefined;
  if (!c || typeof c !== 'object') return undefined;
  return {
    followers_count: num(c.followers_count),
    follows_count: num(c.follows_count),
    note_count: num(c.note_count),
    reply_count: num(c.reply_count),
    time_joined: num(c.time_joined),
    total_zap_count: num(c.total_zap_count),
    total_satszapped: num(c.total_satszapped),
    relay_count: num(c.relay_count),
    media_count: num(c.media_count),
    long_form_note_count: num(c.long_form_note_count),
  };
}

/** Relay flags from `r` tags: both on by default, marker write turns read off, read turns write off. */
export function relayFlagsOf(tags: unknown): Record<string, RelayFlags> {
  const out: Record<string, RelayFlags> = {};
  if (!Array.isArray(tags)) return out;
  for (const t of tags) {
    if (!Array.isArray(t) || t[0] !== 'r' || typeof t[1] !== 'string') continue;
    out[t[1]] = { read: t[2] !== 'write', write: t[2] !== 'read' };
  }
  return out;
}

/** A zap list bundle (protocol S §2.3): one entry per receipt, newest first. */
export function parseZapList(objects: CacheObject[]): { zaps: ProfileZap[]; since?: number } {
  const byId = new Map<string, ProfileZap>();
  let since: number | undefined;
  for (const o of objects) {
    if (o.kind === K.ZAP && isNostrEvent(o)) {
      const z = zapFromReceipt(o);
      if (!z) continue;
      const seen = byId.get(z.id);
      byId.set(z.id, { id: z.id, amount: seen?.amount ?? z.amount, sender: z.pubkey, message: z.message, created_at: o.created_at, eventId: z.eventId });
    } else if (o.kind === CacheKind.ZAP_INFO) {
      const z = zapFromInfo(o);
      if (!z) continue;
      const seen = byId.get(z.id);
      const createdAt = num((parseJson(o.content) as Record<string, unknown> | undefined)?.created_at);
      // The server's reading of the amount is kept over the invoice's.
      byId.set(z.id, { id: z.id, amount: z.amount, sender: seen?.sender || z.pubkey, message: seen?.message || z.message, created_at: seen?.created_at ?? createdAt, eventId: z.eventId });
    } else if (o.kind === CacheKind.RANGE) {
      const c = parseJson(o.content) as { since?: unknown } | undefined;
      if (c && typeof c.since === 'number') since = c.since;
    }
  }
  return { zaps: [...byId.values()].sort((a, b) => b.created_at - a.created_at), since };
}

function usersInOrder(objects: CacheObject[], order?: string[]): Profile[] {
  const profiles = parseBundle(objects).profiles;
  const keys = order ?? Object.keys(profiles);
  return keys.map((pk) => profiles[pk] ?? emptyProfile(pk));
}

function feedSpec(pubkey: string, kind: 'notes' | 'reads', notes?: string): string {
  return JSON.stringify(notes ? { id: 'feed', kind, notes, pubkey } : { id: 'feed', kind, pubkey });
}

/** One part of a profile page, by the machine's loader name. */
export async function loadProfilePart(request: CacheRequest, input: ProfileLoadInput): Promise<ProfileLoad> {
  const { pubkey, userPubkey, until } = input;
  const viewer = userPubkey ? { user_pubkey: userPubkey } : {};
  const page = async (spec: string, limit: number) => fetchFeedPage(request, { spec, limit, until, userPubkey });
  switch (input.what) {
    case 'profile': {
      const [profileReply, followingReply] = await Promise.all([
        request('user_profile', { pubkey, ...viewer }),
        // Does this profile follow the viewer? Only a signed-in viewer can be followed.
        userPubkey && userPubkey !== pubkey ? request('is_user_following', { pubkey, user_pubkey: userPubkey }) : Promise.resolve(undefined),
      ]);
      const objects = checked(profileReply);
      const profile = parseBundle(objects).profiles[pubkey];
      const stats = parseUserStats(objects.find((o) => o.kind === CacheKind.USER_PROFILE));
      const following = followingReply?.events.find((o) => o.kind === CacheKind.IS_USER_FOLLOWING);
      const out: ProfileLoad = { what: 'profile', followsYou: parseJson(following?.content) === true };
      if (profile) out.profile = profile;
      if (stats) out.stats = stats;
      return out;
    }
    case 'sidebarNotes': {
      const objects = checked(await request('user_profile_scored_content', { pubkey, limit: SCORED_CONTENT_LIMIT, ...viewer }));
      // The reply carries the notes and their author only; the counts come from the notes' full bundle.
      const scored = parseBundle(objects).notes;
      const ids = scored.map((n) => n.event.id);
      const full = ids.length ? parseBundle(checked(await request('events', { event_ids: ids, extended_response: true, ...viewer }))).notes : [];
      const byId = new Map(full.map((n) => [n.event.id, n]));
      const notes = scored.map((n) => byId.get(n.event.id) ?? n).sort((a, b) => b.stats.score - a.stats.score);
      return { what: 'sidebarNotes', notes };
    }
    case 'sidebarArticles':
      return { what: 'sidebarArticles', notes: (await fetchFeedPage(request, { spec: feedSpec(pubkey, 'reads'), limit: SIDEBAR_READS_LIMIT, userPubkey })).notes };
    case 'notes':
    case 'replies':
    case 'gallery': {
      const notes = input.what === 'notes' ? 'authored' : input.what === 'replies' ? 'replies' : 'user_media_thumbnails';
      const p = await page(feedSpec(pubkey, 'notes', notes), PROFILE_PAGE_SIZE);
      return { what: input.what, notes: p.notes, since: p.since };
    }
    case 'reads': {
      const p = await page(feedSpec(pubkey, 'reads'), PROFILE_PAGE_SIZE);
      return { what: 'reads', notes: p.notes, since: p.since };
    }
    case 'zaps': {
      const payload: Record<string, unknown> = { receiver: pubkey, limit: PROFILE_PAGE_SIZE, ...viewer };
      if (until !== undefined) payload.until = until;
      return { what: 'zaps', ...parseZapList(checked(await request('user_zaps', payload))) };
    }
    case 'contacts': {
      const objects = checked(await request('contact_list', { pubkey, extended_response: true }));
      const list = objects.filter((o) => o.kind === 3 && isNostrEvent(o) && o.pubkey === pubkey).sort((a, b) => num(b.created_at) - num(a.created_at))[0];
      const tags = Array.isArray(list?.tags) ? (list.tags as unknown[]) : [];
      const order = [...new Set(tags.filter((t): t is string[] => Array.isArray(t) && t[0] === 'p' && typeof t[1] === 'string').map((t) => t[1]))];
      return { what: 'contacts', users: usersInOrder(objects, order) };
    }
    case 'followers':
      return { what: 'followers', users: usersInOrder(checked(await request('user_followers', { pubkey }))) };
    case 'relays': {
      const obj = checked(await request('get_user_relays', { pubkey })).find((o) => o.kind === CacheKind.USER_RELAYS);
      return { what: 'relays', relays: relayFlagsOf(obj?.tags) };
    }
  }
}

function snapshotOf(actor: Actor<typeof profileMachine>, context: FeedViewContext): ProfileSnapshot {
  const snap = actor.getSnapshot();
  const c = snap.context;
  const { own, filter } = context;
  // The person's own notes written in any tab show on their profile at once (worker/feedView.ts).
  const mine = own.length > 0 && own.some((o) => o.note.event.pubkey === c.pubkey);
  const shown = (name: string, list: FeedNote[], notes: 'authored' | 'replies', hasMore: boolean) =>
    shownList(`${name}:${hasMore}`, list, context, () => {
      const spec = feedSpec(c.pubkey, 'notes', notes);
      return visibleNotes(mine ? withOwnNotes(list, own, (n) => ownNoteBelongs(spec, n), hasMore) : list, filter);
    });
  const out: ProfileSnapshot = {
    pubkey: c.pubkey,
    followsYou: c.followsYou,
    loading: loadingFlags(snap),
    sidebarNotes: c.sidebarNotes,
    sidebarArticles: c.sidebarArticles,
    notes: shown('notes', c.notes, 'authored', c.hasMore.notes),
    replies: shown('replies', c.replies, 'replies', c.hasMore.replies),
    reads: shownList('reads', c.reads, context, () => visibleNotes(c.reads, filter)),
    media: c.media,
    zaps: c.zaps,
    follows: c.follows,
    followers: c.followers,
    relays: c.relays,
    hasMore: c.hasMore,
    history: c.history,
  };
  if (c.profile) out.profile = c.profile;
  if (c.stats) {
    out.stats = c.stats;
    if (c.stats.time_joined > 0) out.joinDate = c.stats.time_joined;
  }
  if (c.error !== undefined) out.error = c.error;
  return out;
}

export interface ProfileServiceOptions {
  request: CacheRequest;
  /** The viewer: the signed-in user, else undefined. */
  viewer: () => string | undefined;
  throttleMs?: number;
  own?: OwnNotes;
  /** The viewer's mutes (a muted person's own profile is hidden by the page until shown anyway). */
  filter?: () => ViewerFilter;
}

export class ProfileService {
  private readonly pages: InstanceRegistry<Actor<typeof profileMachine>, ProfileSnapshot>;
  private readonly machine;
  /** Shared by every profile page of the worker: the history follows the user, not the tab. */
  private history: ProfileHistoryEntry[] = [];

  constructor(private readonly options: ProfileServiceOptions) {
    this.machine = profileMachine.provide({
      actors: { load: fromPromise<ProfileLoad, ProfileLoadInput>(({ input }) => loadProfilePart(options.request, input)) },
    });
    const own = options.own;
    this.pages = new InstanceRegistry((actor) => snapshotOf(actor, { own: own?.all ?? [], filter: options.filter?.() ?? NO_FILTER }), options.throttleMs);
    own?.watch(() => this.pages.refresh());
  }

  /** The mutes changed: open pages show the lists again through them. */
  refresh(): void {
    this.pages.refresh();
  }

  open(tabId: string, pubkey: string, cb: (s: ProfileSnapshot) => unknown, release: () => void): number {
    const actor = createActor(this.machine, { input: { pubkey, userPubkey: this.options.viewer(), history: this.history } });
    actor.subscribe((snap) => {
      this.history = snap.context.history;
    });
    return this.pages.open(tabId, actor, cb, release);
  }

  /** Open pages made for another viewer load again for this one. */
  setViewer(userPubkey: string | undefined): void {
    this.pages.forEach((actor) => actor.send({ type: 'SET_VIEWER', userPubkey }));
  }

  setKey(handle: number, pubkey: string): void {
    this.pages.get(handle)?.send({ type: 'SET_PUBKEY', pubkey });
  }

  loadTab(handle: number, tab: ProfileTab): void {
    this.pages.get(handle)?.send({ type: 'LOAD_TAB', tab });
  }

  loadMore(handle: number, tab: ProfileTab): void {
    this.pages.get(handle)?.send({ type: 'LOAD_MORE', tab });
  }

  close(handle: number): void {
    this.pages.close(handle);
  }

  closeTab(tabId: string): void {
    this.pages.closeTab(tabId);
  }

  dispose(): void {
    this.pages.dispose();
  }
}
