/**
 * The spec's upload flow (§4 Media upload, cache-protocol upload_chunk/upload_complete): the file
 * goes over the server's upload socket in signed kind-10000135 chunks, can be cancelled, and is
 * confirmed with its total length and sha256; the server answers with the blob's URL (10000121).
 * The socket lives in the tab that holds the File, so megabytes never cross to the worker.
 */
import type { NostrEvent, UnsignedEvent } from '../../core/types';
import { encodeReq, parseFrame } from '../../core/protocol';
import { UploadProgressEstimate, type UploadTiming } from './uploadTime';
import { CacheKind } from '../../core/kinds';

/** The reference sends ¼–1 MB; half a megabyte keeps a signed chunk well under the server's frame cap. */
export const CHUNK_BYTES = 512 * 1024;
const OPEN_TIMEOUT_MS = 5000;
const REPLY_TIMEOUT_MS = 30_000;

/**
 * Why an upload stopped. `unreachable`: the socket never opened. `accepted` is false when the
 * server took no chunk at all, so another upload path may still be tried.
 */
export class ChunkedUploadError extends Error {
  accepted = false;

  constructor(
    readonly code: 'unreachable' | 'refused' | 'lost' | 'cancelled',
    readonly reason?: string,
  ) {
    super(reason ?? code);
  }
}

export interface ChunkedUploadOptions {
  /** ws(s)://host/upload */
  url: string;
  pubkey: string;
  sign: (template: UnsignedEvent) => Promise<NostrEvent>;
  sha256: (file: File) => Promise<string>;
  onProgress?: (fraction: number) => void;
  /** The expected times (the account's upload time settings) the progress moves by between answers. */
  timing?: UploadTiming;
  /** Called with the times this upload took, once it is complete. */
  onMeasured?: (measured: UploadTiming) => void;
  signal?: AbortSignal;
  chunkBytes?: number;
}

const DEFAULT_TIMING: UploadTiming = { chunkMs: 250, finalMs: 100 };
const PROGRESS_TICK_MS = 100;

/** The upload socket beside a cache socket URL: same host, path /upload. */
export function uploadSocketUrl(cacheServer: string): string | null {
  try {
    const url = new URL(cacheServer);
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') return null;
    url.pathname = '/upload';
    url.search = '';
    return url.toString();
  } catch {
    return null;
  }
}

function readDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(blob);
  });
}

type ReplyObjects = { kind: number; content?: unknown }[];

/** One socket, one request at a time: resolves with the reply's objects, rejects on a NOTICE or a drop. */
class UploadSocket {
  private waiting: { subid: string; objects: ReplyObjects; resolve: (o: ReplyObjects) => void; reject: (e: Error) => void } | null = null;
  private counter = 0;
  private abandoned: Error | null = null;

  private constructor(private readonly ws: WebSocket) {
    // Binary frames inflate asynchronously: frames and the close are handled in arrival order, so a
    // reply whose last frame is still inflating is not taken for a drop.
    let decoded: Promise<void> = Promise.resolve();
    ws.onmessage = (e) => {
      const data: unknown = e.data;
      decoded = decoded.then(async () => {
        const messages = await parseFrame(data);
        const w = this.waiting;
        if (!w) return;
        for (const msg of messages) {
          if (msg.subid !== w.subid && !(msg.type === 'NOTICE' && msg.subid === '')) continue;
          if (msg.type === 'EVENT') w.objects.push(msg.event as ReplyObjects[number]);
          else if (msg.type === 'NOTICE') this.settle((x) => x.reject(new ChunkedUploadError('refused', msg.message)));
          else this.settle((x) => x.resolve(x.objects));
        }
      });
    };
    ws.onclose = () => {
      decoded = decoded.then(() => this.settle((x) => x.reject(new ChunkedUploadError('lost'))));
    };
  }

  static open(url: string, signal?: AbortSignal): Promise<UploadSocket> {
    return new Promise((resolve, reject) => {
      let ws: WebSocket;
      try {
        ws = new WebSocket(url);
      } catch {
        reject(new ChunkedUploadError('unreachable'));
        return;
      }
      ws.binaryType = 'arraybuffer';
      const onAbort = () => fail('cancelled');
      const fail = (code: 'unreachable' | 'cancelled') => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        ws.onopen = ws.onerror = ws.onclose = null;
        ws.close();
        reject(new ChunkedUploadError(code));
      };
      const timer = setTimeout(() => fail('unreachable'), OPEN_TIMEOUT_MS);
      signal?.addEventListener('abort', onAbort, { once: true });
      ws.onerror = ws.onclose = () => fail('unreachable');
      ws.onopen = () => {
        clearTimeout(timer);
        // From here a cancel is the upload's to handle: it still has to tell the server.
        signal?.removeEventListener('abort', onAbort);
        ws.onerror = null;
        resolve(new UploadSocket(ws));
      };
    });
  }

  private settle(run: (w: NonNullable<UploadSocket['waiting']>) => void): void {
    const w = this.waiting;
    this.waiting = null;
    if (w) run(w);
  }

  request(command: string, event: NostrEvent): Promise<ReplyObjects> {
    if (this.abandoned) return Promise.reject(this.abandoned);
    if (this.ws.readyState !== WebSocket.OPEN) return Promise.reject(new ChunkedUploadError('lost'));
    const subid = `upload_${++this.counter}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.settle((x) => x.reject(new ChunkedUploadError('lost'))), REPLY_TIMEOUT_MS);
      const done = <T>(f: (v: T) => void) => (v: T) => {
        clearTimeout(timer);
        f(v);
      };
      this.waiting = { subid, objects: [], resolve: done(resolve), reject: done(reject) };
      this.ws.send(encodeReq(subid, command, { event_from_user: event }));
    });
  }

  /** Ends the request in flight, and refuses later ones, at once (a cancel should not wait for a megabyte to be answered). */
  abandon(err: Error): void {
    this.abandoned = err;
    this.settle((x) => x.reject(err));
  }

  /** Sends without waiting for the answer (the cancel on the way out). */
  notify(command: string, event: NostrEvent): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(encodeReq(`upload_${++this.counter}`, command, { event_from_user: event }));
  }

  close(): void {
    this.ws.onclose = null;
    this.ws.close();
  }
}

/** Sends the file in chunks and returns the URL the server stored it at. */
export async function uploadInChunks(file: File, options: ChunkedUploadOptions): Promise<string> {
  const { pubkey, sign, signal } = options;
  const size = options.chunkBytes ?? CHUNK_BYTES;
  const uploadId = crypto.randomUUID();
  const signed = (content: object) =>
    sign({ kind: CacheKind.UPLOAD_CHUNK, created_at: Math.floor(Date.now() / 1000), tags: [['p', pubkey]], content: JSON.stringify(content) });
  const cancelled = () => signal?.aborted === true;

  const socket = await UploadSocket.open(options.url, signal);
  const onAbort = () => socket.abandon(new ChunkedUploadError('cancelled'));
  signal?.addEventListener('abort', onAbort, { once: true });
  let accepted = false;
  const estimate = new UploadProgressEstimate(Math.max(1, Math.ceil(file.size / size)), options.timing ?? DEFAULT_TIMING);
  const report = () => options.onProgress?.(estimate.fraction());
  const ticker = options.onProgress ? setInterval(report, PROGRESS_TICK_MS) : undefined;
  try {
    for (let offset = 0; offset < file.size; offset += size) {
      if (cancelled()) throw new ChunkedUploadError('cancelled');
      const data = await readDataUrl(file.slice(offset, offset + size, file.type));
      await socket.request('upload_chunk', await signed({ file_length: file.size, upload_id: uploadId, offset, data }));
      accepted = true;
      estimate.chunkDone();
      report();
    }
    if (cancelled()) throw new ChunkedUploadError('cancelled');
    const sha256 = await options.sha256(file);
    const reply = await socket.request('upload_complete', await signed({ upload_id: uploadId, file_length: file.size, sha256 }));
    const uploaded = reply.find((o) => o.kind === CacheKind.UPLOADED && typeof o.content === 'string');
    if (!uploaded) throw new ChunkedUploadError('refused');
    options.onMeasured?.(estimate.finish());
    options.onProgress?.(1);
    return uploaded.content as string;
  } catch (err) {
    if (err instanceof ChunkedUploadError) err.accepted = accepted;
    // Cancel is itself an upload_chunk whose content names only the upload (spec); the server drops its part file.
    if (!(err instanceof ChunkedUploadError && err.code === 'lost')) {
      await signed({ upload_id: uploadId })
        .then((e) => socket.notify('upload_chunk', e))
        .catch(() => undefined);
    }
    throw err;
  } finally {
    clearInterval(ticker);
    signal?.removeEventListener('abort', onAbort);
    socket.close();
  }
}
