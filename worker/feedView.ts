/**
 * What one feed shows, decided in one place: the visible list, the notes behind the new-notes pill
 * (count and avatars), the cached page painted while the network is loading, the viewer's mutes, and
 * the notes the person just published from any tab. The feed machine only pages and polls; the
 * tabs render the FeedSnapshot this module makes. Pure functions plus one small per-feed state
 * (FeedView); the worker keeps a saved copy of its output in the feed cache, and the tab keeps the
 * first cards of it for its first screen.
 */
import type { AccountRecord, FeedNote, FeedSnapshot, FeedStatus, Profile } from '../core/types.ts';
import { feedTime, threadRootOf } from '../core/bundle.ts';

/** Avatars on the pill. */
export const PILL_AUTHORS = 3;

/** What the viewer asked not to see. */
export interface ViewerFilter {
  /** Muted people: their notes and their reposts. Never the viewer. */
  muted: ReadonlySet<string>;
  /** Muted threads, by root id (an `e` tag in the mute list). */
  mutedThreads: ReadonlySet<string>;
}

export const NO_FILTER: ViewerFilter = { muted: new Set(), mutedThreads: new Set() };

export function viewerFilterOf(
  account: Pick<AccountRecord, 'muted' | 'mutedTags' | 'mutedPrivateTags'> | undefined,
  viewer: string | undefined,
): ViewerFilter {
  if (!account) return NO_FILTER;
  const muted = new Set(account.muted.filter((p) => p !== viewer));
  const threads = [...account.mutedTags, ...(account.mutedPrivateTags ?? [])].filter((t) => t[0] === 'e' && t[1]).map((t) => t[1]);
  if (muted.size === 0 && threads.length === 0) return NO_FILTER;
  return { muted, mutedThreads: new Set(threads) };
}

export function sameFilter(a: ViewerFilter, b: ViewerFilter): boolean {
  const same = (x: ReadonlySet<string>, y: ReadonlySet<string>) => x.size === y.size && [...x].every((v) => y.has(v));
  return a === b || (same(a.muted, b.muted) && same(a.mutedThreads, b.mutedThreads));
}

export function isShown(note: FeedNote, filter: ViewerFilter): boolean {
  if (filter.muted.has(note.event.pubkey)) return false;
  if (note.repostedBy && filter.muted.has(note.repostedBy.pubkey)) return false;
  if (filter.mutedThreads.size > 0 && (filter.mutedThreads.has(note.event.id) || filter.mutedThreads.has(threadRootOf(note.event)))) return false;
  return true;
}

/** The notes the viewer sees; the same array when nothing is hidden, so an unchanged feed costs no clone. */
export function visibleNotes(notes: FeedNote[], filter: ViewerFilter): FeedNote[] {
  if (filter.muted.size === 0 && filter.mutedThreads.size === 0) return notes;
  const out = notes.filter((n) => isShown(n, filter));
  return out.length === notes.length ? notes : out;
}

/** The pill: how many notes wait and the first few distinct people behind them (the reposter for a repost). */
export function pillOf(pending: readonly FeedNote[]): { pendingCount: number; pendingAuthors: Profile[] } {
  const pendingAuthors: Profile[] = [];
  const seen = new Set<string>();
  for (const n of pending) {
    if (pendingAuthors.length === PILL_AUTHORS) break;
    const author = n.repostedBy ?? n.author;
    if (seen.has(author.pubkey)) continue;
    seen.add(author.pubkey);
    pendingAuthors.push(author);
  }
  return { pendingCount: pending.length, pendingAuthors };
}

/** A note the person published from this browser: shown at once, marked until a relay accepts it. */
export interface OwnNote {
  note: FeedNote;
  state: 'pending' | 'confirmed';
}

/**
 * The list with the person's own new notes that belong in it, newest first among the others. A note
 * the list already has (the server returned it) is not added again: the server's copy, with its
 * counts, wins. An own note older than the last shown one waits for its page when there are more.
 */
export function withOwnNotes(notes: FeedNote[], own: readonly OwnNote[], belongs: (note: FeedNote) => boolean, hasMore = false): FeedNote[] {
  if (own.length === 0) return notes;
  const have = new Set(notes.map((n) => n.event.id));
  const oldest = notes.length > 0 ? feedTime(notes[notes.length - 1]) : 0;
  const add = own.filter((o) => !have.has(o.note.event.id) && belongs(o.note) && (!hasMore || o.note.event.created_at >= oldest));
  if (add.length === 0) return notes;
  // Each goes before the first card older than it; the list's own order is left as it is.
  const out = [...notes];
  for (const o of [...add].sort((a, b) => a.note.event.created_at - b.note.event.created_at)) {
    const card: FeedNote = o.state === 'pending' ? { ...o.note, local: 'pending' } : o.note;
    const at = out.findIndex((n) => feedTime(n) < card.event.created_at);
    out.splice(at === -1 ? out.length : at, 0, card);
  }
  return out;
}

/** Which open feeds an own note belongs in, by the feed spec (the server's FEED_SPEC_RULES ids). */
export function ownNoteBelongs(spec: string, note: FeedNote): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(spec);
  } catch {
    return false;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
  const s = parsed as Record<string, unknown>;
  if (s.kind !== undefined && s.kind !== 'notes') return false;
  const reply = note.replyTo !== undefined;
  switch (s.id) {
    // Legújabb (the people followed, the person among them) and everyone's newest notes.
    case 'latest':
      return !reply || s.include_replies === true;
    case 'all-notes':
      return !reply;
    // One author's notes, as the profile's notes and replies tabs ask them.
    case 'feed':
      if (s.pubkey !== note.event.pubkey) return false;
      if (s.notes === 'replies') return reply;
      return (s.notes === undefined || s.notes === 'authored') && (!reply || s.include_replies === true);
    default:
      return false;
  }
}

/**
 * A thread's replies with the person's own new replies to the focused note or to one of the shown
 * replies, newest first like the server's.
 */
export function withOwnReplies(focus: FeedNote | undefined, replies: FeedNote[], own: readonly OwnNote[]): FeedNote[] {
  if (!focus || own.length === 0) return replies;
  const parents = new Set([focus.event.id, ...replies.map((n) => n.event.id)]);
  return withOwnNotes(replies, own, (n) => n.replyTo !== undefined && parents.has(n.replyTo.id));
}

const listMemo = new WeakMap<FeedNote[], Map<string, { own: readonly OwnNote[]; filter: ViewerFilter; out: FeedNote[] }>>();

/**
 * A list other than a feed (a profile tab) as shown: the last answer is kept per input list and
 * name, so while neither the list, the own notes nor the mutes changed the tab gets the same array
 * and the snapshot costs no new clone.
 */
export function shownList(name: string, notes: FeedNote[], { own, filter }: FeedViewContext, make: () => FeedNote[]): FeedNote[] {
  let byName = listMemo.get(notes);
  const hit = byName?.get(name);
  if (hit && hit.own === own && hit.filter === filter) return hit.out;
  const out = make();
  if (!byName) listMemo.set(notes, (byName = new Map()));
  byName.set(name, { own, filter, out });
  return out;
}

/** Keys of the network page's leading notes the cached page lacked; undefined when the pages share none. */
export function newAbove(network: FeedNote[], cached: FeedNote[]): Set<string> | undefined {
  const known = new Set(cached.map((n) => n.key));
  const fresh = new Set<string>();
  for (const n of network) {
    if (known.has(n.key)) return fresh;
    fresh.add(n.key);
  }
  return undefined;
}

/** What the feed machine holds: the pages shown and the newer notes its polls found. */
export interface FeedState {
  spec: string;
  status: FeedStatus;
  notes: FeedNote[];
  pending: FeedNote[];
  hasMore: boolean;
  /** The first network page has arrived. */
  loaded: boolean;
  error?: string;
}

export interface FeedViewContext {
  filter: ViewerFilter;
  own: readonly OwnNote[];
}

/**
 * How one open feed shows what it has. Until the network's first page arrives the tab gets the
 * cached page (status 'ready', fromCache) — the tab's own first-screen cards or the worker's stored
 * page — so nothing already painted falls back to a skeleton. When the network answers, scroll must
 * not jump: the notes the cached page also had stay where they are, and the new notes above them
 * wait behind the pill with the poll's pending notes until the reader asks for them. With no
 * overlap at all (a cache from long ago) the network page simply replaces it.
 */
export class FeedView {
  private cached: FeedNote[] | undefined;
  private held: Set<string> | undefined;
  private settled = false;
  private memo: { inputs: unknown[]; out: FeedSnapshot } | undefined;

  /** A new spec (or a restart for another viewer): nothing cached is shown until restore(). */
  reset(): void {
    this.cached = undefined;
    this.held = undefined;
    this.settled = false;
    this.memo = undefined;
  }

  /** A cached page arrived; false when the network was quicker. A longer cached page replaces a shorter one. */
  restore(notes: FeedNote[]): boolean {
    if (this.settled || notes.length === 0 || (this.cached && this.cached.length >= notes.length)) return false;
    this.cached = notes;
    this.memo = undefined;
    return true;
  }

  /** The reader opened the pill: everything held back is shown (the machine moves its own pending). */
  showPending(): void {
    this.held = undefined;
    this.memo = undefined;
  }

  view(state: FeedState, { filter, own }: FeedViewContext): FeedSnapshot {
    if (state.loaded && !this.settled) {
      this.settled = true;
      if (this.cached) this.held = newAbove(state.notes, this.cached);
      this.cached = undefined;
    }
    const inputs = [state.spec, state.status, state.notes, state.pending, state.hasMore, state.loaded, state.error, filter, own, this.cached, this.held];
    if (this.memo && this.memo.inputs.every((v, i) => v === inputs[i])) return this.memo.out;
    const out = this.compute(state, filter, own);
    this.memo = { inputs, out };
    return out;
  }

  private compute(state: FeedState, filter: ViewerFilter, own: readonly OwnNote[]): FeedSnapshot {
    const belongs = (n: FeedNote) => ownNoteBelongs(state.spec, n);
    const base = { spec: state.spec, hasMore: state.hasMore, ...(state.error !== undefined ? { error: state.error } : {}) };
    if (!state.loaded) {
      if (!this.cached) return { ...base, status: state.status, notes: state.notes, pendingCount: 0, pendingAuthors: [] };
      const notes = withOwnNotes(visibleNotes(this.cached, filter), own, belongs, true);
      return { ...base, status: state.status === 'error' ? 'error' : 'ready', notes, pendingCount: 0, pendingAuthors: [], hasMore: true, fromCache: true };
    }
    const held = this.held;
    let shown = state.notes;
    let waiting = state.pending;
    if (held && held.size > 0) {
      shown = state.notes.filter((n) => !held.has(n.key));
      if (shown.length === state.notes.length) shown = state.notes;
      else waiting = [...state.pending, ...state.notes.filter((n) => held.has(n.key))];
    }
    const notes = withOwnNotes(visibleNotes(shown, filter), own, belongs, state.hasMore);
    // A note already on screen (an own note a poll found again) is not news behind the pill.
    const onScreen = notes === shown ? undefined : new Set(notes.map((n) => n.event.id));
    const behindPill = onScreen ? visibleNotes(waiting, filter).filter((n) => !onScreen.has(n.event.id)) : visibleNotes(waiting, filter);
    return { ...base, status: state.status, notes, ...pillOf(behindPill) };
  }
}

/** A sent snapshot equal to the next one needs no new structured clone for the tab. */
export function sameSnapshot(a: FeedSnapshot, b: FeedSnapshot): boolean {
  return (
    a.spec === b.spec &&
    a.status === b.status &&
    a.notes === b.notes &&
    a.pendingCount === b.pendingCount &&
    a.pendingAuthors.length === b.pendingAuthors.length &&
    a.pendingAuthors.every((p, i) => p.pubkey === b.pendingAuthors[i].pubkey) &&
    a.hasMore === b.hasMore &&
    a.error === b.error &&
    a.fromCache === b.fromCache
  );
}
