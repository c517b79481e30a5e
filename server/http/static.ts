import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pageHeaders } from './page-policy.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
};

/** Already-compressed formats gain nothing from gzip. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.webmanifest', '.map', '.svg', '.txt', '.xml', '.wasm', '.ico', '.ttf', '.otf']);

interface CachedFile {
  mtimeMs: number;
  size: number;
  body: Buffer;
  gzip: Buffer | null;
  etag: string;
  /** Security headers of an HTML page (its CSP hashes this very file's inline scripts). */
  headers: Record<string, string>;
}

const NOT_BUILT = `<!doctype html>
<html lang="hu"><head><meta charset="utf-8"><title>Strucc – a kliens nincs lefordítva</title></head>
<body><h1>A webes kliens még nincs lefordítva</h1>
<p>Futtasd a <code>npm run build</code> parancsot, majd indítsd újra a szervert.</p></body></html>`;

/** Files of the installable app that must never be kept by HTTP caches (see tools/pwa-plugin.ts). */
const ALWAYS_REVALIDATED = new Set(['/sw.js', '/manifest.webmanifest']);

export interface StaticServer {
  /** Answers GET/HEAD for the built client; every non-file path gets index.html (client-side routing). */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): void;
}

export function createStaticServer(distDir: string): StaticServer {
  const root = resolve(distDir);
  const cache = new Map<string, CachedFile>();

  function load(file: string): CachedFile | null {
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return null;
    }
    if (!stat.isFile()) return null;
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit;
    const body = readFileSync(file);
    const entry: CachedFile = {
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      body,
      // Compressed once per file version, not per request.
      gzip: COMPRESSIBLE.has(extname(file).toLowerCase()) && body.length > 512 ? gzipSync(body, { level: 9 }) : null,
      etag: `"${stat.size.toString(16)}-${Math.trunc(stat.mtimeMs).toString(16)}"`,
      headers: extname(file).toLowerCase() === '.html' ? pageHeaders(body.toString('utf8')) : { 'X-Content-Type-Options': 'nosniff' },
    };
    cache.set(file, entry);
    return entry;
  }

  function send(req: IncomingMessage, res: ServerResponse, file: string, entry: CachedFile, cacheControl: string): void {
    res.setHeader('Content-Type', TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream');
    res.setHeader('Cache-Control', cacheControl);
    res.setHeader('ETag', entry.etag);
    res.setHeader('Vary', 'Accept-Encoding');
    for (const [name, value] of Object.entries(entry.headers)) res.setHeader(name, value);
    if (req.headers['if-none-match'] === entry.etag) {
      res.writeHead(304).end();
      return;
    }
    const gzip = entry.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) ? entry.gzip : null;
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    const body = gzip ?? entry.body;
    res.setHeader('Content-Length', body.length);
    res.writeHead(200);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return {
    serve(req, res, pathname) {
      const index = join(root, 'index.html');
      const indexEntry = load(index);
      if (!indexEntry) {
        res.writeHead(503, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '30', ...pageHeaders(NOT_BUILT) });
        res.end(req.method === 'HEAD' ? undefined : NOT_BUILT);
        return;
      }
      const file = resolve(root, '.' + pathname);
      const inside = file === root || file.startsWith(root + sep);
      const entry = inside && file !== root ? load(file) : null;
      if (entry) {
        // Vite puts content hashes in /assets/ names, so those never change under the same URL. The
        // page, the service worker and the manifest are asked again each time: a new build must be
        // seen on the next start, not an hour later.
        const cacheControl = pathname.startsWith('/assets/')
          ? 'public, max-age=31536000, immutable'
          : file === index || ALWAYS_REVALIDATED.has(pathname)
            ? 'no-cache'
            : 'public, max-age=3600';
        send(req, res, file, entry, cacheControl);
        return;
      }
      // A missing hashed asset is a stale page asking for an old build: HTML in its place would only confuse the browser.
      // A missing sw.js must be a 404 too: that is what makes browsers drop a registered service worker.
      if (pathname.startsWith('/assets/') || ALWAYS_REVALIDATED.has(pathname)) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : 'Nem található');
        return;
      }
      send(req, res, index, indexEntry, 'no-cache');
    },
  };
}
