/**
 * The media and link parts of a bundle (S §2.2 step 3): a 10000119 MEDIA_METADATA and a
 * 10000128 LINK_METADATA per event that has them. Two batched reads of precomputed rows;
 * nothing is fetched or measured here.
 */
import type { CacheObject } from '../cache/data.ts';
import type { NostrEvent } from '../context.ts';
import type { Queryable, SqlValue } from '../store/db.ts';
import { CacheKind } from '../../core/kinds.ts';
import { hotCaches } from '../cache/hot-cache.ts';

/** Target widths of the resized variants; the original ('o') keeps its own size. */
export const VARIANT_WIDTH = { s: 200, m: 400, l: 800 } as const;
export type VariantSize = keyof typeof VARIANT_WIDTH | 'o';
/** Resized variants are always WebP: every current browser shows it, animated too. */
export const VARIANT_MIMETYPE = 'image/webp';

const BATCH = 500;

export interface MediaRow {
  url: string;
  status: string;
  mimetype: string;
  width: number;
  height: number;
  animated: number;
  size: number;
  sha256: string;
  updated_at: number;
}

export interface Variant {
  s: VariantSize;
  a: number;
  w: number;
  h: number;
  mt: string;
  media_url: string;
}

/**
 * The media cache URL of one variant. Relative, because a bundle does not know which address the
 * client reached the server by; clients resolve it against the cache server they talk to.
 */
export function mediaCacheUrl(url: string, size: VariantSize, animated: boolean): string {
  return `/media-cache?s=${size}&a=${animated ? '1' : '0'}&u=${formEncode(url)}`;
}

/**
 * URLSearchParams' encoding of one value (application/x-www-form-urlencoded) without building one per
 * URL, which showed in the profile of every page of notes: encodeURIComponent also leaves !'()~ alone
 * and writes a space as %20. A string it cannot encode (a lone surrogate) goes through URLSearchParams.
 */
function formEncode(value: string): string {
  try {
    return encodeURIComponent(value)
      .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
      .replace(/%20/g, '+');
  } catch {
    return new URLSearchParams({ u: value }).toString().slice(2);
  }
}

/** Variants a media row can be served as, with the dimensions each will have. */
export function variantsOf(row: MediaRow): Variant[] {
  const width = Number(row.width);
  const height = Number(row.height);
  const animated = Number(row.animated) === 1;
  const out: Variant[] = [];
  const flags = animated ? [1, 0] : [1];
  for (const a of flags) out.push({ s: 'o', a, w: width, h: height, mt: row.mimetype, media_url: mediaCacheUrl(row.url, 'o', a === 1) });
  // Only images that the server can decode are resized; videos are offered as they are.
  if (!row.mimetype.startsWith('image/') || !width || !height) return out;
  for (const s of ['s', 'm', 'l'] as const) {
    const w = Math.min(VARIANT_WIDTH[s], width);
    const h = Math.max(1, Math.round((height * w) / width));
    for (const a of flags) out.push({ s, a, w, h, mt: VARIANT_MIMETYPE, media_url: mediaCacheUrl(row.url, s, a === 1) });
  }
  return out;
}

/**
 * The JSON of one media resource ({url, mt, variants}), a pure function of these row fields, so kept
 * without any invalidation: every page of notes describes the same popular pictures, and building
 * their variant URLs (percent-encoding each URL four to eight times) showed in the server profile.
 */
const resourceJson = new Map<string, string>();
const MAX_RESOURCES = 20_000;

function mediaResourceJson(row: MediaRow): string {
  const key = `${row.url}\n${row.mimetype}\n${row.width}\n${row.height}\n${row.animated}`;
  let json = resourceJson.get(key);
  if (json === undefined) {
    json = JSON.stringify({ url: row.url, mt: row.mimetype, variants: variantsOf(row) });
    // Dropping everything now and then is cheaper than ordering the entries, and refills in one page.
    if (resourceJson.size >= MAX_RESOURCES) resourceJson.clear();
    resourceJson.set(key, json);
  }
  return json;
}

async function batched<T>(db: Queryable, sql: (marks: string) => string, ids: string[]): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += BATCH) {
    const part = ids.slice(i, i + BATCH);
    out.push(...(await db.all<T>(sql(part.map(() => '?').join(',')), part as SqlValue[])));
  }
  return out;
}

function grouped<T extends { event_id: string }>(rows: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const list = out.get(r.event_id) ?? [];
    list.push(r);
    out.set(r.event_id, list);
  }
  return out;
}

const MEDIA_KINDS = new Set([0, 1, 6, 30023]);
const NONE: readonly CacheObject[] = Object.freeze([]);

/**
 * 10000119 and 10000128 objects for the events that have known media or cached link previews. On a
 * running server each event's objects come from memory (hot-cache.ts bundleMedia), frozen.
 */
export async function mediaAndLinkMetadata(db: Queryable, events: Iterable<NostrEvent>): Promise<CacheObject[]> {
  const ids = [...new Set([...events].filter((e) => MEDIA_KINDS.has(e.kind)).map((e) => e.id))];
  if (!ids.length) return [];
  const cache = hotCaches(db)?.bundleMedia;
  const byId = cache
    ? await cache.getMany(ids, NONE, async (missing) => {
        const loaded = await loadMetadata(db, missing);
        for (const objects of loaded.values()) for (const o of objects) Object.freeze(o);
        return loaded;
      })
    : await loadMetadata(db, ids);
  const out: CacheObject[] = [];
  for (const id of ids) for (const o of byId.get(id) ?? []) out.push(o);
  return out;
}

/** Each event's objects (media first, then links); an event with neither is left out. */
async function loadMetadata(db: Queryable, ids: string[]): Promise<Map<string, CacheObject[]>> {
  const media = grouped(
    await batched<MediaRow & { event_id: string }>(
      db,
      (marks) =>
        `SELECT em.event_id, m.url, m.status, m.mimetype, m.width, m.height, m.animated, m.size, m.sha256, m.updated_at
         FROM event_media em JOIN media m ON m.url = em.url WHERE em.event_id IN (${marks}) AND m.status = 'ok' ORDER BY em.event_id, m.url`,
      ids,
    ),
  );
  const links = grouped(
    await batched<{ event_id: string; url: string; mimetype: string; md_title: string; md_description: string; md_image: string; icon_url: string }>(
      db,
      (marks) =>
        `SELECT el.event_id, p.url, p.mimetype, p.md_title, p.md_description, p.md_image, p.icon_url
         FROM event_links el JOIN preview p ON p.url = el.url WHERE el.event_id IN (${marks}) AND p.ok = 1 ORDER BY el.event_id, p.url`,
      ids,
    ),
  );
  const out = new Map<string, CacheObject[]>();
  for (const id of ids) {
    const objects: CacheObject[] = [];
    const m = media.get(id);
    if (m) {
      // The text JSON.stringify({ event_id, resources, thumbnails: {} }) would write.
      const content = `{"event_id":${JSON.stringify(id)},"resources":[${m.map(mediaResourceJson).join(',')}],"thumbnails":{}}`;
      objects.push({ kind: CacheKind.MEDIA_METADATA, content });
    }
    const l = links.get(id);
    if (l) {
      const resources = l.map(({ event_id: _e, ...r }) => r);
      objects.push({ kind: CacheKind.LINK_METADATA, content: JSON.stringify({ event_id: id, resources }) });
    }
    if (objects.length) out.set(id, objects);
  }
  return out;
}
