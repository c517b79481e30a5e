/**
 * Link previews (GET /link-preview, S §7): fetch the page once, read its OpenGraph and meta
 * tags, and keep the answer in the `preview` table for a day (an hour after a failure), within
 * LINK_PREVIEW_CACHE_BYTES (server/media/lru.ts).
 */
import { rowsChanged } from '../cache/hot-cache.ts';
import { LINK_PREVIEW_CACHE_BYTES } from '../config.ts';
import type { Queryable } from '../store/db.ts';
import { fetchHead, type FetchOptions } from './fetch.ts';
import { decodeHtml, parseHtmlMeta } from './html-meta.ts';
import { forget, grow, touch } from './lru.ts';
import { normaliseUrl } from './urls.ts';

export const PREVIEW_MAX_BYTES = 1024 * 1024;
const FETCH: FetchOptions = { timeoutMs: 5000, maxRedirects: 3, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' };
const FRESH_SECONDS = 24 * 3600;
/** A site that was down should get another chance well before a day passes. */
const RETRY_FAILED_SECONDS = 3600;

export interface LinkPreview {
  url: string;
  mimetype: string;
  title: string;
  description: string;
  image: string;
  icon_url: string;
}

interface PreviewRow {
  url: string;
  mimetype: string;
  md_title: string;
  md_description: string;
  md_image: string;
  icon_url: string;
  ok: number;
  fetched_at: number;
}

export function emptyPreview(url: string): LinkPreview {
  return { url, mimetype: '', title: '', description: '', image: '', icon_url: '' };
}

function fromRow(row: PreviewRow): LinkPreview {
  return { url: row.url, mimetype: row.mimetype, title: row.md_title, description: row.md_description, image: row.md_image, icon_url: row.icon_url };
}

/** Fetches and parses without touching the database; never throws. */
export async function fetchPreview(url: string): Promise<{ preview: LinkPreview; ok: boolean }> {
  try {
    const page = await fetchHead(url, PREVIEW_MAX_BYTES, FETCH);
    const mimetype = page.contentType.split(';')[0].trim().toLowerCase();
    const preview = { ...emptyPreview(url), mimetype };
    const looksHtml = mimetype === 'text/html' || mimetype === 'application/xhtml+xml' || (!mimetype && /<html|<head|<meta/i.test(page.body.subarray(0, 1024).toString('latin1')));
    if (looksHtml) {
      const meta = parseHtmlMeta(decodeHtml(page.body, page.contentType), page.finalUrl);
      return { preview: { ...preview, mimetype: mimetype || 'text/html', ...meta }, ok: true };
    }
    // A direct link to an image previews as that image.
    if (mimetype.startsWith('image/')) return { preview: { ...preview, image: page.finalUrl }, ok: true };
    return { preview, ok: true };
  } catch {
    return { preview: emptyPreview(url), ok: false };
  }
}

/** One fetch per URL at a time, however many clients ask for it together. */
const inflight = new WeakMap<Queryable, Map<string, Promise<LinkPreview>>>();

/** What a stored preview costs, roughly: its text plus the row and index overhead. */
function rowBytes(url: string, p: LinkPreview): number {
  return 64 + 2 * url.length + p.mimetype.length + p.title.length + p.description.length + p.image.length + p.icon_url.length;
}

/** The preview of `rawUrl`, from the table while fresh; `capBytes` (LINK_PREVIEW_CACHE_BYTES) bounds the table, least recently used out first. */
export async function linkPreview(db: Queryable, rawUrl: string, now: number, capBytes = LINK_PREVIEW_CACHE_BYTES): Promise<LinkPreview> {
  const url = normaliseUrl(rawUrl.trim());
  if (!url) return emptyPreview(rawUrl);
  const row = await db.get<PreviewRow>('SELECT * FROM preview WHERE url = ?', [url]);
  if (row) {
    const age = now - Number(row.fetched_at);
    if (age < (Number(row.ok) ? FRESH_SECONDS : RETRY_FAILED_SECONDS)) {
      await touch(db, 'preview', url, now);
      return fromRow(row);
    }
  }
  let pending = inflight.get(db);
  if (!pending) inflight.set(db, (pending = new Map()));
  const running = pending.get(url);
  if (running) return running;
  const job = (async () => {
    const { preview, ok } = await fetchPreview(url);
    try {
      await db.run(
        `INSERT INTO preview (url, mimetype, md_title, md_description, md_image, icon_url, ok, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (url) DO UPDATE SET mimetype = excluded.mimetype, md_title = excluded.md_title, md_description = excluded.md_description,
           md_image = excluded.md_image, icon_url = excluded.icon_url, ok = excluded.ok, fetched_at = excluded.fetched_at`,
        [url, preview.mimetype, preview.title, preview.description, preview.image, preview.icon_url, ok ? 1 : 0, now],
      );
      await forget(db, 'preview', url);
      await grow(db, 'preview', url, rowBytes(url, preview), now, capBytes, async (old) => {
        await db.run('DELETE FROM preview WHERE url = ?', [old]);
      });
    } finally {
      // Once the new row and every eviction are committed (or failed): bundles' link objects are stale.
      rowsChanged(db, 'media');
    }
    return preview;
  })().finally(() => pending.delete(url));
  pending.set(url, job);
  return job;
}
