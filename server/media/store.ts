/**
 * The media cache's disk side: originals downloaded once and kept by sha256, resized variants
 * made lazily with sharp and kept beside them, and demo SVGs rasterised on first use.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { rowsChanged } from '../cache/hot-cache.ts';
import { MEDIA_CACHE_BYTES } from '../config.ts';
import type { ServerContext } from '../context.ts';
import { sniffMediaType, SNIFF_BYTES } from '../upload/types.ts';
import { downloadToFile } from './fetch.ts';
import { VARIANT_WIDTH, type MediaRow, type VariantSize } from './info.ts';
import { grow, touch } from './lru.ts';

export const MEDIA_MAX_BYTES = 20 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 20_000;
/** A URL whose download failed is answered 404 for a while instead of being tried on every request. */
const RETRY_FAILED_SECONDS = 3600;
/** Decoding bombs: a small file can claim gigapixels; sharp refuses anything larger. */
const MAX_INPUT_PIXELS = 100_000_000;

export interface MediaDirs {
  originals: string;
  variants: string;
  demo: string;
  tmp: string;
}

export function mediaDirs(dataDir: string): MediaDirs {
  const root = join(dataDir, 'media');
  return { originals: join(root, 'orig'), variants: join(root, 'var'), demo: join(root, 'demo'), tmp: join(root, 'tmp') };
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Counts `bytes` more for the original `sha256` (itself, or a variant of it) and evicts the least
 * recently used originals, with their variants, while the cache is over MEDIA_CACHE_BYTES. An
 * evicted URL is downloaded again on its next request.
 */
async function account(ctx: ServerContext, sha256: string, bytes: number): Promise<void> {
  const dirs = mediaDirs(ctx.config.dataDir);
  await grow(ctx.db, 'media', sha256, bytes, ctx.now(), ctx.config.mediaCacheBytes ?? MEDIA_CACHE_BYTES, async (old) => {
    await rm(join(dirs.originals, old), { force: true });
    let names: string[] = [];
    try {
      names = await readdir(dirs.variants);
    } catch {
      // No variants made yet.
    }
    for (const name of names) if (name.startsWith(`${old}-`)) await rm(join(dirs.variants, name), { force: true });
  });
}

/** Same-key work runs once; later callers wait for the first. Keyed by path, so it is safe across servers. */
const inflight = new Map<string, Promise<unknown>>();

function once<T>(key: string, work: () => Promise<T>): Promise<T> {
  const running = inflight.get(key) as Promise<T> | undefined;
  if (running) return running;
  const job = work().finally(() => inflight.delete(key));
  inflight.set(key, job);
  return job;
}

/** Writes through a temp name and renames, so a reader never sees half a file. */
async function writeAtomically(dir: string, tmpDir: string, name: string, produce: (tmp: string) => Promise<void>): Promise<string> {
  const final = join(dir, name);
  if (await exists(final)) return final;
  await mkdir(dir, { recursive: true });
  await mkdir(tmpDir, { recursive: true });
  const tmp = join(tmpDir, `${randomUUID()}.part`);
  try {
    await produce(tmp);
    await rename(tmp, final);
  } finally {
    await rm(tmp, { force: true });
  }
  return final;
}

/** The demo image at `pathname` as a WebP of the given size, rasterised from its SVG once. */
export async function demoRaster(ctx: ServerContext, svg: string, pathname: string, size: Exclude<VariantSize, 'o'>): Promise<string> {
  const dirs = mediaDirs(ctx.config.dataDir);
  const name = `${createHash('sha256').update(`${pathname}|${size}`).digest('hex')}.webp`;
  return once(join(dirs.demo, name), () =>
    writeAtomically(dirs.demo, dirs.tmp, name, async (tmp) => {
      await sharp(Buffer.from(svg), { limitInputPixels: MAX_INPUT_PIXELS }).webp({ quality: 82 }).toFile(tmp);
    }),
  );
}

/** Downloads `url` (once), measures it and records it in `media`; returns the row, status 'failed' when it could not be had. */
export async function fetchMedia(ctx: ServerContext, url: string): Promise<MediaRow> {
  const dirs = mediaDirs(ctx.config.dataDir);
  return once(`fetch:${ctx.config.dataDir}:${url}`, async () => {
    const now = ctx.now();
    let row: MediaRow = { url, status: 'failed', mimetype: '', width: 0, height: 0, animated: 0, size: 0, sha256: '', updated_at: now };
    await mkdir(dirs.tmp, { recursive: true });
    await mkdir(dirs.originals, { recursive: true });
    const tmp = join(dirs.tmp, `${randomUUID()}.part`);
    try {
      const got = await downloadToFile(url, tmp, MEDIA_MAX_BYTES, { timeoutMs: DOWNLOAD_TIMEOUT_MS, maxRedirects: 3, accept: 'image/*,video/*;q=0.9' });
      // The type comes from the bytes alone: an upstream header ("image/png, text/html") must never
      // decide what our origin serves. SVG and everything else not a raster image or video is refused.
      const mimetype = sniffMediaType(await readHead(tmp));
      let width = 0;
      let height = 0;
      let animated = 0;
      if (mimetype?.startsWith('image/')) {
        try {
          const meta = await sharp(tmp, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
          width = meta.width ?? 0;
          height = meta.pageHeight ?? meta.height ?? 0;
          animated = (meta.pages ?? 1) > 1 ? 1 : 0;
        } catch {
          // Recognised but not decodable here (HEIC without a codec): served as it is, unmeasured.
        }
      }
      if (mimetype) {
        await rename(tmp, join(dirs.originals, got.sha256));
        row = { url, status: 'ok', mimetype, width, height, animated, size: got.size, sha256: got.sha256, updated_at: now };
        await account(ctx, got.sha256, got.size);
      }
    } catch (err) {
      if (ctx.config.verbose) console.error('Médialetöltési hiba:', url, (err as Error).message);
    } finally {
      await rm(tmp, { force: true });
    }
    await ctx.db.run(
      `INSERT INTO media (url, status, mimetype, width, height, animated, size, sha256, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (url) DO UPDATE SET status = excluded.status, mimetype = excluded.mimetype, width = excluded.width, height = excluded.height,
         animated = excluded.animated, size = excluded.size, sha256 = excluded.sha256, updated_at = excluded.updated_at`,
      [row.url, row.status, row.mimetype, row.width, row.height, row.animated, row.size, row.sha256, row.updated_at],
    );
    rowsChanged(ctx.db, 'media');
    return row;
  });
}

/**
 * The row for a URL some stored event or link preview uses, downloading it when needed; null when
 * nothing uses it (so the server is no open proxy) or it cannot be had.
 */
export async function knownMedia(ctx: ServerContext, url: string): Promise<MediaRow | null> {
  const row = await ctx.db.get<MediaRow>('SELECT * FROM media WHERE url = ?', [url]);
  if (row && row.status === 'ok' && row.sha256 && (await exists(join(mediaDirs(ctx.config.dataDir).originals, row.sha256)))) {
    await touch(ctx.db, 'media', row.sha256, ctx.now());
    return row;
  }
  if (row && row.status === 'failed' && ctx.now() - Number(row.updated_at) < RETRY_FAILED_SECONDS) return null;
  const used =
    (await ctx.db.get('SELECT 1 AS x FROM event_media WHERE url = ? LIMIT 1', [url])) ??
    (await ctx.db.get("SELECT 1 AS x FROM preview WHERE md_image = ? AND md_image <> '' LIMIT 1", [url]));
  if (!used) return null;
  const fetched = await fetchMedia(ctx, url);
  return fetched.status === 'ok' ? fetched : null;
}

export function originalPath(ctx: ServerContext, row: MediaRow): string {
  return join(mediaDirs(ctx.config.dataDir).originals, row.sha256);
}

/**
 * A resized (or first-frame) WebP of an image original. `size` 'o' with animated false is the
 * still first frame at full size; the other sizes are never enlarged.
 */
export async function variantFile(ctx: ServerContext, row: MediaRow, size: VariantSize, animated: boolean): Promise<string> {
  const dirs = mediaDirs(ctx.config.dataDir);
  const keepAnimation = animated && Number(row.animated) === 1;
  const name = `${row.sha256}-${size}-${keepAnimation ? 1 : 0}.webp`;
  return once(join(dirs.variants, name), async () => {
    let made = 0;
    const file = await writeAtomically(dirs.variants, dirs.tmp, name, async (tmp) => {
      let img = sharp(originalPath(ctx, row), { animated: keepAnimation, limitInputPixels: MAX_INPUT_PIXELS });
      if (size !== 'o') img = img.resize({ width: VARIANT_WIDTH[size], withoutEnlargement: true });
      made = (await img.webp({ quality: 80 }).toFile(tmp)).size;
    });
    if (made > 0) await account(ctx, row.sha256, made);
    return file;
  });
}
