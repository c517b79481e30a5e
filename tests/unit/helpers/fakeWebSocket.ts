/** A WebSocketLike for worker/relays.ts: tests open, close and answer each relay socket by hand. */
import type { WebSocketFactory, WebSocketLike } from '../../../worker/relays.ts';

export class FakeWebSocket implements WebSocketLike {
  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  readonly sent: unknown[][] = [];
  /** Called with every frame the client sends: the test relay. */
  onFrame?: (frame: unknown[]) => void;

  constructor(readonly url: string) {}

  send(data: string): void {
    const frame = JSON.parse(data) as unknown[];
    this.sent.push(frame);
    this.onFrame?.(frame);
  }

  close(): void {
    this.readyState = 3;
  }

  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  drop(): void {
    this.readyState = 3;
    this.onclose?.({});
  }

  reply(...frame: unknown[]): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

export function fakeWebSockets(): { factory: WebSocketFactory; sockets: FakeWebSocket[]; last(url: string): FakeWebSocket | undefined } {
  const sockets: FakeWebSocket[] = [];
  return {
    sockets,
    factory: (url) => {
      const ws = new FakeWebSocket(url);
      sockets.push(ws);
      return ws;
    },
    last: (url) => sockets.filter((s) => s.url === url).at(-1),
  };
}
