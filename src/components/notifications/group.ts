/**
 * Folds the worker's notification list into the rows the page shows: reactions to one post
 * (likes, zaps, reposts, highlights, bookmarks) share a row, new followers of one day share a
 * row, and everything that carries its own text (replies, mentions) stays a row of its own.
 * Pure, so the rules are unit-tested without a browser.
 */
import type { NotificationItem, NotificationTypeGroup } from '../../../core/types';

/** Types in which many people do the same thing to the same post. */
const GROUPED_BY_POST = new Set([3, 4, 5, 101, 102, 103, 201, 202, 203, 301, 302]);
/** Types about the user as a person, not about a post. */
const GROUPED_BY_DAY = new Set([1, 2]);

/** The types the page has Hungarian text for; anything else gets the generic line. */
export const KNOWN_TYPES = new Set([1, 2, 3, 4, 5, 6, 7, 8, 101, 102, 103, 104, 201, 202, 203, 204, 301, 302, 401, 501, 601]);

/** The tabs of spec §2, in order, with the server's type_group names. */
export const NOTIFICATION_TABS: readonly NotificationTypeGroup[] = ['all', 'replies', 'mentions', 'reposts'];

/** The types each tab shows, so a row the server sent for another group never leaks into a tab. */
const TAB_TYPES: Record<NotificationTypeGroup, Set<number> | null> = {
  all: null,
  zaps: new Set([3]),
  replies: new Set([6, 601]),
  mentions: new Set([7, 8]),
  reposts: new Set([5]),
};

export function belongsToTab(item: NotificationItem, tab: NotificationTypeGroup): boolean {
  const types = TAB_TYPES[tab];
  return types === null || types.has(item.type);
}

export interface NotificationGroup {
  key: string;
  type: number;
  /** Newest member's time: the row sorts and shows by it. */
  createdAt: number;
  /** Distinct actors, newest first. */
  actors: string[];
  /** The post the notification is about, when there is one. */
  post?: string;
  /** The note to show under the text: the reply or mentioning post when there is one, else `post`. */
  shownNote?: string;
  /** Sum of the members' sats (zap types). */
  sats: number;
  /** Distinct non-like reactions (emoji), in the order they arrived. */
  reactions: string[];
  items: NotificationItem[];
}

function dayOf(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
}

function groupKey(item: NotificationItem): string {
  if (GROUPED_BY_POST.has(item.type) && item.post) return `${item.type}:${item.post}`;
  if (GROUPED_BY_DAY.has(item.type)) return `${item.type}:${dayOf(item.created_at)}`;
  return `single:${item.id}`;
}

/** `items` newest first (the worker's order); the groups come out newest first as well. */
export function groupNotifications(items: readonly NotificationItem[]): NotificationGroup[] {
  const groups = new Map<string, NotificationGroup>();
  for (const item of items) {
    const key = groupKey(item);
    let group = groups.get(key);
    if (!group) {
      group = { key, type: item.type, createdAt: item.created_at, actors: [], sats: 0, reactions: [], items: [] };
      if (item.post) group.post = item.post;
      const shown = item.related ?? item.post;
      if (shown) group.shownNote = shown;
      groups.set(key, group);
    }
    group.items.push(item);
    group.createdAt = Math.max(group.createdAt, item.created_at);
    if (item.actor && !group.actors.includes(item.actor)) group.actors.push(item.actor);
    if (item.satszapped !== undefined) group.sats += item.satszapped;
    const reaction = item.reaction?.trim();
    if (reaction && reaction !== '+' && !group.reactions.includes(reaction)) group.reactions.push(reaction);
  }
  return [...groups.values()].sort((a, b) => b.createdAt - a.createdAt);
}

/** The translation key of a row's sentence (notifications namespace). */
export function sentenceKey(group: NotificationGroup): string {
  return KNOWN_TYPES.has(group.type) ? `type.t${group.type}` : 'type.unknown';
}
