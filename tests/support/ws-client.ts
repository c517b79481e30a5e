/**
 * A raw websocket client for the limit and fuzz tests: it sends anything (text or binary, valid
 * or not), records every frame it gets (JSON-parsed, zlib frames inflated) and waits for
 * conditions over them.
 */
import { inflateSync } from 'node:zlib';
import WebSocket from 'ws';

export type Received = unknown[];

export class RawClient {
  readonly frames: Received[] = [];
  closed = false;
  closeCode = 0;
  pings = 0;
  private waiters: (() => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
      let text: string;
      try {
        text = isBinary ? inflateSync(buf).toString('utf8') : buf.toString('utf8');
        const msg: unknown = JSON.parse(text);
        this.frames.push(Array.isArray(msg) ? msg : ['?', msg]);
      } catch {
        this.frames.push(['?unparsed']);
      }
      this.wake();
    });
    ws.on('ping', () => {
      this.pings++;
      this.wake();
    });
    ws.on('close', (code) => {
      this.closed = true;
      this.closeCode = code;
      this.wake();
    });
    ws.on('error', () => undefined);
  }

  static open(url: string, options: WebSocket.ClientOptions = {}): Promise<RawClient> {
    const ws = new WebSocket(url, { maxPayload: 64 * 1024 * 1024, ...options });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new RawClient(ws)));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    });
  }

  send(data: string | Buffer, binary = typeof data !== 'string'): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(data, { binary });
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Resolves when `pred` holds (checked on every frame, ping and the close); rejects after `ms`. */
  async until(pred: () => boolean, what: string, ms = 15_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!pred()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`not in time: ${what} (${this.frames.length} frames, closed=${this.closed})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Frames of one subscription id. */
  of(subid: string): Received[] {
    return this.frames.filter((f) => f[1] === subid);
  }

  close(): void {
    this.ws.terminate();
  }
}
