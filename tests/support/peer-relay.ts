/**
 * Test relays on 127.0.0.1, port 0: a relay written by others (@nostr-relay/core with its zod
 * validator and SQLite repository) around a `ws` server, a "slow" relay that accepts everything and
 * never confirms, and a dead address (a port that was just closed).
 */
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { WebSocket as NodeWebSocket, WebSocketServer, type WebSocket } from 'ws';
import type { Client } from '@nostr-relay/common';
import { NostrRelay } from '@nostr-relay/core';
import { EventRepositorySqlite } from '@nostr-relay/event-repository-sqlite';
import { Validator } from '@nostr-relay/validator';
import type { WebSocketFactory, WebSocketLike } from '../../worker/relays.ts';

export interface TestRelay {
  url: string;
  /** Frames received, parsed, in order. */
  received: unknown[][];
  close(): Promise<void>;
}

async function listen(wss: WebSocketServer): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve);
    wss.once('error', reject);
  });
  return `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
}

async function closeServer(wss: WebSocketServer): Promise<void> {
  for (const client of wss.clients) client.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
}

/** @nostr-relay/core in process: validated messages go to handleMessage, which answers on the socket itself. */
export async function startPeerRelay(): Promise<TestRelay & { relay: NostrRelay }> {
  const repository = new EventRepositorySqlite(':memory:');
  await repository.init();
  const relay = new NostrRelay(repository);
  const validator = new Validator();
  const received: unknown[][] = [];
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (ws: WebSocket, req) => {
    // ws's WebSocket has the send and readyState the relay's Client interface names.
    const client = ws as unknown as Client;
    relay.handleConnection(client, req.socket.remoteAddress);
    ws.on('message', async (data) => {
      try {
        received.push(JSON.parse(data.toString()) as unknown[]);
        const message = await validator.validateIncomingMessage(data);
        await relay.handleMessage(client, message);
      } catch (err) {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(['NOTICE', err instanceof Error ? err.message : String(err)]));
      }
    });
    ws.on('close', () => relay.handleDisconnect(client));
    ws.on('error', () => ws.terminate());
  });
  const url = await listen(wss);
  return {
    url,
    relay,
    received,
    async close() {
      await closeServer(wss);
      await relay.destroy();
      await repository.destroy();
    },
  };
}

/**
 * Takes every frame and never answers an EVENT on its own; REQs get an empty EOSE so only publishing
 * is slow. `answer` sends the OK an EVENT is waiting for, when a test wants a publish to settle.
 */
export async function startSlowRelay(): Promise<TestRelay & { answer(id: string, ok: boolean, message?: string): boolean }> {
  const received: unknown[][] = [];
  const waiting = new Map<string, WebSocket>();
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (ws) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as unknown[];
      received.push(frame);
      if (frame[0] === 'REQ') ws.send(JSON.stringify(['EOSE', frame[1]]));
      const id = frame[0] === 'EVENT' ? (frame[1] as { id?: unknown } | undefined)?.id : undefined;
      if (typeof id === 'string') waiting.set(id, ws);
    });
    ws.on('error', () => ws.terminate());
  });
  const url = await listen(wss);
  return {
    url,
    received,
    close: () => closeServer(wss),
    answer(id, ok, message = '') {
      const ws = waiting.get(id);
      if (!ws || ws.readyState !== ws.OPEN) return false;
      ws.send(JSON.stringify(['OK', id, ok, message]));
      waiting.delete(id);
      return true;
    },
  };
}

/** A ws:// URL on a port that was free a moment ago and has nothing listening now. */
export async function deadRelayUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `ws://127.0.0.1:${port}`;
}

/** ws's WebSocket for worker/relays.ts (Node 20 has no global WebSocket). */
export const wsFactory: WebSocketFactory = (url) => new NodeWebSocket(url) as unknown as WebSocketLike;

/** Kept here too so relay tests import their helpers from one module. */
export { until } from './until.ts';

/** Publishes straight to a relay with a plain socket; resolves with the relay's OK frame. */
export async function publishDirect(url: string, event: object): Promise<unknown[]> {
  const ws = new NodeWebSocket(url);
  try {
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const ok = new Promise<unknown[]>((resolve) =>
      ws.on('message', (d) => {
        const frame = JSON.parse(d.toString()) as unknown[];
        if (frame[0] === 'OK') resolve(frame);
      }),
    );
    ws.send(JSON.stringify(['EVENT', event]));
    return await ok;
  } finally {
    ws.close();
  }
}
