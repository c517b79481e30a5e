/**
 * The cache server goes away mid-session and comes back on the same address (as after a
 * deploy): the worker's one socket reconnects by itself, every open long-lived subscription is
 * answered again, and a request made while the server was down is answered once it is back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer } from '../../server/app.ts';
import { createApi, type StruccWorker } from '../../worker/api.ts';
import type { CacheObject, SocketSnapshot } from '../../core/types.ts';
import { person, sign } from './people.ts';
import { until } from '../support/until.ts';
import { startStrucc } from '../support/strucc-server.ts';

describe('a cache server restarting mid-session', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strucc-restart-cache-'));
  const TAB = 'tab1';
  const author = person();
  const savedWebSocket = globalThis.WebSocket;
  let server: RunningServer;
  let api: StruccWorker;
  let port = 0;

  const start = async () => {
    server = await startStrucc(dir, { PORT: String(port) });
    port = server.port;
  };

  beforeAll(async () => {
    await start();
    const at = Math.floor(Date.now() / 1000) - 60;
    const results = await server.ctx.importer.importEvents([
      sign(author, 0, at, JSON.stringify({ name: 'visszatero' })),
      sign(author, 1, at + 1, 'Itt vagyok, és itt is maradok.'),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    // The cache socket actor uses the global WebSocket, which Node 20 lacks.
    (globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;
    api = createApi({ feedThrottleMs: 0 });
    await api.hello(TAB, { cacheServer: `ws://127.0.0.1:${port}/v1`, mediaServer: server.url, noBinary: false, devMode: false });
  });

  afterAll(async () => {
    api?.dispose();
    (globalThis as { WebSocket?: unknown }).WebSocket = savedWebSocket;
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reconnects, answers the open subscription again and the request made while it was down', async () => {
    let socket: SocketSnapshot | undefined;
    await api.watchSocket(TAB, (s) => (socket = s));
    const pushes: { at: number; event: CacheObject }[] = [];
    await api.subscribe!(TAB, 'net_stats', {}, (event) => pushes.push({ at: Date.now(), event }));
    await until(() => pushes.length > 0, 'a first net_stats push');
    expect(pushes[0].event.kind).toBe(10000101);
    await until(() => server.ctx.stats.cacheConnections === 1 && socket?.connected, 'one connected cache socket');

    await server.close();
    await until(() => socket && !socket.connected, 'the worker to notice the server went away');
    const downAt = Date.now();
    // Asked while nothing listens: it must wait for the server, not fail or hang.
    const whileDown = api.request('user_infos', { pubkeys: [author.pk] });

    await start();
    await until(() => socket?.connected, 'the socket to come back', 20_000);
    expect(server.ctx.stats.cacheConnections).toBe(1);
    const reply = await whileDown;
    expect(reply.notice).toBeUndefined();
    expect(reply.events.find((e) => e.kind === 0 && e.pubkey === author.pk)).toMatchObject({ kind: 0, pubkey: author.pk });
    // The subscription opened before the restart is answered by the new server process.
    await until(() => pushes.some((p) => p.at > downAt), 'a net_stats push after the restart');
    const latest = pushes[pushes.length - 1].event;
    expect(JSON.parse(String(latest.content))).toMatchObject({ pubnotes: 1 });
  });
});
