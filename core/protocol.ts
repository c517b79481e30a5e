/**
 * Wire framing of the cache socket (cache-protocol.md S §1, C.1). Pure: no sockets, no timers,
 * so the router and the tests share exactly the decoding the browser runs.
 */
import type { CacheObject } from './types.ts';

export type ServerMessage =
  | { type: 'EVENT'; subid: string; event: CacheObject }
  | { type: 'EOSE'; subid: string }
  | { type: 'NOTICE'; subid: string; message: string };

/**
 * One websocket frame to its JSON value. Binary frames are zlib (RFC 1950) deflated, which the
 * platform's DecompressionStream calls 'deflate': inflating natively keeps pako (a tenth of the
 * worker's script) off every first screen. A frame that cannot be inflated or parsed becomes an
 * empty object (spec §4), which carries no messages; the failure is logged only in devMode because
 * a hostile server could flood the console.
 */
export async function decodeFrame(data: unknown, devMode = false): Promise<unknown> {
  try {
    if (typeof data === 'string') return JSON.parse(data);
    const bytes = toBytes(data);
    if (!bytes) return {};
    return JSON.parse(await inflateText(bytes));
  } catch (err) {
    if (devMode) console.warn('[strucc] undecodable cache-server frame', err);
    return {};
  }
}

async function inflateText(bytes: Uint8Array): Promise<string> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Response(stream).text();
}

function toBytes(data: unknown): Uint8Array | undefined {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return undefined;
}

function isCacheObject(v: unknown): v is CacheObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { kind?: unknown }).kind === 'number';
}

/** A decoded frame to routable messages; EVENTS batches are replayed as individual EVENTs. */
export function toMessages(frame: unknown): ServerMessage[] {
  if (!Array.isArray(frame) || typeof frame[0] !== 'string' || typeof frame[1] !== 'string') return [];
  const [type, subid] = frame as [string, string, ...unknown[]];
  switch (type) {
    case 'EVENT':
      return isCacheObject(frame[2]) ? [{ type: 'EVENT', subid, event: frame[2] }] : [];
    case 'EVENTS': {
      const list = frame[2];
      if (!Array.isArray(list)) return [];
      const out: ServerMessage[] = [];
      for (const ev of list) if (isCacheObject(ev)) out.push({ type: 'EVENT', subid, event: ev });
      return out;
    }
    case 'EOSE':
      return [{ type: 'EOSE', subid }];
    case 'NOTICE':
      return [{ type: 'NOTICE', subid, message: typeof frame[2] === 'string' ? frame[2] : String(frame[2] ?? '') }];
    default:
      return [];
  }
}

export async function parseFrame(data: unknown, devMode = false): Promise<ServerMessage[]> {
  return toMessages(await decodeFrame(data, devMode));
}

export function encodeReq(subid: string, command: string, payload?: Record<string, unknown>): string {
  // C.1: argument-less commands omit the payload entirely.
  const cache = payload === undefined ? [command] : [command, payload];
  return JSON.stringify(['REQ', subid, { cache }]);
}

export function encodeClose(subid: string): string {
  return JSON.stringify(['CLOSE', subid]);
}

export function handshakeSubid(appId: string): string {
  return `set_protocol_${appId}`;
}

export function encodeHandshake(appId: string): string {
  return encodeReq(handshakeSubid(appId), 'set_primal_protocol', { compression: 'zlib' });
}
