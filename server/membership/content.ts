/**
 * Premium media management and content tools (spec §6, §7 "Media and content"): everything
 * here reads or changes only the signer's own blobs and events.
 */
import { CommandError, type Args } from '../cache/args.ts';
import { wire, type CacheObject } from '../cache/data.ts';
import type { NostrEvent, ServerContext } from '../context.ts';
import { contactListHistory } from '../ingest/contact-history.ts';
import { blobUrl, deleteBlob } from '../upload/blobs.ts';
import { storageQuota } from './store.ts';
import { CacheKind } from '../../core/kinds.ts';

/** Spec §7: media uploads pages of 20, at most 100. */
const UPLOADS_DEFAULT = 20;
const UPLOADS_MAX = 100;
/** Events can be large (long articles, big lists); a backup pages through them instead. */
const BACKUP_DEFAULT = 200;
const BACKUP_MAX = 500;
const SHA_IN_URL = /\/([0-9a-f]{64})(?:\.[a-z0-9]{1,10})?$/i;

/** The address clients reach this server on, for blob URLs (as the upload socket names them). */
export function serverOrigin(ctx: ServerContext, localPort: number | undefined): string {
  const { host, port } = ctx.config;
  const h = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port || localPort || 80}`;
}

export async function mediaStats(ctx: ServerContext, pubkey: string): Promise<Record<string, number>> {
  const rows = await ctx.db.all<{ type: string; total: number | string }>(
    `SELECT b.type, SUM(b.size) AS total FROM blob_owners o JOIN blobs b ON b.sha256 = o.sha256 WHERE o.pubkey = ? GROUP BY b.type`,
    [pubkey],
  );
  const out = { video: 0, image: 0, other: 0, free: 0 };
  for (const r of rows) {
    const bytes = Number(r.total);
    if (r.type.startsWith('video/')) out.video += bytes;
    else if (r.type.startsWith('image/')) out.image += bytes;
    else out.other += bytes;
  }
  out.free = Math.max(0, storageQuota(ctx) - out.video - out.image - out.other);
  return out;
}

export async function mediaUploads(ctx: ServerContext, pubkey: string, args: Args, origin: string): Promise<CacheObject[]> {
  const limit = Math.max(1, args.limit(UPLOADS_DEFAULT, UPLOADS_MAX));
  const offset = args.offset();
  const since = args.optBound('since') ?? 0;
  const until = args.optBound('until') ?? Number.MAX_SAFE_INTEGER;
  const rows = await ctx.db.all<{ sha256: string; size: number | string; type: string; uploaded: number | string }>(
    `SELECT b.sha256, b.size, b.type, o.uploaded FROM blob_owners o JOIN blobs b ON b.sha256 = o.sha256
     WHERE o.pubkey = ? AND o.uploaded >= ? AND o.uploaded <= ? ORDER BY o.uploaded DESC, b.sha256 LIMIT ? OFFSET ?`,
    [pubkey, since, until, limit, offset],
  );
  const list = rows.map((r) => ({ url: blobUrl(origin, r.sha256, r.type), size: Number(r.size), mimetype: r.type, created_at: Number(r.uploaded) }));
  return [{ kind: CacheKind.MEDIA_LIST, content: JSON.stringify(list) }];
}

/** Removes the signer's ownership of the blob the URL names; the file goes with its last owner. */
export async function mediaDelete(ctx: ServerContext, pubkey: string, url: unknown): Promise<void> {
  if (typeof url !== 'string' || url.length > 2048) throw new CommandError('invalid url');
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url;
  }
  const m = SHA_IN_URL.exec(path);
  if (!m) throw new CommandError('invalid url: no sha256 in it');
  if (!(await deleteBlob(ctx, m[1].toLowerCase(), pubkey))) throw new CommandError('A fájl nem található a feltöltéseid között.');
}

/**
 * Up to 30 earlier follow lists, one per UTC day (the version with the most follows that day),
 * newest day first, so a member can restore a list a buggy client emptied. Versions are read a
 * page at a time, since each one is a whole follow list.
 */
export async function recoveryContactLists(ctx: ServerContext, pubkey: string): Promise<CacheObject[]> {
  const best = new Map<number, { ev: NostrEvent; follows: number }>();
  for (const r of await contactListHistory(ctx.db, pubkey)) {
    const created = Number(r.created_at);
    const ev: NostrEvent = { id: r.event_id, pubkey, created_at: created, kind: 3, tags: parseTags(r.tags), content: r.content, sig: r.sig };
    best.set(Math.floor(created / 86400), { ev, follows: Number(r.follows) });
  }
  return recoveryReply(best);
}

function recoveryReply(best: Map<number, { ev: NostrEvent; follows: number }>): CacheObject[] {
  const picked = [...best.entries()].sort((a, b) => b[0] - a[0]).map(([, v]) => v);
  const summary = picked.map((p) => ({ event_id: p.ev.id, created_at: p.ev.created_at, follows: p.follows }));
  return [...wire(picked.map((p) => p.ev)), { kind: CacheKind.RECOVERY_CONTACT_LISTS, content: JSON.stringify(summary) }];
}

function parseTags(text: string): string[][] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as string[][]) : [];
  } catch {
    // A corrupt tag column yields an empty list rather than failing the whole answer.
    return [];
  }
}

export async function contentStats(ctx: ServerContext, pubkey: string): Promise<CacheObject[]> {
  const rows = await ctx.db.all<{ kind: number | string; cnt: number | string }>(
    'SELECT kind, COUNT(*) AS cnt FROM events WHERE pubkey = ? GROUP BY kind ORDER BY kind',
    [pubkey],
  );
  return [{ kind: CacheKind.CONTENT_STATS, content: JSON.stringify(rows.map((r) => ({ kind: Number(r.kind), cnt: Number(r.cnt) }))) }];
}

/** One page of the signer's events, oldest first from `since`, so a backup walks forward page by page. */
export async function contentBackup(ctx: ServerContext, pubkey: string, args: Args, kinds: number[] | undefined): Promise<CacheObject[]> {
  const limit = Math.max(1, args.limit(BACKUP_DEFAULT, BACKUP_MAX));
  const offset = args.offset();
  const since = args.optBound('since') ?? 0;
  const until = args.optBound('until') ?? Number.MAX_SAFE_INTEGER;
  const kindSql = kinds && kinds.length ? `AND kind IN (${kinds.map(() => '?').join(',')})` : '';
  const rows = await ctx.db.all<{ id: string; created_at: number | string; kind: number | string; tags: string; content: string; sig: string }>(
    `SELECT id, created_at, kind, tags, content, sig FROM events WHERE pubkey = ? AND created_at >= ? AND created_at <= ? ${kindSql}
     ORDER BY created_at, id LIMIT ? OFFSET ?`,
    [pubkey, since, until, ...(kinds ?? []), limit, offset],
  );
  const events: NostrEvent[] = rows.map((r) => ({
    id: r.id,
    pubkey,
    created_at: Number(r.created_at),
    kind: Number(r.kind),
    tags: parseTags(r.tags),
    content: r.content,
    sig: r.sig,
  }));
  return wire(events);
}
