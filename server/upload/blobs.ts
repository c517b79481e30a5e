/**
 * Blossom blob storage (BUD-01/02): files by sha256 under DATA_DIR/blobs, a `blobs` row per file
 * and a `blob_owners` row per uploader. Both the HTTP upload and the socket upload end here.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerContext } from '../context.ts';
import { storageQuota, usedStorage } from '../membership/store.ts';
import { extensionFor, MB } from './types.ts';

/** An upload that would take its owner past STORAGE_QUOTA_BYTES. */
export class QuotaError extends Error {
  constructor(readonly quota: number) {
    super(overQuotaMessage(quota));
  }
}

export function overQuotaMessage(quota: number): string {
  const size = quota >= 1024 * MB ? `${Math.round(quota / (1024 * MB))} GB` : `${Math.round(quota / MB)} MB`;
  return `Betelt a tárhelyed: legfeljebb ${size} tárolható. Törölj régebbi fájlokat a médiakezelőben.`;
}

/** Bytes `pubkey` may still upload before reaching the quota. */
export async function storageLeft(ctx: ServerContext, pubkey: string): Promise<number> {
  return Math.max(0, storageQuota(ctx) - (await usedStorage(ctx.db, pubkey)));
}

export interface BlobDescriptor {
  url: string;
  sha256: string;
  size: number;
  type: string;
  uploaded: number;
}

export interface BlobRow {
  sha256: string;
  size: number;
  type: string;
  created_at: number;
}

export const blobDir = (ctx: ServerContext) => join(ctx.config.dataDir, 'blobs');
export const blobPath = (ctx: ServerContext, sha256: string) => join(blobDir(ctx), sha256);

/** A fresh temp file name for an upload in progress, on the same disk as the blobs so the final move is a rename. */
export async function tempBlobPath(ctx: ServerContext): Promise<string> {
  const dir = join(blobDir(ctx), 'tmp');
  await mkdir(dir, { recursive: true });
  return join(dir, `${randomUUID()}.part`);
}

export function blobUrl(origin: string, sha256: string, type: string): string {
  return `${origin.replace(/\/+$/, '')}/${sha256}.${extensionFor(type)}`;
}

/** Moves a fully received and hashed temp file into place and records `pubkey` as an owner. */
export async function commitBlob(
  ctx: ServerContext,
  tmp: string,
  blob: { sha256: string; size: number; type: string },
  pubkey: string,
  origin: string,
): Promise<BlobDescriptor> {
  const now = ctx.now();
  // Checked again here, at the end: uploads of one user may run side by side. Bytes already owned cost nothing.
  const owned = await ctx.db.get('SELECT 1 AS x FROM blob_owners WHERE sha256 = ? AND pubkey = ?', [blob.sha256, pubkey]);
  if (!owned && blob.size > (await storageLeft(ctx, pubkey))) throw new QuotaError(storageQuota(ctx));
  const final = blobPath(ctx, blob.sha256);
  let present = false;
  try {
    present = (await stat(final)).size === blob.size;
  } catch {
    present = false;
  }
  // The same bytes uploaded twice are stored once.
  if (present) await rm(tmp, { force: true });
  else await rename(tmp, final);
  await ctx.db.run(
    'INSERT INTO blobs (sha256, size, type, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING',
    [blob.sha256, blob.size, blob.type, now],
  );
  await ctx.db.run('INSERT INTO blob_owners (sha256, pubkey, uploaded) VALUES (?, ?, ?) ON CONFLICT (sha256, pubkey) DO NOTHING', [
    blob.sha256,
    pubkey,
    now,
  ]);
  const owner = await ctx.db.get<{ uploaded: number }>('SELECT uploaded FROM blob_owners WHERE sha256 = ? AND pubkey = ?', [blob.sha256, pubkey]);
  const row = await getBlob(ctx, blob.sha256);
  const type = row?.type ?? blob.type;
  return { url: blobUrl(origin, blob.sha256, type), sha256: blob.sha256, size: Number(row?.size ?? blob.size), type, uploaded: Number(owner?.uploaded ?? now) };
}

export async function getBlob(ctx: ServerContext, sha256: string): Promise<BlobRow | undefined> {
  return ctx.db.get<BlobRow>('SELECT sha256, size, type, created_at FROM blobs WHERE sha256 = ?', [sha256]);
}

/** Removes `pubkey`'s ownership; the file goes when nobody owns it any more. False when `pubkey` never uploaded it. */
export async function deleteBlob(ctx: ServerContext, sha256: string, pubkey: string): Promise<boolean> {
  const removed = await ctx.db.run('DELETE FROM blob_owners WHERE sha256 = ? AND pubkey = ?', [sha256, pubkey]);
  if (!removed.changes) return false;
  const left = await ctx.db.get('SELECT 1 AS x FROM blob_owners WHERE sha256 = ? LIMIT 1', [sha256]);
  if (!left) {
    await ctx.db.run('DELETE FROM blobs WHERE sha256 = ?', [sha256]);
    await rm(blobPath(ctx, sha256), { force: true });
  }
  return true;
}

const MAX_LIST = 1000;

export async function listBlobs(ctx: ServerContext, pubkey: string, origin: string, since?: number, until?: number): Promise<BlobDescriptor[]> {
  const rows = await ctx.db.all<BlobRow & { uploaded: number }>(
    `SELECT b.sha256, b.size, b.type, b.created_at, o.uploaded FROM blob_owners o JOIN blobs b ON b.sha256 = o.sha256
     WHERE o.pubkey = ? AND o.uploaded >= ? AND o.uploaded <= ? ORDER BY o.uploaded DESC, b.sha256 LIMIT ${MAX_LIST}`,
    [pubkey, since ?? 0, until ?? Number.MAX_SAFE_INTEGER],
  );
  return rows.map((r) => ({ url: blobUrl(origin, r.sha256, r.type), sha256: r.sha256, size: Number(r.size), type: r.type, uploaded: Number(r.uploaded) }));
}
