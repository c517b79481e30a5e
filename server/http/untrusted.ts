/**
 * Headers for every response that carries bytes a stranger chose (cached media, Blossom blobs,
 * link-preview answers). Our origin holds the key in its shared worker, so such bytes must never
 * become a page of ours: opened directly they get a sandboxed, script-less document, the browser
 * may not guess a more active type than the one we name, and only raster images and videos
 * recognised from their own bytes keep their type at all.
 */
import { SERVABLE_MEDIA_TYPES } from '../upload/types.ts';

/**
 * cross-origin: the media cache and Blossom are asked for by other origins too (the app may be
 * served from another host than its media server, and any Nostr client may embed a blob).
 */
const BASE = {
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

export const UNTRUSTED_CSP = "sandbox; default-src 'none'";
/** Our own demo drawings are SVG; some browsers apply an image's own CSP to it, and they style with attributes. */
const SVG_CSP = `${UNTRUSTED_CSP}; style-src 'unsafe-inline'`;

/** The demo renderer's SVGs are the only SVG we serve, and only because we drew them. */
const OWN_SVG = 'image/svg+xml';

/** Headers for bytes of `contentType` from a third party or a user (not for our own JSON or errors). */
export function untrustedHeaders(contentType: string): Record<string, string> {
  const type = contentType.split(';')[0].trim().toLowerCase();
  return { ...BASE, 'Content-Security-Policy': type === OWN_SVG ? SVG_CSP : UNTRUSTED_CSP };
}

/**
 * The type a stored file may be served as: a known raster image or video keeps its type;
 * anything else is a download the browser never renders.
 */
export function servedAs(contentType: string, ownSvg = false): Record<string, string> {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (SERVABLE_MEDIA_TYPES.has(type) || (ownSvg && type === OWN_SVG)) return { 'Content-Type': type, ...untrustedHeaders(type) };
  return { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment', ...untrustedHeaders('application/octet-stream') };
}
