import type { NostrEvent } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { write } from '../store/db.ts';
import type { Indexer } from './indexers.ts';
import { pointerD } from './kinds.ts';

const MAX_TOPICS = 20;
const MAX_TOPIC_LENGTH = 64;

/** NIP-23's published_at tag, else created_at, so articles without the tag are still listed (our decision). */
export function publishedAt(event: NostrEvent): number {
  const tag = event.tags.find((t) => t[0] === 'published_at')?.[1];
  const value = Number(tag);
  return tag && Number.isSafeInteger(value) && value > 0 ? value : event.created_at;
}

/** Topics as long_form_content_feed matches them (S §3.1): lowercased t tags, spaces turned into "-". */
export function topicKey(raw: string): string {
  return raw.trim().replace(/^#+/, '').toLowerCase().replace(/\s+/g, '-');
}

function topicsOf(event: NostrEvent): string[] {
  const out = new Set<string>();
  for (const t of event.tags) {
    if (t[0] !== 't' || typeof t[1] !== 'string') continue;
    const topic = topicKey(t[1]);
    if (topic && topic.length <= MAX_TOPIC_LENGTH) out.add(topic);
    if (out.size >= MAX_TOPICS) break;
  }
  return [...out];
}

function words(text: string): number {
  const m = text.match(/\S+/g);
  return m ? m.length : 0;
}

/**
 * The current version of each long-form article (kind 30023) with its sort key, length and
 * topics: Primal's `reads` table (S §5.3). The importer calls indexers only for a version that
 * became current, so each call simply replaces the address's row.
 */
export const readsIndexer: Indexer = {
  name: 'reads',
  async onEvent(tx: Queryable, event: NostrEvent): Promise<void> {
    if (event.kind !== 30023) return;
    const d = pointerD(event.kind, event.tags);
    const published = publishedAt(event);
    await write(tx,
      `INSERT INTO articles (pubkey, d, event_id, created_at, published_at, words) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (pubkey, d) DO UPDATE SET event_id = excluded.event_id, created_at = excluded.created_at,
         published_at = excluded.published_at, words = excluded.words`,
      [event.pubkey, d, event.id, event.created_at, published, words(event.content)],
    );
    await write(tx, 'DELETE FROM article_topics WHERE pubkey = ? AND d = ?', [event.pubkey, d]);
    for (const topic of topicsOf(event)) {
      await write(tx, 'INSERT INTO article_topics (pubkey, d, topic, published_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING', [
        event.pubkey,
        d,
        topic,
        published,
      ]);
    }
  },
  async onDelete(tx: Queryable, deletedId: string): Promise<void> {
    const row = await tx.get<{ pubkey: string; d: string }>('SELECT pubkey, d FROM articles WHERE event_id = ?', [deletedId]);
    if (!row) return;
    await write(tx, 'DELETE FROM articles WHERE pubkey = ? AND d = ?', [row.pubkey, row.d]);
    await write(tx, 'DELETE FROM article_topics WHERE pubkey = ? AND d = ?', [row.pubkey, row.d]);
  },
};
