import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FeedNote } from '../../../core/types';
import { parseBundle } from '../../../core/bundle';
import { coordinateOf, parseCoordinate } from '../../lib/article';
import { connect } from '../../worker-client';

/** Spec §9: lists page by 20. */
export const BOOKMARK_PAGE = 20;

export type BookmarkTab = 'notes' | 'articles';

export interface BookmarkEntry {
  /** The event id ('e') or the coordinate ('a'). */
  key: string;
  tag: string[];
  /** undefined while loading; null when the server does not have it (deleted, never seen). */
  note: FeedNote | null | undefined;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** The tab's bookmark tags, newest first: bookmarking appends to the kind-10003 list. */
export function bookmarkTags(tags: string[][] | undefined, tab: BookmarkTab): string[][] {
  const name = tab === 'notes' ? 'e' : 'a';
  const seen = new Set<string>();
  const out: string[][] = [];
  for (let i = (tags?.length ?? 0) - 1; i >= 0; i--) {
    const tag = tags![i];
    if (tag[0] !== name || typeof tag[1] !== 'string' || seen.has(tag[1])) continue;
    // Other addressable bookmarks (emoji sets, lists…) are not articles and have no card here.
    if (tab === 'articles' && !tag[1].startsWith('30023:')) continue;
    seen.add(tag[1]);
    out.push(tag);
  }
  return out;
}

/** One page of cards through the cache server: `events` by id, or the addressable events by coordinate. */
async function fetchCards(tab: BookmarkTab, keys: string[], viewer: string | undefined): Promise<Record<string, FeedNote | null>> {
  const found: Record<string, FeedNote | null> = Object.fromEntries(keys.map((k) => [k, null]));
  const api = await connect();
  if (tab === 'notes') {
    const ids = keys.filter((k) => HEX64.test(k));
    if (ids.length === 0) return found;
    const reply = await api.request('events', { event_ids: ids, extended_response: true, ...(viewer ? { user_pubkey: viewer } : {}) });
    if (reply.notice !== undefined) throw new Error(reply.notice);
    for (const note of parseBundle(reply.events).notes) if (note.event.id in found) found[note.event.id] = note;
    return found;
  }
  const addresses = keys.flatMap((k) => {
    const a = parseCoordinate(k);
    return a ? [{ pubkey: a.pubkey, kind: a.kind, identifier: a.identifier }] : [];
  });
  if (addresses.length === 0) return found;
  const reply = await api.request('parametrized_replaceable_events', {
    events: addresses,
    extended_response: true,
    ...(viewer ? { user_pubkey: viewer } : {}),
  });
  if (reply.notice !== undefined) throw new Error(reply.notice);
  for (const note of parseBundle(reply.events).notes) {
    const d = note.event.tags.find((t) => t[0] === 'd')?.[1] ?? '';
    const key = coordinateOf({ kind: note.event.kind, pubkey: note.event.pubkey, identifier: d });
    // A bookmark written with an upper-case pubkey still finds its article.
    const match = keys.find((k) => k === key || k.toLowerCase() === key.toLowerCase());
    if (match) found[match] = note;
  }
  return found;
}

export interface BookmarkItems {
  entries: BookmarkEntry[];
  total: number;
  hasMore: boolean;
  loading: boolean;
  error: boolean;
  loadMore: () => void;
  retry: () => void;
}

/**
 * The cards of one tab, 20 more at a time. The list itself is the account's kind-10003 tags,
 * so a bookmark removed in any tab disappears here at once; cards already loaded are kept.
 */
export function useBookmarkItems(tags: string[][] | undefined, tab: BookmarkTab, viewer: string | undefined): BookmarkItems {
  const ordered = useMemo(() => bookmarkTags(tags, tab), [tags, tab]);
  const [limit, setLimit] = useState(BOOKMARK_PAGE);
  const [cards, setCards] = useState<Record<string, FeedNote | null>>({});
  const [error, setError] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const inFlight = useRef(new Set<string>());
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const visible = ordered.slice(0, limit);
  const missing = visible.map((t) => t[1]).filter((k) => !(k in cards));
  const missingKey = JSON.stringify(missing);

  useEffect(() => {
    const keys = (JSON.parse(missingKey) as string[]).filter((k) => !inFlight.current.has(k));
    if (keys.length === 0 || error) return;
    for (const k of keys) inFlight.current.add(k);
    // Not cancelled when the page grows: an answer always lands, or its keys would stay "loading".
    fetchCards(tab, keys, viewer)
      .then((found) => {
        if (mounted.current) setCards((prev) => ({ ...prev, ...found }));
      })
      .catch(() => {
        if (mounted.current) setError(true);
      })
      .finally(() => {
        for (const k of keys) inFlight.current.delete(k);
      });
  }, [missingKey, tab, viewer, error, attempt]);

  const entries = visible.map((tag) => ({ key: tag[1], tag, note: cards[tag[1]] }));
  return {
    entries,
    total: ordered.length,
    hasMore: ordered.length > limit,
    loading: missing.length > 0 && !error,
    error,
    loadMore: useCallback(() => setLimit((l) => l + BOOKMARK_PAGE), []),
    retry: useCallback(() => {
      setError(false);
      setAttempt((a) => a + 1);
    }, []),
  };
}
