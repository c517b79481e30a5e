/**
 * Uploads assembled from signed chunks (S §3.10): each upload is a temp file written at the
 * chunks' offsets. Chunks may come in any order (the reference client uses up to five sockets
 * at once) but never overlap and never reach past file_length; completion checks every byte
 * arrived and the sha256 of the whole, then stores the file as a Blossom blob.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import type { ServerContext } from '../context.ts';
import { storageQuota } from '../membership/store.ts';
import { commitBlob, overQuotaMessage, QuotaError, storageLeft, tempBlobPath, type BlobDescriptor } from './blobs.ts';
import { isMediaMime, sniffMediaType, tooBigMessage, UNSUPPORTED_TYPE, uploadLimitBytes } from './types.ts';

/** An upload with no chunk for this long is abandoned: its temp file is removed. */
export const IDLE_TIMEOUT_MS = 5 * 60_000;
const MAX_UPLOADS_PER_USER = 10;
/** Bounds the bookkeeping of a client sending many tiny scattered chunks. */
const MAX_RANGES = 4096;
const UPLOAD_ID = /^[A-Za-z0-9_-]{1,100}$/;

export class UploadError extends Error {}

interface Upload {
  pubkey: string;
  id: string;
  fileLength: number;
  tmp: string;
  fd: FileHandle;
  /** Sorted, merged [start, end) ranges already written. */
  ranges: [number, number][];
  received: number;
  type: string | null;
  timer: NodeJS.Timeout;
  /** Chunks of one upload are written one at a time, so range checks never race. */
  lock: Promise<void>;
}

export interface ChunkContent {
  upload_id: string;
  file_length: number;
  offset: number;
  data: string;
}

function parseDataUrl(data: string): { mime: string; bytes: Buffer } {
  const m = /^data:([^;,]*)(?:;[^,]*)?;base64,/.exec(data.slice(0, 200));
  if (!m) throw new UploadError('invalid chunk: data must be a base64 data URL');
  return { mime: m[1].toLowerCase(), bytes: Buffer.from(data.slice(m[0].length), 'base64') };
}

/** Adds [start, end) to the ranges unless it overlaps one; false on overlap. */
function addRange(ranges: [number, number][], start: number, end: number): boolean {
  for (const [s, e] of ranges) if (start < e && end > s) return false;
  ranges.push([start, end]);
  ranges.sort((a, b) => a[0] - b[0]);
  for (let i = ranges.length - 1; i > 0; i--) {
    if (ranges[i - 1][1] === ranges[i][0]) {
      ranges[i - 1][1] = ranges[i][1];
      ranges.splice(i, 1);
    }
  }
  return true;
}

export class ChunkedUploads {
  private readonly uploads = new Map<string, Upload>();
  private readonly opening = new Map<string, Promise<Upload>>();

  constructor(private readonly ctx: ServerContext) {}

  private key(pubkey: string, id: string): string {
    return `${pubkey}:${id}`;
  }

  private touch(up: Upload): void {
    clearTimeout(up.timer);
    up.timer = setTimeout(() => {
      // A temp file that cannot be removed must not become an unhandled rejection (and end the process).
      this.drop(up).catch((err: unknown) => console.error('Félbehagyott feltöltés takarítása nem sikerült:', err));
    }, IDLE_TIMEOUT_MS);
    up.timer.unref();
  }

  private async drop(up: Upload): Promise<void> {
    if (this.uploads.get(this.key(up.pubkey, up.id)) !== up) return;
    this.uploads.delete(this.key(up.pubkey, up.id));
    clearTimeout(up.timer);
    await up.fd.close().catch(() => undefined);
    await rm(up.tmp, { force: true });
  }

  private async begin(pubkey: string, id: string, fileLength: number): Promise<Upload> {
    const mine = [...this.uploads.values()].filter((u) => u.pubkey === pubkey).length;
    if (mine >= MAX_UPLOADS_PER_USER) throw new UploadError('too many uploads in progress');
    const tmp = await tempBlobPath(this.ctx);
    const fd = await open(tmp, 'w');
    const up: Upload = { pubkey, id, fileLength, tmp, fd, ranges: [], received: 0, type: null, timer: setTimeout(() => undefined, 0), lock: Promise.resolve() };
    this.touch(up);
    this.uploads.set(this.key(pubkey, id), up);
    return up;
  }

  /** Parallel first chunks of one upload must share one temp file. */
  private getOrBegin(pubkey: string, id: string, fileLength: number): Promise<Upload> {
    const key = this.key(pubkey, id);
    const existing = this.uploads.get(key);
    if (existing) return Promise.resolve(existing);
    let pending = this.opening.get(key);
    if (!pending) {
      pending = this.begin(pubkey, id, fileLength).finally(() => this.opening.delete(key));
      this.opening.set(key, pending);
    }
    return pending;
  }

  private serial<T>(up: Upload, work: () => Promise<T>): Promise<T> {
    const run = up.lock.then(work);
    up.lock = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  async chunk(pubkey: string, c: Record<string, unknown>): Promise<void> {
    const id = c.upload_id;
    if (typeof id !== 'string' || !UPLOAD_ID.test(id)) throw new UploadError('invalid upload_id');
    if (c.offset === undefined && c.data === undefined) return this.cancel(pubkey, id);
    const { file_length: fileLength, offset } = c;
    const limit = await uploadLimitBytes(this.ctx, pubkey);
    if (typeof fileLength !== 'number' || !Number.isSafeInteger(fileLength) || fileLength <= 0) throw new UploadError('invalid file_length');
    if (fileLength > limit) throw new UploadError(tooBigMessage(limit));
    if (offset === 0 && fileLength > (await storageLeft(this.ctx, pubkey))) throw new UploadError(overQuotaMessage(storageQuota(this.ctx)));
    if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) throw new UploadError('invalid offset');
    if (typeof c.data !== 'string') throw new UploadError('invalid chunk: missing data');
    const { mime, bytes } = parseDataUrl(c.data);
    if (!isMediaMime(mime)) throw new UploadError(UNSUPPORTED_TYPE);
    if (!bytes.length) throw new UploadError('invalid chunk: empty data');
    if (offset + bytes.length > fileLength) throw new UploadError('chunk past file_length');
    const up = await this.getOrBegin(pubkey, id, fileLength);
    await this.serial(up, async () => {
      if (this.uploads.get(this.key(pubkey, id)) !== up) throw new UploadError('upload was cancelled');
      if (up.fileLength !== fileLength) throw new UploadError('file_length changed during the upload');
      if (offset === 0) {
        up.type = sniffMediaType(bytes);
        if (!up.type) {
          await this.drop(up);
          throw new UploadError(UNSUPPORTED_TYPE);
        }
      }
      if (!addRange(up.ranges, offset, offset + bytes.length)) throw new UploadError('chunk overlaps data already received');
      if (up.ranges.length > MAX_RANGES) {
        await this.drop(up);
        throw new UploadError('too many scattered chunks');
      }
      await up.fd.write(bytes, 0, bytes.length, offset);
      up.received += bytes.length;
      this.touch(up);
    });
  }

  async cancel(pubkey: string, id: string): Promise<void> {
    const up = this.uploads.get(this.key(pubkey, id));
    if (up) await this.drop(up);
  }

  async complete(pubkey: string, c: Record<string, unknown>, origin: string): Promise<BlobDescriptor> {
    const id = c.upload_id;
    if (typeof id !== 'string' || !UPLOAD_ID.test(id)) throw new UploadError('invalid upload_id');
    const sha = typeof c.sha256 === 'string' ? c.sha256.toLowerCase() : '';
    if (!/^[0-9a-f]{64}$/.test(sha)) throw new UploadError('invalid sha256');
    const up = this.uploads.get(this.key(pubkey, id));
    if (!up) throw new UploadError('unknown upload_id');
    return this.serial(up, async () => {
      if (c.file_length !== up.fileLength) throw new UploadError('file_length does not match the chunks');
      if (up.received !== up.fileLength || up.ranges.length !== 1) throw new UploadError('upload is incomplete');
      if (!up.type) throw new UploadError(UNSUPPORTED_TYPE);
      await up.fd.close();
      const hash = createHash('sha256');
      for await (const part of createReadStream(up.tmp)) hash.update(part as Buffer);
      const actual = hash.digest('hex');
      if (actual !== sha) {
        this.uploads.delete(this.key(pubkey, id));
        clearTimeout(up.timer);
        await rm(up.tmp, { force: true });
        throw new UploadError('sha256 mismatch: the assembled file differs from what was sent');
      }
      this.uploads.delete(this.key(pubkey, id));
      clearTimeout(up.timer);
      try {
        return await commitBlob(this.ctx, up.tmp, { sha256: actual, size: up.fileLength, type: up.type }, pubkey, origin);
      } catch (err) {
        throw err instanceof QuotaError ? new UploadError(err.message) : err;
      } finally {
        await rm(up.tmp, { force: true });
      }
    });
  }

  /** Drops every upload in progress (server shutdown). */
  async closeAll(): Promise<void> {
    for (const up of [...this.uploads.values()]) await this.drop(up);
  }

  get size(): number {
    return this.uploads.size;
  }
}
