/**
 * Blossom over HTTP (BUD-01/02, S §7): PUT /upload, GET/HEAD/DELETE /<sha256>[.ext], GET /list/<pubkey>.
 * Uploads are streamed to a temp file and hashed on the way, never held in memory.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerContext } from '../context.ts';
import { authHashes, AuthError, verifyBlossomAuth } from '../upload/auth.ts';
import { storageQuota } from '../membership/store.ts';
import { blobPath, commitBlob, deleteBlob, getBlob, listBlobs, overQuotaMessage, QuotaError, storageLeft, tempBlobPath } from '../upload/blobs.ts';
import { isMediaMime, sniffMediaType, SNIFF_BYTES, tooBigMessage, UNSUPPORTED_TYPE, uploadLimitBytes, REGULAR_LIMIT_BYTES } from '../upload/types.ts';
import { IMMUTABLE, sendFile } from './send-file.ts';

export const BLOB_PATH = /^\/([0-9a-f]{64})(\.[a-z0-9]{1,10})?$/;
export const LIST_PATH = /^\/list\/([0-9a-f]{64})$/;

export const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, PUT, DELETE, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Content-Length, X-SHA-256, X-Content-Type, X-Content-Length',
  'Access-Control-Expose-Headers': 'X-Reason',
};

/** `reason` goes in the ASCII-only X-Reason header (BUD-01); `message` is the Hungarian text a person reads. */
function fail(res: ServerResponse, status: number, reason: string, message: string, close = false): void {
  const body = JSON.stringify({ error: message });
  res.writeHead(status, {
    ...CORS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Reason': reason,
    ...(close ? { Connection: 'close' } : {}),
  });
  res.end(body);
}

function ok(res: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(200, { ...CORS, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(text);
}

/** Where blob URLs point: the address the client used to reach us. */
export function requestOrigin(req: IncomingMessage, ctx: ServerContext): string {
  const host = String(req.headers.host ?? '');
  // Behind a TLS-terminating proxy the client reached us over https.
  const scheme = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim() === 'https' ? 'https' : 'http';
  if (/^[A-Za-z0-9.[\]:-]{1,255}$/.test(host)) return `${scheme}://${host}`;
  return `http://${ctx.config.host}:${ctx.config.port}`;
}

class Refused extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    readonly hu: string,
  ) {
    super(reason);
  }
}

async function ownsAny(ctx: ServerContext, pubkey: string, hashes: string[]): Promise<boolean> {
  for (const h of hashes) if (await ctx.db.get('SELECT 1 AS x FROM blob_owners WHERE sha256 = ? AND pubkey = ?', [h, pubkey])) return true;
  return false;
}

const overQuota = (quota: number) => new Refused(413, 'storage quota exceeded', overQuotaMessage(quota));

/** Streams the body to a temp file, checking the type on the first bytes and the size all along. */
function receive(req: IncomingMessage, tmp: string, limit: number, tooBig: Refused): Promise<{ sha256: string; size: number; type: string }> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const out = createWriteStream(tmp);
    let size = 0;
    let head = Buffer.alloc(0);
    let type: string | null = null;
    let settled = false;
    const stop = (err: Error) => {
      if (settled) return;
      settled = true;
      req.pause();
      out.destroy();
      reject(err);
    };
    out.on('error', stop);
    req.on('error', stop);
    req.on('aborted', () => stop(new Error('aborted')));
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) return stop(tooBig);
      if (type === null) {
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES)]);
        if (head.length >= SNIFF_BYTES || size >= 12) {
          type = sniffMediaType(head);
          if (!type && head.length >= 12) return stop(new Refused(415, 'unsupported file type', UNSUPPORTED_TYPE));
        }
      }
      hash.update(chunk);
      if (!out.write(chunk)) {
        req.pause();
        out.once('drain', () => req.resume());
      }
    });
    req.on('end', () => {
      if (settled) return;
      if (!type) return stop(new Refused(415, 'unsupported file type', UNSUPPORTED_TYPE));
      const found = type;
      out.end(() => {
        if (settled) return;
        settled = true;
        resolve({ sha256: hash.digest('hex'), size, type: found });
      });
    });
  });
}

async function upload(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let auth;
  try {
    auth = await verifyBlossomAuth(req.headers.authorization, 'upload', ctx.now());
  } catch (err) {
    if (err instanceof AuthError) return fail(res, 401, err.message, 'Érvénytelen vagy hiányzó feltöltési engedély.', true);
    throw err;
  }
  const sizeLimit = await uploadLimitBytes(ctx, auth.pubkey);
  // Re-uploading bytes one already owns costs nothing; commitBlob checks the quota once the hash is known.
  const again = await ownsAny(ctx, auth.pubkey, authHashes(auth));
  const left = again ? sizeLimit : await storageLeft(ctx, auth.pubkey);
  const limit = Math.min(sizeLimit, left);
  // Past the smaller of the two limits the answer names the one that was hit.
  const refusal = left < sizeLimit ? overQuota(storageQuota(ctx)) : new Refused(413, 'file too large', tooBigMessage(sizeLimit));
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return fail(res, refusal.status, refusal.reason, refusal.hu, true);
  const declaredType = String(req.headers['content-type'] ?? '').split(';')[0].trim();
  if (declaredType && declaredType !== 'application/octet-stream' && !isMediaMime(declaredType)) {
    return fail(res, 415, 'unsupported file type', UNSUPPORTED_TYPE, true);
  }
  const tmp = await tempBlobPath(ctx);
  try {
    const blob = await receive(req, tmp, limit, refusal);
    const allowed = authHashes(auth);
    if (allowed.length && !allowed.includes(blob.sha256)) {
      return fail(res, 403, 'sha256 does not match the x tag of the auth event', 'A feltöltött fájl nem egyezik az engedélyezett fájllal.');
    }
    ok(res, await commitBlob(ctx, tmp, blob, auth.pubkey, requestOrigin(req, ctx)));
  } catch (err) {
    if (err instanceof QuotaError) err = overQuota(err.quota);
    if (err instanceof Refused) return fail(res, err.status, err.reason, err.hu, true);
    if (!res.headersSent && !req.destroyed) throw err;
  } finally {
    await rm(tmp, { force: true });
  }
}

/** BUD-06 preflight: may this upload be made? Answers without a body. */
function uploadCheck(req: IncomingMessage, res: ServerResponse): void {
  const type = String(req.headers['x-content-type'] ?? '');
  const length = Number(req.headers['x-content-length']);
  if (type && !isMediaMime(type)) return fail(res, 415, 'unsupported file type', UNSUPPORTED_TYPE);
  if (Number.isFinite(length) && length > REGULAR_LIMIT_BYTES) return fail(res, 413, 'file too large', tooBigMessage(REGULAR_LIMIT_BYTES));
  res.writeHead(200, CORS);
  res.end();
}

async function getOrHead(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, sha256: string): Promise<void> {
  const row = await getBlob(ctx, sha256);
  if (!row) return fail(res, 404, 'blob not found', 'Nem található');
  return sendFile(req, res, blobPath(ctx, sha256), row.type, { 'Cache-Control': IMMUTABLE, ...CORS });
}

async function remove(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, sha256: string): Promise<void> {
  let auth;
  try {
    auth = await verifyBlossomAuth(req.headers.authorization, 'delete', ctx.now());
  } catch (err) {
    if (err instanceof AuthError) return fail(res, 401, err.message, 'Érvénytelen vagy hiányzó törlési engedély.');
    throw err;
  }
  if (!authHashes(auth).includes(sha256)) return fail(res, 403, 'auth event has no x tag for this blob', 'Az engedély nem erre a fájlra szól.');
  if (!(await getBlob(ctx, sha256))) return fail(res, 404, 'blob not found', 'Nem található');
  if (!(await deleteBlob(ctx, sha256, auth.pubkey))) return fail(res, 403, 'not the uploader', 'Csak a feltöltő törölheti a fájlt.');
  ok(res, { deleted: true, sha256 });
}

function bound(url: URL, name: string): number | undefined {
  const v = url.searchParams.get(name);
  if (v === null || v === '') return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** Answers a Blossom request, or returns false when the request is not one. */
export async function handleBlossom(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
  const method = req.method ?? 'GET';
  const path = url.pathname;
  if (path === '/upload') {
    if (method === 'PUT') await upload(ctx, req, res);
    else if (method === 'HEAD') uploadCheck(req, res);
    else return false;
    return true;
  }
  const list = LIST_PATH.exec(path);
  if (list && method === 'GET') {
    ok(res, await listBlobs(ctx, list[1], requestOrigin(req, ctx), bound(url, 'since'), bound(url, 'until')));
    return true;
  }
  const blob = BLOB_PATH.exec(path);
  if (!blob) return false;
  if (method === 'GET' || method === 'HEAD') await getOrHead(ctx, req, res, blob[1]);
  else if (method === 'DELETE') await remove(ctx, req, res, blob[1]);
  else return false;
  return true;
}
