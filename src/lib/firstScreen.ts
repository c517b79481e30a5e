/**
 * The home screen as it was last painted: the home feed list, the feed shown and its first few
 * cards, kept in localStorage. A revisit paints these before the worker has even started (its
 * IndexedDB cache and socket are ~400 ms away on a warm load); the worker's snapshot then takes
 * over. Only the first screen is kept, so the read is small and synchronous.
 */
import type { FeedDefinition, FeedNote, FeedSnapshot } from '../../core/types';
import { dropPaintedCopy } from './paintedCopy';
import { FEED_COPY_VERSION } from '../../core/config';

const KEY = 'strucc:firstScreen';
/** Shared with the painted copy and the worker's stored pages (core/config.ts). */
const VERSION = FEED_COPY_VERSION;
/** Enough cards to fill a tall screen. */
export const FIRST_SCREEN_NOTES = 6;

interface FirstScreen {
  v: number;
  /** Who the screen was painted for ('' for a guest): another account must not see it. */
  viewer: string;
  feeds?: FeedDefinition[];
  spec?: string;
  notes?: FeedNote[];
}

let cached: FirstScreen | null | undefined;

function read(): FirstScreen | null {
  if (cached !== undefined) return cached;
  try {
    const raw = localStorage.getItem(KEY);
    const parsed = raw ? (JSON.parse(raw) as FirstScreen) : null;
    cached = parsed && parsed.v === VERSION ? parsed : null;
  } catch {
    cached = null;
  }
  return cached;
}

function write(next: FirstScreen | null): void {
  cached = next;
  try {
    if (next) localStorage.setItem(KEY, JSON.stringify(next));
    else localStorage.removeItem(KEY);
  } catch {
    // A full or blocked storage only costs the fast first paint.
  }
}

/** Whether a revisit has cards to paint before the worker answers. */
export function hasFirstScreenNotes(): boolean {
  return (read()?.notes?.length ?? 0) > 0;
}

export function firstScreenFeeds(): FeedDefinition[] | undefined {
  return read()?.feeds;
}

/** The kept cards of spec as a snapshot marked fromCache, or null. */
export function firstScreenSnapshot(spec: string): FeedSnapshot | null {
  const screen = read();
  if (!screen || screen.spec !== spec || !screen.notes?.length) return null;
  return { spec, status: 'ready', notes: screen.notes, pendingCount: 0, pendingAuthors: [], hasMore: true, fromCache: true };
}

export function keepFirstScreenFeeds(feeds: FeedDefinition[]): void {
  const screen = read();
  write({ v: VERSION, viewer: screen?.viewer ?? '', spec: screen?.spec, notes: screen?.notes, feeds });
}

export function keepFirstScreenNotes(spec: string, notes: FeedNote[]): void {
  const screen = read();
  // Notes no relay has accepted yet are not part of the kept screen.
  const top = notes.filter((n) => !n.local).slice(0, FIRST_SCREEN_NOTES);
  if (screen?.spec === spec && screen.notes?.length === top.length && screen.notes.every((n, i) => n.key === top[i].key)) return;
  write({ v: VERSION, viewer: screen?.viewer ?? '', feeds: screen?.feeds, spec, notes: top });
}

/** Called with every account snapshot: a different account (or a logout) drops the kept screen. */
export function checkFirstScreenViewer(viewer: string): void {
  const screen = read();
  if (!screen) {
    write({ v: VERSION, viewer });
    return;
  }
  if (screen.viewer === viewer) return;
  write({ v: VERSION, viewer });
  // The painted copy of the home screen was the other account's too.
  dropPaintedCopy();
}
