/** Starts the real server on a free port with a temp data dir and the fixture network imported. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';
import type { ServerContext } from '../../server/context.ts';
import type { SqlValue } from '../../server/store/db.ts';
import { startTempPostgres } from '../support/postgres.ts';
import { CacheClient } from './cache-client.ts';
import { buildNetwork, type Network } from './cache-fixtures.ts';

export interface CacheTestServer {
  port: number;
  wsUrl: string;
  ctx: ServerContext;
  net: Network;
  connect(): Promise<CacheClient>;
  stop(): Promise<void>;
}

export type StoreKind = 'sqlite' | 'postgres';

/** Calls `seen` with every read statement the server's store runs from now on (for query-count and plan guards). */
export function watchReads(srv: CacheTestServer, seen: (sql: string, params: SqlValue[]) => void): void {
  const db = srv.ctx.db;
  for (const m of ['all', 'get'] as const) {
    const orig = db[m].bind(db);
    (db as unknown as Record<string, unknown>)[m] = (sql: string, params: SqlValue[] = []) => {
      seen(sql, params);
      return orig(sql, params);
    };
  }
}

/** The store behind the server: its SQLite file, or a throwaway PostgreSQL cluster of its own. */
export async function startCacheServer(store: StoreKind = 'sqlite', env: Record<string, string> = {}): Promise<CacheTestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'strucc-cache-'));
  const pg = store === 'postgres' ? await startTempPostgres() : null;
  // No warming (server/cache/warm.ts): tests count the statements their requests run, and a background fill would race them.
  const config = readConfig({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, DEMO: '0', DATABASE_URL: pg?.url ?? '', WARM_CACHES: '0', ...env });
  const server = await startServer(config, {});
  const wsUrl = `ws://127.0.0.1:${server.port}/v1`;
  const net = buildNetwork(server.ctx.now());
  const results = await server.ctx.importer.importEvents(net.all);
  const failed = results.filter((r) => !r.ok);
  if (failed.length) throw new Error(`fixture import failed: ${JSON.stringify(failed)}`);
  const clients: CacheClient[] = [];
  return {
    port: server.port,
    wsUrl,
    ctx: server.ctx,
    net,
    async connect() {
      const c = await CacheClient.connect(wsUrl);
      clients.push(c);
      return c;
    },
    async stop() {
      for (const c of clients) await c.close().catch(() => undefined);
      await server.close();
      pg?.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
