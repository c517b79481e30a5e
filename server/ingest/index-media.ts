/**
 * Keeps event_media and event_links (which media and link URLs each event uses) at import, and
 * records the known sizes of demo images at once, so bundles can describe them without any I/O.
 */
import type { NostrEvent } from '../context.ts';
import { demoUrlSize, eventUrls } from '../media/urls.ts';
import type { Queryable, SqlValue } from '../store/db.ts';
import { insertRows, rowInsert, write } from '../store/db.ts';
import type { Indexer } from './indexers.ts';

const EVENT_MEDIA = rowInsert('event_media', ['event_id', 'url'], 'ON CONFLICT (event_id, url) DO NOTHING');
const EVENT_LINKS = rowInsert('event_links', ['event_id', 'url'], 'ON CONFLICT (event_id, url) DO NOTHING');
const MEDIA = rowInsert('media', ['url', 'status', 'mimetype', 'width', 'height', 'animated', 'size', 'sha256', 'updated_at'], 'ON CONFLICT (url) DO NOTHING');

async function onEvent(tx: Queryable, ev: NostrEvent, now: number): Promise<void> {
  if (ev.kind !== 0 && ev.kind !== 1 && ev.kind !== 30023) return;
  const { media, links } = eventUrls(ev);
  // Held rows of a pipelined group go out a statement per table (insertRows); which table's rows land
  // first does not matter (nothing reads them during an import, and DO NOTHING keeps the first row).
  const uses: SqlValue[][] = [];
  const sizes: SqlValue[][] = [];
  for (const url of media) {
    uses.push([ev.id, url]);
    const size = demoUrlSize(url);
    if (size) sizes.push([url, 'ok', 'image/svg+xml', size.width, size.height, 0, 0, '', now]);
  }
  await insertRows(tx, EVENT_MEDIA, uses);
  await insertRows(tx, MEDIA, sizes);
  await insertRows(tx, EVENT_LINKS, links.map((url) => [ev.id, url]));
}

async function onDelete(tx: Queryable, deletedId: string): Promise<void> {
  await write(tx, 'DELETE FROM event_media WHERE event_id = ?', [deletedId]);
  await write(tx, 'DELETE FROM event_links WHERE event_id = ?', [deletedId]);
}

export const mediaIndexer: Indexer = { name: 'media', onEvent, onDelete };
