/**
 * Streams a file from disk as an HTTP response, with a single byte range when asked (videos
 * seek with it), never reading the whole file into memory. Every file sent here (cached media,
 * Blossom blobs) came from a third party or a user, so it goes out with the untrusted headers.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { servedAs } from './untrusted.ts';

export const IMMUTABLE = 'public, max-age=31536000, immutable';

export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  contentType: string,
  headers: Record<string, string> = {},
): Promise<void> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify({ error: 'Nem található' }));
    return;
  }
  const base: Record<string, string | number> = {
    'Accept-Ranges': 'bytes',
    'Access-Control-Allow-Origin': '*',
    ...headers,
    // Last, so no caller can loosen them: every file sent here is a stranger's bytes.
    ...servedAs(contentType),
  };
  let start = 0;
  let end = size - 1;
  let status = 200;
  const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? '').trim());
  if (range && (range[1] || range[2]) && size > 0) {
    if (range[1]) {
      start = Number(range[1]);
      end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    } else {
      start = Math.max(0, size - Number(range[2]));
    }
    if (start > end || start >= size) {
      res.writeHead(416, { ...base, 'Content-Range': `bytes */${size}` });
      res.end();
      return;
    }
    status = 206;
    base['Content-Range'] = `bytes ${start}-${end}/${size}`;
  }
  res.writeHead(status, { ...base, 'Content-Length': size === 0 ? 0 : end - start + 1 });
  if (req.method === 'HEAD' || size === 0) {
    res.end();
    return;
  }
  const stream = createReadStream(file, { start, end });
  stream.on('error', () => res.destroy());
  res.on('close', () => stream.destroy());
  stream.pipe(res);
}
