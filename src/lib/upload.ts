/**
 * Media upload: the spec's signed chunks over the server's upload socket or, where a server has
 * none, its Blossom endpoint (PUT /upload) with a signed kind-24242 authorisation; progress and
 * cancel either way. Only images and videos; 100 MB, or 1 GB for premium members (spec §5, §9).
 */
import { config, connect } from '../worker-client';
import { accountAction, accountSnapshot } from './account';
import { ChunkedUploadError, uploadInChunks, uploadSocketUrl } from './chunkedUpload';
import { learnUploadTime, timingFor } from './uploadTime';

export const REGULAR_LIMIT = 100 * 1024 * 1024;
export const PREMIUM_LIMIT = 1024 * 1024 * 1024;

export type UploadErrorCode = 'unsupported' | 'too-big' | 'not-signed' | 'failed' | 'cancelled';

export class UploadError extends Error {
  constructor(
    readonly code: UploadErrorCode,
    /** The server's Hungarian reason, when it gave one. */
    readonly reason?: string,
  ) {
    super(code);
  }
}

export interface UploadedBlob {
  url: string;
  sha256: string;
  size: number;
  type: string;
}

export interface UploadHandle {
  promise: Promise<UploadedBlob>;
  cancel(): void;
}

export function isMediaFile(file: File): boolean {
  return file.type.startsWith('image/') || file.type.startsWith('video/');
}

export function uploadLimit(): number {
  const tier = accountSnapshot()?.account?.membershipTier;
  return tier === 'premium' || tier === 'premium-legend' ? PREMIUM_LIMIT : REGULAR_LIMIT;
}

async function sha256Hex(file: File): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

function base64Utf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** Uploads one file; onProgress gets 0..1. Rejects with an UploadError. */
export function uploadFile(file: File, onProgress: (fraction: number) => void = () => undefined): UploadHandle {
  let xhr: XMLHttpRequest | null = null;
  let cancelled = false;
  const abort = new AbortController();
  const promise = (async () => {
    if (!isMediaFile(file)) throw new UploadError('unsupported');
    if (file.size > uploadLimit()) throw new UploadError('too-big');
    const chunked = await viaUploadSocket(file, onProgress, abort.signal);
    if (chunked) return chunked;
    if (cancelled) throw new UploadError('cancelled');
    // The server has no upload socket (another implementation of the protocol): Blossom's PUT /upload.
    const hash = await sha256Hex(file);
    const now = Math.floor(Date.now() / 1000);
    let auth;
    try {
      auth = await (await connect()).signEvent({
        kind: 24242,
        created_at: now,
        tags: [
          ['t', 'upload'],
          ['x', hash],
          ['expiration', String(now + 600)],
        ],
        content: `Feltöltés: ${file.name}`,
      });
    } catch {
      throw new UploadError('not-signed');
    }
    if (cancelled) throw new UploadError('cancelled');
    return new Promise<UploadedBlob>((resolve, reject) => {
      const request = new XMLHttpRequest();
      xhr = request;
      request.open('PUT', `${config.mediaServer}/upload`);
      request.setRequestHeader('Authorization', `Nostr ${base64Utf8(JSON.stringify(auth))}`);
      request.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
      request.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress(e.loaded / e.total);
      };
      request.onload = () => {
        if (request.status === 200) {
          try {
            onProgress(1);
            resolve(JSON.parse(request.responseText) as UploadedBlob);
          } catch {
            reject(new UploadError('failed'));
          }
          return;
        }
        let reason: string | undefined;
        try {
          reason = (JSON.parse(request.responseText) as { error?: string }).error;
        } catch {
          // No JSON body: the code alone says what happened.
        }
        if (request.status === 413) reject(new UploadError('too-big', reason));
        else if (request.status === 415) reject(new UploadError('unsupported', reason));
        else reject(new UploadError('failed', reason));
      };
      request.onerror = () => reject(new UploadError('failed'));
      request.onabort = () => reject(new UploadError('cancelled'));
      request.send(file);
    });
  })();
  return {
    promise,
    cancel() {
      cancelled = true;
      abort.abort();
      xhr?.abort();
    },
  };
}

/** The spec's chunked flow; null when the server has no upload socket, so Blossom is tried. */
async function viaUploadSocket(file: File, onProgress: (fraction: number) => void, signal: AbortSignal): Promise<UploadedBlob | null> {
  const url = uploadSocketUrl(config.cacheServer);
  const pubkey = accountSnapshot()?.login.pubkey;
  if (!url || !pubkey) return null;
  const api = await connect();
  let hash = '';
  try {
    const blobUrl = await uploadInChunks(file, {
      url,
      pubkey,
      signal,
      onProgress,
      timing: timingFor(accountSnapshot()?.account?.uploadTime, file.size),
      // The next upload of this size class expects what this one took (spec: the record's uploadTime).
      onMeasured: (measured) => {
        const uploadTime = learnUploadTime(accountSnapshot()?.account?.uploadTime, file.size, measured);
        void accountAction({ type: 'setLocal', patch: { uploadTime } }).catch(() => undefined);
      },
      sign: (template) => api.signEvent(template).catch(() => Promise.reject(new UploadError('not-signed'))),
      sha256: async (f) => (hash = await sha256Hex(f)),
    });
    return { url: blobUrl, sha256: hash, size: file.size, type: file.type };
  } catch (err) {
    if (err instanceof UploadError) throw err;
    if (!(err instanceof ChunkedUploadError)) throw new UploadError('failed');
    if (err.code === 'cancelled') throw new UploadError('cancelled');
    const code = reasonCode(err.reason);
    // No socket, or one that takes no chunk for a reason other than the file itself: not an upload socket of ours.
    if (err.code === 'unreachable' || (!err.accepted && code === 'failed')) return null;
    throw new UploadError(code, err.reason);
  }
}

/** The server's reasons are Hungarian sentences; the two the form words itself are recognised by their start. */
function reasonCode(reason: string | undefined): UploadErrorCode {
  if (!reason) return 'failed';
  if (/^Nem támogatott fájltípus|unsupported/i.test(reason)) return 'unsupported';
  if (/^A fájl túl nagy|too big/i.test(reason)) return 'too-big';
  return 'failed';
}
