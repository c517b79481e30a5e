/**
 * Media upload to the server's Blossom endpoint (PUT /upload) with a signed kind-24242
 * authorisation, progress and cancel. Only images and videos; 100 MB, or 1 GB for premium
 * members (spec §5, §9).
 */
import { config } from '../worker-client';
import { accountSnapshot, fullApi } from './account';

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
  const promise = (async () => {
    if (!isMediaFile(file)) throw new UploadError('unsupported');
    if (file.size > uploadLimit()) throw new UploadError('too-big');
    const hash = await sha256Hex(file);
    const now = Math.floor(Date.now() / 1000);
    let auth;
    try {
      auth = await (await fullApi()).signEvent({
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
      xhr?.abort();
    },
  };
}
