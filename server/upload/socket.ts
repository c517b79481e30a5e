/**
 * The upload socket (path /upload, S §3.10): `upload_chunk`, `upload_complete` and
 * `upload_cancel`, each with a signed kind-10000135 `event_from_user`, framed like the cache
 * socket (REQ in; EVENT, EOSE and NOTICE out). The user is the signer of each event.
 */
import type WebSocket from 'ws';
import { verifyUserEvent } from '../cache/signed.ts';
import { parseCacheFilter, parseClientMessage, Writer } from '../cache/framing.ts';
import type { ServerContext } from '../context.ts';
import { ChunkedUploads, UploadError } from './chunks.ts';
import { CacheKind } from '../../core/kinds.ts';

/** A 1 MB chunk is about 1.4 MB of base64 inside the signed event. */
const MAX_UPLOAD_EVENT_CHARS = 2 * 1024 * 1024;
const MAX_PENDING = 16;

const managers = new WeakMap<ServerContext, ChunkedUploads>();

export function uploadsOf(ctx: ServerContext): ChunkedUploads {
  let m = managers.get(ctx);
  if (!m) managers.set(ctx, (m = new ChunkedUploads(ctx)));
  return m;
}

/** Removes every unfinished upload's temp file; called when the server stops. */
export async function closeUploads(ctx: ServerContext): Promise<void> {
  await managers.get(ctx)?.closeAll();
}

/** Blob URLs name the address clients reach this socket on. */
function origin(ctx: ServerContext, localPort: number | undefined): string {
  const { host, port } = ctx.config;
  const h = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port || localPort || 80}`;
}

function toText(data: WebSocket.RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

async function run(ctx: ServerContext, command: string, kwargs: Record<string, unknown>, localPort: number | undefined) {
  if (command !== 'upload_chunk' && command !== 'upload_complete' && command !== 'upload_cancel') throw new UploadError('unknown api request');
  const ev = await verifyUserEvent(kwargs.event_from_user, { kinds: [CacheKind.UPLOAD_CHUNK], now: ctx.now(), maxChars: MAX_UPLOAD_EVENT_CHARS });
  if (typeof ev === 'string') throw new UploadError(ev);
  let content: unknown;
  try {
    content = JSON.parse(ev.content);
  } catch {
    throw new UploadError('invalid event_from_user: content is not JSON');
  }
  if (!content || typeof content !== 'object' || Array.isArray(content)) throw new UploadError('invalid event_from_user: content must be an object');
  const c = content as Record<string, unknown>;
  const uploads = uploadsOf(ctx);
  if (command === 'upload_cancel') {
    if (typeof c.upload_id === 'string') await uploads.cancel(ev.pubkey, c.upload_id);
    return [];
  }
  if (command === 'upload_chunk') {
    await uploads.chunk(ev.pubkey, c);
    return [];
  }
  const blob = await uploads.complete(ev.pubkey, c, origin(ctx, localPort));
  return [{ kind: CacheKind.UPLOADED, content: blob.url }];
}

export function handleUploadConnection(ws: WebSocket, ctx: ServerContext): void {
  const writer = new Writer(ws);
  const localPort = (ws as unknown as { _socket?: { localPort?: number } })._socket?.localPort;
  let queue: Promise<void> = Promise.resolve();
  ws.on('error', () => {
    // 'close' follows; an upload left behind is removed by its idle timer.
  });
  let pending = 0;
  ws.on('message', (data) => {
    // Each frame may be megabytes; a client that does not wait for replies must not queue without end.
    if (pending >= MAX_PENDING) {
      writer.notice(undefined, 'too many pending chunks');
      ws.close(1008, 'too many pending chunks');
      return;
    }
    pending++;
    const text = toText(data);
    queue = queue
      .then(async () => {
        const msg = parseClientMessage(text);
        if (msg.type === 'bad') {
          writer.notice(msg.subid, msg.reason);
          if (msg.subid !== undefined) writer.eose(msg.subid);
          return;
        }
        if (msg.type === 'close') return;
        try {
          const out = [];
          for (const filter of msg.filters) {
            const parsed = parseCacheFilter(filter);
            if ('error' in parsed) throw new UploadError(parsed.error);
            out.push(...(await run(ctx, parsed.command, parsed.kwargs, localPort)));
          }
          writer.reply(msg.subid, out);
        } catch (err) {
          if (!(err instanceof UploadError) && ctx.config.verbose) console.error('Feltöltési hiba:', err);
          writer.notice(msg.subid, err instanceof UploadError ? err.message : 'upload failed');
          writer.eose(msg.subid);
        }
      })
      .catch(() => undefined)
      .finally(() => {
        pending--;
      });
  });
}
