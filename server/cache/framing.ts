/**
 * Wire format of the cache socket (S §1): parsing client frames and writing replies in
 * plain or zlib mode.
 */
import { deflate, deflateSync } from 'node:zlib';
import { promisify } from 'node:util';
import type WebSocket from 'ws';
import type { CacheObject } from './data.ts';
import { overBuffered } from '../sockets.ts';

export const MAX_FRAME_BYTES = 512 * 1024;
/**
 * Replies below this are deflated on the main thread. A feed or search page (80-110 KB) takes
 * ~0.25 ms at level 3; sent to the thread pool it waited for another turn of the busy event loop,
 * and on a 2-core machine the pool thread took the main thread's core meanwhile: under `npm run load`
 * deflating them here gave the feeds and search the small commands' p99 (90 against 330 ms in a warm
 * round) and 0.70 instead of 0.81 ms of server CPU a request (bench/RESULTS.md, s12-load). Only a
 * reply of several ms of deflate still goes to the pool.
 */
const OFF_THREAD_BYTES = 512 * 1024;
const deflateAsync = promisify(deflate);
/**
 * zlib level 3 rather than the default 6: on an 83 KB feed page 0.44 ms instead of 1.33 ms for an
 * output 5 % larger (17.9 against 17.0 KB), and deflate was a large share of each reply's CPU under
 * `npm run load` (bench/RESULTS.md, 2026-11-26). Clients inflate any level.
 */
const ZLIB = { level: 3 };
/**
 * An off-thread deflate's output buffer, big enough for the whole compressed reply (JSON deflates to
 * ~20 % at level 3): with zlib's 16 KB default an 80 KB feed page (17 KB compressed) took two
 * thread-pool round trips, and under load each round trip waits for a turn of the busy event loop.
 * The compressed bytes do not depend on it.
 */
const offThreadOptions = (bytes: number) => ({ ...ZLIB, chunkSize: Math.max(16 * 1024, bytes >> 1) });
const MAX_SUBID_LENGTH = 256;

export type Filter = Record<string, unknown>;

export type ClientMessage =
  | { type: 'req'; subid: string; filters: Filter[] }
  | { type: 'close'; subid: string }
  /** Refused input; `subid` is set when the frame named one, so the reply can end with EOSE. */
  | { type: 'bad'; subid?: string; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export function parseClientMessage(text: string): ClientMessage {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return { type: 'bad', reason: 'invalid JSON' };
  }
  if (!Array.isArray(msg) || typeof msg[0] !== 'string') return { type: 'bad', reason: 'invalid message: expected a JSON array' };
  const subidOk = typeof msg[1] === 'string' && msg[1].length <= MAX_SUBID_LENGTH;
  const subid = subidOk ? (msg[1] as string) : undefined;
  switch (msg[0]) {
    case 'REQ': {
      if (!subid) return { type: 'bad', reason: 'invalid subscription id' };
      if (msg.length < 3) return { type: 'bad', subid, reason: 'invalid request: missing filter' };
      const filters = msg.slice(2);
      if (!filters.every(isObject)) return { type: 'bad', subid, reason: 'invalid request: filters must be objects' };
      return { type: 'req', subid, filters };
    }
    case 'CLOSE':
      // Any third element (clients repeat their cache request there) is ignored.
      if (!subid) return { type: 'bad', reason: 'invalid subscription id' };
      return { type: 'close', subid };
    default:
      return { type: 'bad', subid, reason: 'unknown api request' };
  }
}

/** A validated `{"cache": [command, kwargs]}` filter, or the reason it is not one. */
export function parseCacheFilter(filter: Filter): { command: string; kwargs: Record<string, unknown> } | { error: string } {
  const cache = filter.cache;
  if (!Array.isArray(cache) || typeof cache[0] !== 'string') {
    return { error: 'invalid request: cache must be [command, {kwargs}]' };
  }
  const kwargs = cache[1] ?? {};
  if (!isObject(kwargs)) return { error: 'invalid request: kwargs must be an object' };
  return { command: cache[0], kwargs };
}

/** Writes frames to one socket. Callers serialise whole replies, so frames never interleave. */
/**
 * The subid of a REQ (or COUNT) frame that will not be parsed (too big, or dropped), read from its
 * head only, so the refusal can still end that request.
 */
export function headSubid(bytes: Buffer): string | undefined {
  return /^\s*\[\s*"(?:REQ|COUNT)"\s*,\s*"([^"\\]{1,256})"/.exec(bytes.subarray(0, 320).toString('utf8'))?.[1];
}

/** NOTICE, then EOSE when the frame named its REQ: the answer to a frame that is refused unread. */
export function refuseUnread(writer: Writer, bytes: Buffer, reason: string): void {
  const subid = headSubid(bytes);
  writer.notice(subid, reason);
  if (subid !== undefined) writer.eose(subid);
}

/**
 * UTF-8 JSON of frozen reply objects (stored events and profiles from hot-cache.ts, shared by many
 * replies): a hot event is serialised and encoded once instead of once per reply. Under
 * `npm run load` JSON.stringify plus Buffer.from of whole replies were ~14 % of the main thread.
 * Only frozen objects are kept: nothing can change them after their text is taken.
 */
const frozenJson = new WeakMap<object, Buffer>();

function cachedJson(obj: CacheObject): Buffer | undefined {
  if (!Object.isFrozen(obj)) return undefined;
  let bytes = frozenJson.get(obj);
  if (!bytes) frozenJson.set(obj, (bytes = Buffer.from(JSON.stringify(obj))));
  return bytes;
}

/**
 * The bytes of JSON.stringify(['EVENTS', subid, objects]), reusing the encoded text of frozen objects.
 * The pieces are measured first and written once into the frame, not encoded apart and then copied
 * together (a feed page is 80 KB).
 */
export function eventsFrame(subid: string, objects: CacheObject[]): Buffer {
  const parts: (string | Buffer)[] = [];
  let size = 0;
  let text = `["EVENTS",${JSON.stringify(subid)},[`;
  const flush = () => {
    parts.push(text);
    size += Buffer.byteLength(text);
    text = '';
  };
  for (let i = 0; i < objects.length; i++) {
    if (i) text += ',';
    const bytes = cachedJson(objects[i]);
    if (!bytes) {
      text += JSON.stringify(objects[i]);
      continue;
    }
    if (text) flush();
    parts.push(bytes);
    size += bytes.length;
  }
  text += ']]';
  flush();
  const frame = Buffer.allocUnsafe(size);
  let at = 0;
  for (const part of parts) at += typeof part === 'string' ? frame.write(part, at) : part.copy(frame, at);
  return frame;
}

/** The binary frame of a zlib-mode reply, compressed on the calling thread. */
export function zlibFrame(subid: string, objects: CacheObject[]): Buffer {
  return deflateSync(eventsFrame(subid, objects), ZLIB);
}

export class Writer {
  compress = false;

  constructor(private readonly ws: WebSocket) {}

  private send(data: string | Buffer, binary = false): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    try {
      this.ws.send(data, { binary });
    } catch {
      // The peer went away between the check and the write; nothing left to tell it.
    }
    overBuffered(this.ws);
  }

  /**
   * Writes the frames `write` sends in one socket write: a zlib reply's EVENTS frame and its EOSE were
   * two writev calls, each a system call that also runs the loopback peer's receive path (~6 % of
   * the main thread under `npm run load`). The bytes on the wire are the same.
   */
  private together(write: () => void): void {
    const socket = (this.ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
    socket?.cork();
    try {
      write();
    } finally {
      socket?.uncork();
    }
  }

  /** One command's reply: the objects, then EOSE (S §1.2, §1.3). */
  reply(subid: string, objects: CacheObject[]): void {
    if (this.compress) return this.zlibReply(subid, zlibFrame(subid, objects));
    // Not corked: a long plain reply's frames leave as they are made, as ever (the output cap counts what waits).
    for (const obj of objects) this.send(JSON.stringify(['EVENT', subid, obj]));
    this.eose(subid);
  }

  private zlibReply(subid: string, frame: Buffer): void {
    this.together(() => {
      this.send(frame, true);
      this.eose(subid);
    });
  }

  /**
   * reply(), with a very large zlib frame (OFF_THREAD_BYTES) compressed on libuv's thread pool, where
   * its several ms of deflate do not hold up every other socket's command. The caller awaits it before
   * writing anything else on this socket, so frames keep their order.
   */
  async replyOffThread(subid: string, objects: CacheObject[]): Promise<void> {
    if (!this.compress) return this.reply(subid, objects);
    const json = eventsFrame(subid, objects);
    this.zlibReply(subid, json.length < OFF_THREAD_BYTES ? deflateSync(json, ZLIB) : await deflateAsync(json, offThreadOptions(json.length)));
  }

  eose(subid: string): void {
    this.send(JSON.stringify(['EOSE', subid]));
  }

  /** NOTICEs stay text in every mode; an unnamed one carries "" where the subid would go. */
  notice(subid: string | undefined, reason: string): void {
    this.send(JSON.stringify(['NOTICE', subid ?? '', reason]));
  }

  /** Live pushes stay text in every mode. */
  push(subid: string, obj: CacheObject): void {
    this.send(JSON.stringify(['EVENT', subid, obj]));
  }
}
