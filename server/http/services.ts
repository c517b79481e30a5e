/**
 * The HTTP services beside the client and the status API (S §7): link previews, the media
 * cache, Blossom, POST /api and LNURL-pay. The main handler offers each request here first.
 */
import { rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ServerContext } from '../context.ts';
import { linkPreview } from '../media/preview.ts';
import { setAllowPrivateFetches } from '../media/guard.ts';
import { addDemoMediaHost, MAX_URL_LENGTH } from '../media/urls.ts';
import { API_CORS, postApi } from './api.ts';
import { BLOB_PATH, CORS as BLOSSOM_CORS, handleBlossom, LIST_PATH, requestOrigin } from './blossom.ts';
import { lnurlp } from './lnurlp.ts';
import { mediaCache } from './media-cache.ts';
import { untrustedHeaders } from './untrusted.ts';

/** Called once per server, before any event is imported (the media indexer needs the demo host). */
export function initServices(ctx: ServerContext): void {
  addDemoMediaHost(ctx.config.mediaDomain);
  setAllowPrivateFetches(ctx.config.fetchPrivateAddresses);
  // Partial files of a previous run (uploads and downloads cut by a stop) are abandoned; nothing resumes them.
  for (const dir of [join(ctx.config.dataDir, 'blobs', 'tmp'), join(ctx.config.dataDir, 'media', 'tmp')]) rmSync(dir, { recursive: true, force: true });
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'Access-Control-Allow-Origin': '*',
    ...headers,
  });
  res.end(text);
}

function isBlossomPath(path: string): boolean {
  return path === '/upload' || BLOB_PATH.test(path) || LIST_PATH.test(path);
}

/** Answers the request and returns true, or returns false to leave it to the main handler. */
export async function handleServices(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
  const method = req.method ?? 'GET';
  const path = url.pathname;
  if (method === 'OPTIONS' && (path === '/api' || isBlossomPath(path))) {
    res.writeHead(200, { ...(path === '/api' ? API_CORS : BLOSSOM_CORS), 'Access-Control-Max-Age': '86400' });
    res.end();
    return true;
  }
  if (path === '/api' && method === 'POST') {
    await postApi(ctx, req, res);
    return true;
  }
  if (path === '/link-preview' && (method === 'GET' || method === 'HEAD')) {
    const u = url.searchParams.get('u') ?? '';
    if (!u || u.length > MAX_URL_LENGTH) {
      json(res, 400, { error: 'Hibás vagy hiányzó u paraméter' });
      return true;
    }
    // Titles and descriptions are a stranger's text: never a document of ours, even opened directly.
    json(res, 200, await linkPreview(ctx.db, u, ctx.now(), ctx.config.linkPreviewCacheBytes), untrustedHeaders('application/json'));
    return true;
  }
  if (path === '/media-cache' && (method === 'GET' || method === 'HEAD')) {
    await mediaCache(ctx, req, url, res);
    return true;
  }
  if (method === 'GET' && (await lnurlp(ctx, path, requestOrigin(req, ctx), res, url.searchParams))) return true;
  return handleBlossom(ctx, req, res, url);
}
