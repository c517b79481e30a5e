/**
 * Keeps event_media and event_links (which media and link URLs each event uses) at import, and
 * records the known sizes of demo images at once, so bundles can describe them without any I/O.
 */
import type { NostrEvent } from '../context.ts';
import { demoUrlSize, eventUrls } from '../media/urls.ts';
import type { Queryable } from '../store/db.ts';
import { write } from '../store/db.ts';
import type { Indexer } from './indexers.ts';

async function onEvent(tx: Queryable, ev: NostrEvent, now: number): Promise<void> {
  if (ev.kind !== 0 && ev.kind !== 1 && ev.kind !== 30023) return;
  const { media, links } = eventUrls(ev);
  for (const url of media) {
    await write(tx, 'INSERT INTO event_media (event_id, url) VALUES (?, ?) ON CONFLICT (event_id, url) DO NOTHING', [ev.id, url]);
    const size = demoUrlSize(url);
    if (size) {
      await write(tx,
        `INSERT INTO media (url, status, mimetype, width, height, animated, size, sha256, updated_at)
         VALUES (?, 'ok', 'image/svg+xml', ?, ?, 0, 0, '', ?) ON CONFLICT (url) DO NOTHING`,
        [url, size.width, size.height, now],
      );
    }
  }
  for (const url of links) {
    await write(tx, 'INSERT INTO event_links (event_id, url) VALUES (?, ?) ON CONFLICT (event_id, url) DO NOTHING', [ev.id, url]);
  }
}

async function onDelete(tx: Queryable, deletedId: string): Promise<void> {
  await write(tx, 'DELETE FROM event_media WHERE event_id = ?', [deletedId]);
  await write(tx, 'DELETE FROM event_links WHERE event_id = ?', [deletedId]);
}

export const mediaIndexer: Indexer = { name: 'media', onEvent, onDelete };
