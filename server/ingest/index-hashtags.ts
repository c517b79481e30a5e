import type { NostrEvent } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { insertRows, rowInsert, write } from '../store/db.ts';
import type { Indexer } from './indexers.ts';

/** A note with more tags than this is tag spam; its first ones still count. */
const MAX_TAGS_PER_NOTE = 20;
const MAX_TAG_LENGTH = 64;

/** The note's hashtags: its t tags, lowercased and without a leading '#', each once. */
export function hashtagsOf(event: NostrEvent): string[] {
  const out = new Set<string>();
  for (const t of event.tags) {
    if (t[0] !== 't' || typeof t[1] !== 'string') continue;
    const tag = t[1].trim().replace(/^#+/, '').toLowerCase();
    if (tag && tag.length <= MAX_TAG_LENGTH) out.add(tag);
    if (out.size >= MAX_TAGS_PER_NOTE) break;
  }
  return [...out];
}

const HASHTAG_USES = rowInsert('hashtag_uses', ['event_id', 'hashtag', 'created_at', 'weight'], 'ON CONFLICT (event_id, hashtag) DO NOTHING');

const weighedInserts: string[] = [];
/** The rows of `n` hashtags of one note, its weight computed by PostgreSQL (float8, as the division in JS). */
export function weighedInsert(n: number): string {
  return (weighedInserts[n] ??= `INSERT INTO hashtag_uses (event_id, hashtag, created_at, weight)
    SELECT ?, t.hashtag, ?::bigint,
      (SELECT COUNT(*) FROM follows WHERE follows = ?)::float8 / GREATEST(1, (SELECT COUNT(*) FROM posts WHERE pubkey = ?))::float8
    FROM (VALUES ${Array(n).fill('(?)').join(', ')}) AS t(hashtag)
    ON CONFLICT (event_id, hashtag) DO NOTHING`);
}

/**
 * Hashtag uses of kind-1 notes with their time, for explore_topics and trending_hashtags
 * (S §3.4, §5.5). The weight of a use is the author's followers divided by the author's post
 * count (S §3.4), frozen at import so the ranking query only sums.
 */
export const hashtagsIndexer: Indexer = {
  name: 'hashtags',
  async onEvent(tx: Queryable, event: NostrEvent): Promise<void> {
    if (event.kind !== 1) return;
    const tags = hashtagsOf(event);
    if (!tags.length) return;
    if (tx.dialect === 'postgres' && tx.write) {
      // A pipelined import: the counts are taken where the read would have been (the statements queued
      // before it), in the insert itself, so nothing waits for an answer.
      await write(tx, weighedInsert(tags.length), [event.id, event.created_at, event.pubkey, event.pubkey, ...tags]);
      return;
    }
    // Both counts in one query: on PostgreSQL every query is a round trip.
    const counts = await tx.get<{ followers: unknown; posts: unknown }>(
      'SELECT (SELECT COUNT(*) FROM follows WHERE follows = ?) AS followers, (SELECT COUNT(*) FROM posts WHERE pubkey = ?) AS posts',
      [event.pubkey, event.pubkey],
    );
    const weight = Number(counts?.followers ?? 0) / Math.max(1, Number(counts?.posts ?? 0));
    await insertRows(tx, HASHTAG_USES, tags.map((tag) => [event.id, tag, event.created_at, weight]));
  },
  async onDelete(tx: Queryable, deletedId: string): Promise<void> {
    await write(tx, 'DELETE FROM hashtag_uses WHERE event_id = ?', [deletedId]);
  },
};
