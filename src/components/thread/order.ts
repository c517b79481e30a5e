/** Orders of a thread's replies. */
import type { FeedNote } from '../../../core/types';

export type ReplyOrder = 'newest' | 'engagement';

/** Replies with the most engagement first; the server's score when it has one, else the counts. */
export function byEngagement(notes: FeedNote[]): FeedNote[] {
  const weight = (n: FeedNote) => n.stats.score || n.stats.likes + 2 * n.stats.replies + 2 * n.stats.reposts + 3 * n.stats.zaps;
  return [...notes].sort((a, b) => weight(b) - weight(a) || b.event.created_at - a.event.created_at);
}

export function newestFirst(notes: FeedNote[]): FeedNote[] {
  return [...notes].sort((a, b) => b.event.created_at - a.event.created_at);
}
