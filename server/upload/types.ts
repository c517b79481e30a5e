/**
 * What may be uploaded (spec §5 and §6): images and videos only, recognised by their first bytes
 * rather than by what the client claims, within a size limit that depends on the uploader.
 */
import type { ServerContext } from '../context.ts';
import { isPremium, membershipOf } from '../membership/store.ts';

export const MB = 1024 * 1024;
/** Spec §6: regular members 100 MB, premium 1 GB. */
export const REGULAR_LIMIT_BYTES = 100 * MB;
export const PREMIUM_LIMIT_BYTES = 1024 * MB;
/** Enough of the head of a file to recognise every format below. */
export const SNIFF_BYTES = 64;

export const UNSUPPORTED_TYPE = 'Nem támogatott fájltípus: csak képet vagy videót lehet feltölteni.';

export function tooBigMessage(limit: number): string {
  return `A fájl túl nagy: legfeljebb ${Math.round(limit / MB)} MB tölthető fel.`;
}

/** The largest upload `pubkey` may make: 1 GB for an active premium or legend member, else 100 MB. */
export async function uploadLimitBytes(ctx: ServerContext, pubkey: string): Promise<number> {
  return isPremium(await membershipOf(ctx.db, pubkey, ctx.now())) ? PREMIUM_LIMIT_BYTES : REGULAR_LIMIT_BYTES;
}

const EXT: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/heic': 'heic',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
  'video/ogg': 'ogv',
};

/**
 * Exactly the raster image and video types sniffMediaType recognises: the only types a stored
 * upload or cached download is ever served as (server/http/untrusted.ts).
 */
export const SERVABLE_MEDIA_TYPES: ReadonlySet<string> = new Set(Object.keys(EXT));

export function extensionFor(type: string): string {
  return EXT[type] ?? 'bin';
}

const ascii = (buf: Buffer, start: number, end: number) => buf.subarray(start, end).toString('latin1');

/**
 * The media type of a file from its first bytes, or null when it is not an image or video we
 * accept. SVG is refused on purpose: it is a document that can carry script.
 */
export function sniffMediaType(head: Buffer): string | null {
  if (head.length < 12) return null;
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(head, 0, 2) === 'BM') return 'image/bmp';
  if (ascii(head, 0, 4) === 'II*\0' || ascii(head, 0, 4) === 'MM\0*') return 'image/tiff';
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return 'video/webm';
  if (ascii(head, 0, 4) === 'OggS') return 'video/ogg';
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (brand === 'avif' || brand === 'avis') return 'image/avif';
    if (['heic', 'heix', 'mif1', 'msf1', 'hevc'].includes(brand)) return 'image/heic';
    if (brand === 'qt  ') return 'video/quicktime';
    return 'video/mp4';
  }
  return null;
}

/** True for a declared Content-Type (or data-URL type) that names an image or a video. */
export function isMediaMime(type: string): boolean {
  const t = type.split(';')[0].trim().toLowerCase();
  return t.startsWith('image/') || t.startsWith('video/');
}
