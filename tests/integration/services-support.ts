/**
 * Shared pieces of the HTTP service tests (media, uploads, link previews, POST /api): a server on
 * a temp dir with an adjustable clock, raw HTTP requests, and a local origin server on 127.0.0.1.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finalizeEvent } from 'nostr-tools/pure';
import { startServer, type RunningServer } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';

export interface TestServer {
  server: RunningServer;
  base: string;
  dataDir: string;
  /** Moves the server's clock (unix seconds). */
  clock: { now: number };
  stop(): Promise<void>;
}

export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'strucc-svc-'));
  const clock = { now: Math.floor(Date.now() / 1000) };
  const config = readConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: join(dir, 'data'), DIST_DIR: join(dir, 'dist'), DEMO: '0', FETCH_PRIVATE_ADDRESSES: '1', ...env });
  const server = await startServer(config, { now: () => clock.now });
  return {
    server,
    base: server.url,
    dataDir: config.dataDir,
    clock,
    async stop() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function http(
  method: string,
  url: string,
  opts: { headers?: Record<string, string | number>; body?: Buffer | string; skipBody?: boolean } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.skipBody) {
      // Headers only: the server must answer from them without waiting for a body.
      req.flushHeaders();
      return;
    }
    req.end(opts.body);
  });
}

export const jsonOf = <T = unknown>(r: Reply): T => JSON.parse(r.body.toString('utf8')) as T;

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface Origin {
  base: string;
  hits: Map<string, number>;
  close(): Promise<void>;
}

/** A local web server for the fetchers to talk to; counts requests per path. */
export async function startOrigin(routes: Record<string, Route>): Promise<Origin> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route) route(req, res);
    else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('nincs');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function signed(sk: Uint8Array, kind: number, content: string, tags: string[][], createdAt: number) {
  return finalizeEvent({ kind, content, tags, created_at: createdAt }, sk);
}
