/**
 * GET /media-cache?s=&a=&u= (S §7): the client's image proxy. Demo media is drawn locally (SVG
 * for the original, WebP for the resized sizes); media that stored events or link previews use is
 * downloaded once and served resized; anything else is a 404. Never a redirect: a Location taken
 * from the query would make our origin an open redirect.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerContext } from '../context.ts';
import type { VariantSize } from '../media/info.ts';
import { demoRaster, knownMedia, originalPath, variantFile } from '../media/store.ts';
import { isDemoMediaHost, MAX_URL_LENGTH } from '../media/urls.ts';
import { IMMUTABLE, sendFile } from './send-file.ts';
import { servedAs } from './untrusted.ts';

const SIZES = new Set(['s', 'm', 'l', 'o']);

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(body);
}

export async function mediaCache(ctx: ServerContext, req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> {
  const u = url.searchParams.get('u');
  let target: URL;
  try {
    if (!u || u.length > MAX_URL_LENGTH) throw new Error('bad');
    target = new URL(u);
  } catch {
    return text(res, 400, 'Hibás vagy hiányzó u paraméter');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return text(res, 400, 'Csak http(s) URL adható meg');
  const s = url.searchParams.get('s') ?? 'o';
  const size = (SIZES.has(s) ? s : 'o') as VariantSize;
  // The client's default is animated; only an explicit 0 asks for the still first frame.
  const animated = url.searchParams.get('a') !== '0';

  if (isDemoMediaHost(target.hostname)) {
    // The demo renderer is loaded on first use only; servers without demo media never pay for it.
    const { renderDemoMedia } = await import('../demo/media.ts');
    const media = renderDemoMedia(target.pathname, size);
    if (!media) return text(res, 404, 'Nem található');
    if (size === 'o') {
      res.writeHead(200, {
        'Content-Length': Buffer.byteLength(media.body),
        // Demo media is a pure function of its URL.
        'Cache-Control': IMMUTABLE,
        'Access-Control-Allow-Origin': '*',
        ...servedAs(media.contentType, true),
      });
      res.end(req.method === 'HEAD' ? undefined : media.body);
      return;
    }
    const file = await demoRaster(ctx, media.body, target.pathname, size);
    return sendFile(req, res, file, 'image/webp', { 'Cache-Control': IMMUTABLE });
  }

  const row = await knownMedia(ctx, target.href);
  // The client shows its own fallback (a link to the original) for what we cannot serve.
  if (!row) return text(res, 404, 'Nem található vagy nem kép');
  const resizable = row.mimetype.startsWith('image/') && Number(row.width) > 0;
  const stillWanted = !animated && Number(row.animated) === 1;
  if (resizable && (size !== 'o' || stillWanted)) {
    try {
      const file = await variantFile(ctx, row, size, animated);
      return sendFile(req, res, file, 'image/webp', { 'Cache-Control': IMMUTABLE });
    } catch (err) {
      // A file sharp measured but cannot re-encode is still worth showing as it is.
      if (ctx.config.verbose) console.error('Átméretezési hiba:', row.url, (err as Error).message);
    }
  }
  return sendFile(req, res, originalPath(ctx, row), row.mimetype, { 'Cache-Control': IMMUTABLE });
}
