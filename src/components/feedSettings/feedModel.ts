/** Pure rules of the feed lists: spec identity, name validation, reordering and catalogue filtering. */
import type { FeedDefinition } from '../../../core/types';

export const MAX_FEED_NAME = 60;

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/**
 * The same feed written by another client may order its spec's keys differently; comparing the
 * parsed, key-sorted form keeps "already added" right. Unparseable specs compare as text.
 */
export function canonicalSpec(spec: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(spec)));
  } catch {
    return spec.trim();
  }
}

export function sameSpec(a: string, b: string): boolean {
  return a === b || canonicalSpec(a) === canonicalSpec(b);
}

/** The stored entry for a spec: the actions need its exact spec string, which may differ from the catalogue's. */
export function findFeed(feeds: readonly FeedDefinition[], spec: string): FeedDefinition | undefined {
  return feeds.find((f) => f.spec === spec) ?? feeds.find((f) => sameSpec(f.spec, spec));
}

export type NameError = 'empty' | 'tooLong';

/** A feed name after trimming, or why it cannot be one. */
export function checkFeedName(raw: string): { name: string } | { error: NameError } {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (!name) return { error: 'empty' };
  if ([...name].length > MAX_FEED_NAME) return { error: 'tooLong' };
  return { name };
}

/** Where a keyboard move (-1 up, +1 down) takes an item; undefined at either end. */
export function stepTarget(index: number, delta: -1 | 1, length: number): number | undefined {
  const to = index + delta;
  return to < 0 || to >= length || index < 0 || index >= length ? undefined : to;
}

/**
 * The index a dragged row lands on (as moveFeed's `to`, counted after the row left its place):
 * the number of other rows whose middle is above the pointer.
 */
export function dropTarget(from: number, pointerY: number, rows: readonly { top: number; height: number }[]): number {
  let to = 0;
  rows.forEach((r, i) => {
    if (i !== from && pointerY > r.top + r.height / 2) to++;
  });
  return to;
}

/** The list as the switcher shows it: only the enabled feeds, in the user's order. */
export function enabledFeeds(feeds: readonly FeedDefinition[]): FeedDefinition[] {
  return feeds.filter((f) => f.enabled !== false);
}

/** Case- and accent-insensitive match on name and description. */
export function matchesQuery(feed: { name: string; description: string }, query: string): boolean {
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = fold(`${feed.name} ${feed.description}`);
  return words.every((w) => hay.includes(w));
}

/** A catalogue entry as a feed list entry (enabled, its description kept). */
export function toDefinition(feed: { name: string; description: string; spec: string }): FeedDefinition {
  return { name: feed.name, description: feed.description, spec: feed.spec, enabled: true };
}
