/**
 * A minimal cache-protocol client for the integration tests: it records every frame, tells
 * text from binary, inflates zlib frames with pako (the web client inflates the same zlib stream with DecompressionStream), and collects one
 * request's reply up to its EOSE.
 */
import { inflate } from 'pako';
import WebSocket from 'ws';

export type Msg = [string, ...unknown[]];

export interface Frame {
  binary: boolean;
  msg: Msg;
}

export interface Reply {
  frames: Frame[];
  /** Every object of the reply, whether it came as EVENT frames or one EVENTS frame. */
  events: Record<string, unknown>[];
  notices: string[];
}

export class CacheClient {
  readonly frames: Frame[] = [];
  /** The bytes of each binary frame as they arrived (zlib), for tests of the compressed stream itself. */
  readonly zlibBytes = new WeakMap<Frame, Buffer>();
  closed = false;
  private waiters: (() => void)[] = [];

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
      // pako 3 spells pako 2's `{to: 'string'}` as `{toText: true}`; the zlib stream is the same.
      const text = isBinary ? inflate(buf, { toText: true }) : buf.toString('utf8');
      const frame: Frame = { binary: isBinary, msg: JSON.parse(text) as Msg };
      if (isBinary) this.zlibBytes.set(frame, buf);
      this.frames.push(frame);
      this.wake();
    });
    ws.on('close', () => {
      this.closed = true;
      this.wake();
    });
  }

  static async connect(url: string): Promise<CacheClient> {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new CacheClient(ws);
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Resolves when `pred` holds over the frames received so far (or the socket closes). */
  async until(pred: () => boolean, what: string, ms = 15_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!pred()) {
      if (this.closed) throw new Error(`socket closed while waiting for ${what}`);
      if (Date.now() > deadline) throw new Error(`no ${what} in time; frames: ${JSON.stringify(this.frames.slice(-5))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  send(data: string | Buffer): void {
    this.ws.send(data);
  }

  /** Sends raw text and returns the frames up to and including the EOSE for `subid`. */
  async raw(text: string, subid: string): Promise<Reply> {
    const start = this.frames.length;
    this.send(text);
    const isEose = (f: Frame) => f.msg[0] === 'EOSE' && f.msg[1] === subid;
    await this.until(() => this.frames.slice(start).some(isEose), `EOSE for ${subid}`);
    const frames = this.frames.slice(start);
    const end = frames.findIndex(isEose);
    const mine = frames.slice(0, end + 1).filter((f) => f.msg[1] === subid || (f.msg[0] === 'NOTICE' && f.msg[1] === ''));
    const events: Record<string, unknown>[] = [];
    const notices: string[] = [];
    for (const f of mine) {
      if (f.msg[0] === 'EVENT') events.push(f.msg[2] as Record<string, unknown>);
      if (f.msg[0] === 'EVENTS') events.push(...(f.msg[2] as Record<string, unknown>[]));
      if (f.msg[0] === 'NOTICE') notices.push(String(f.msg[2]));
    }
    return { frames: mine, events, notices };
  }

  req(subid: string, command: string, kwargs?: Record<string, unknown>): Promise<Reply> {
    const cache = kwargs === undefined ? [command] : [command, kwargs];
    return this.raw(JSON.stringify(['REQ', subid, { cache }]), subid);
  }

  /** The web client's handshake: after it, replies come as one zlib EVENTS frame plus a text EOSE. */
  async enableZlib(): Promise<Reply> {
    return this.req('set_protocol_test', 'set_primal_protocol', { compression: 'zlib' });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const done = new Promise<void>((resolve) => this.ws.once('close', () => resolve()));
    this.ws.close();
    await done;
  }
}

/** Parses a synthetic object's JSON-string content. */
export function content<T = Record<string, unknown>>(obj: Record<string, unknown> | undefined): T {
  if (!obj || typeof obj.content !== 'string') throw new Error(`no string content in ${JSON.stringify(obj)}`);
  return JSON.parse(obj.content) as T;
}

export const ofKind = (events: Record<string, unknown>[], kind: number) => events.filter((e) => e.kind === kind);

/** The RANGE object's content (S §2.2): the order and the ids of a feed page. */
export interface Range {
  since?: number;
  until?: number;
  order_by: string;
  elements: string[];
}

/** The RANGE (10000113) that closes a feed reply; takes the reply or its objects, fails without one. */
export function rangeOf(reply: Reply | Record<string, unknown>[]): Range {
  const ranges = ofKind(Array.isArray(reply) ? reply : reply.events, 10000113);
  if (ranges.length === 0) throw new Error('the reply has no RANGE');
  return content<Range>(ranges.at(-1));
}
