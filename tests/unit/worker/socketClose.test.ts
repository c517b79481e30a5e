// A socket stopped while its handshake is still pending must close quietly: Node's ws reports the abort as an
// 'error' event, and an 'error' with no listener is thrown as an uncaught exception (it failed a CI run).
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import WebSocket from 'ws';
import { relaySocketActor, type WebSocketLike } from '../../../worker/relays.ts';
import { webSocketActor } from '../../../worker/socketActor.ts';

let server: Server | undefined;
const sockets: Socket[] = [];

/** A TCP server that accepts and never answers the upgrade, so every client stays CONNECTING. */
async function silentServer(): Promise<string> {
  server = createServer((s) => { sockets.push(s); s.on('error', () => undefined); });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `ws://127.0.0.1:${address.port}`;
}

function uncaughtDuring(run: () => Promise<void>): Promise<unknown[]> {
  const caught: unknown[] = [];
  const onError = (err: unknown) => caught.push(err);
  process.on('uncaughtException', onError);
  return run().then(() => caught, () => caught).finally(() => process.off('uncaughtException', onError));
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('stopping a socket that is still connecting', () => {
  it('relay socket: no uncaught error', async () => {
    const url = await silentServer();
    let created: WebSocket | undefined;
    const factory = (u: string) => (created = new WebSocket(u)) as unknown as WebSocketLike;
    const errors = await uncaughtDuring(async () => {
      const actor = createActor(relaySocketActor(factory), { input: { url } } as never);
      actor.start();
      actor.stop();
      await settle();
    });
    expect(errors).toEqual([]);
    expect(created?.readyState).toBe(WebSocket.CLOSED);
  });

  it('cache socket: no uncaught error', async () => {
    const url = await silentServer();
    const original = globalThis.WebSocket;
    let created: WebSocket | undefined;
    globalThis.WebSocket = class extends WebSocket {
      constructor(u: string) { super(u); created = this; }
    } as unknown as typeof globalThis.WebSocket;
    try {
      const errors = await uncaughtDuring(async () => {
        const actor = createActor(webSocketActor, { input: { url, devMode: false } } as never);
        actor.start();
        actor.stop();
        await settle();
      });
      expect(errors).toEqual([]);
      expect(created?.readyState).toBe(WebSocket.CLOSED);
    } finally {
      globalThis.WebSocket = original;
    }
  });
});
