import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { handleCacheConnection } from './cache/connection.ts';
import { demoAllowed } from './config.ts';
import { SocketSupervisor } from './sockets.ts';
import type { ServerConfig, ServerContext, ServerStats } from './context.ts';
import { createHttpHandler } from './http/handler.ts';
import { createImporter } from './ingest/importer.ts';
import { expireScores } from './ingest/scores.ts';
import { startUpstream, type Upstream } from './ingest/upstream.ts';
import { initVerifier } from './ingest/verify.ts';
import { startVerifyPool, VERIFY_NICE } from './ingest/verify-pool.ts';
import { attachModeration } from './moderation/hidden.ts';
import { attachHotCaches } from './cache/hot-cache.ts';
import { warmHotCaches, type Warming } from './cache/warm.ts';
import { handleRelayConnection } from './relay/nip01.ts';
import { closeUploads, handleUploadConnection } from './upload/socket.ts';
import { handleWalletConnection } from './wallet/socket.ts';
import { startLightning, startLightningJobs, stopLightning } from './lightning/index.ts';
import { startMint, startMintJobs, stopMint } from './mint/index.ts';
import { startMembership, startMembershipJobs, stopMembership } from './membership/http.ts';
import { startLeadership, singleProcessLeadership, type Leadership } from './cluster/leader.ts';
import { startLiveBridge, type LiveBridge } from './cluster/live-bridge.ts';
import { openPostgres } from './store/postgres.ts';
import { pushServiceOf, startPush, stopPush } from './push/service.ts';
import { openSqlite } from './store/sqlite.ts';

/** Far above the relay's 512 KB rule, so an oversized frame reaches the handler and gets a NOTICE instead of a silent close. */
const MAX_WS_PAYLOAD = 4 * 1024 * 1024;
const SCORE_EXPIRY_INTERVAL_MS = 60_000;

export interface RunningServer {
  url: string;
  port: number;
  ctx: ServerContext;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Unix seconds; tests freeze or shift time with it. */
  now?: () => number;
}

/** Opens the store, wires HTTP, the cache socket (/v1) and the relay socket (/relay), listens, then seeds the demo network. */
export async function startServer(config: ServerConfig, opts: StartOptions = {}): Promise<RunningServer> {
  const db = config.databaseUrl ? await openPostgres(config.databaseUrl) : openSqlite(join(config.dataDir, 'strucc.sqlite'));
  await initVerifier();
  // Signature checks run on worker threads (one per core) so imports leave the main thread free, and
  // check each group while it is written; on SQLite below the main thread (verify-pool.ts nice).
  const verifier = await startVerifyPool({ nice: db.dialect === 'sqlite' ? VERIFY_NICE : 0 });
  const live = new EventEmitter();
  // Every relay and cache connection may listen; the default cap of 10 would only produce warnings.
  live.setMaxListeners(0);
  const now = opts.now ?? (() => Math.floor(Date.now() / 1000));
  const stats: ServerStats = { cacheConnections: 0, cacheConnectionsTotal: 0, relayConnections: 0, relayConnectionsTotal: 0, asyncSubscriptions: {} };
  const ctx: ServerContext = {
    config,
    db,
    live,
    stats,
    now,
    importer: createImporter({ db, live, now, verifier }),
  };
  attachModeration(ctx);
  const detachHotCaches = attachHotCaches(ctx);
  // Several processes may share one PostgreSQL: each hears the others' stored events.
  const bridge: LiveBridge | null = config.databaseUrl
    ? await startLiveBridge({ connectionString: config.databaseUrl, live, db, verbose: config.verbose }).catch(async (err: unknown) => {
        await verifier.close();
        await db.close();
        throw err;
      })
    : null;

  const http = createServer(createHttpHandler(ctx));
  const sockets = new Set<Duplex>();
  http.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  http.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });

  const wssOptions = { noServer: true, maxPayload: MAX_WS_PAYLOAD, perMessageDeflate: false };
  const cacheWss = new WebSocketServer(wssOptions);
  const relayWss = new WebSocketServer(wssOptions);
  const uploadWss = new WebSocketServer(wssOptions);
  const walletWss = new WebSocketServer(wssOptions);
  const routes = new Map<string, { wss: WebSocketServer; handle: (ws: WebSocket, ctx: ServerContext, req: IncomingMessage) => void }>([
    ['/v1', { wss: cacheWss, handle: handleCacheConnection }],
    ['/relay', { wss: relayWss, handle: handleRelayConnection }],
    ['/upload', { wss: uploadWss, handle: handleUploadConnection }],
    ['/wallet', { wss: walletWss, handle: handleWalletConnection }],
  ]);
  const supervisor = new SocketSupervisor(config.limits);
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (!supervisor.admit(socket)) return;
    let pathname: string;
    try {
      pathname = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '') || '/';
    } catch {
      socket.destroy();
      return;
    }
    const route = routes.get(pathname);
    if (!route) {
      socket.destroy();
      return;
    }
    route.wss.handleUpgrade(req, socket, head, (ws) => {
      supervisor.watch(ws);
      try {
        route.handle(ws, ctx, req);
      } catch (err) {
        if (config.verbose) console.error('Kapcsolatkezelési hiba:', err);
        ws.terminate();
      }
    });
  });

  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(config.port, config.host, () => {
        http.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await bridge?.close();
    await verifier.close();
    await db.close();
    throw err;
  }
  const port = (http.address() as AddressInfo).port;
  const hostForUrl = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${hostForUrl}:${port}`;

  let expiring = false;
  const expireLater = () => setInterval(() => {
    if (expiring) return;
    expiring = true;
    expireScores(db, ctx.now())
      .catch((err: unknown) => {
        if (config.verbose) console.error('score24h lejárati hiba:', err);
      })
      .finally(() => {
        expiring = false;
      });
  }, SCORE_EXPIRY_INTERVAL_MS);

  let upstream: Upstream | null = null;
  let leadership: Leadership | null = null;
  let warming: Warming | null = null;
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      await warming?.stop();
      await leadership?.close();
      // The wallet service is a client of our own relay: it goes before the sockets close under it.
      await stopLightning(ctx);
      stopMint(ctx);
      supervisor.close();
      await upstream?.close();
      for (const wss of [cacheWss, relayWss, uploadWss, walletWss]) {
        for (const client of wss.clients) client.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
      }
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
      await verifier.close();
      await closeUploads(ctx);
      await stopMembership(ctx);
      await stopPush(ctx);
      await bridge?.close();
      detachHotCaches();
      await db.close();
    })();
    return closing;
  };

  const demoRefused = !demoAllowed(config);
  if (demoRefused && (config.demo || /^(1|true|yes|on)$/i.test(process.env.DEMO_PAYMENTS?.trim() ?? ''))) {
    console.warn(
      `Demó kikapcsolva: a szerver nem csak helyben érhető el (HOST=${config.host}), ezért nincs demó hálózat és demó fizetés. ` +
        'Nyilvános demóhoz: DEMO_PUBLIC=1; éles szerveren: DEMO=0.',
    );
  }
  // Seeding, expiry, upstream ingestion, rebroadcasts and the demo wallet service: one process runs them.
  const leaderJobs = async () => {
    if (config.demo && !demoRefused) {
      if (config.verbose) console.log('Demó hálózat ellenőrzése…');
      // Loaded only when wanted: the demo generator is large and most test servers run without it.
      const { seedDemoIfEmpty } = await import('./demo/seed.ts');
      await seedDemoIfEmpty(ctx);
    }
    // Anything already past its 24 h window (e.g. after a restart) is taken back at once.
    await expireScores(db, ctx.now());
    const expiry = expireLater();
    expiry.unref();
    if (config.upstreamRelays.length > 0) upstream = startUpstream(ctx, config.upstreamRelays);
    await startMembershipJobs(ctx);
    if (config.demoLightning) await startLightningJobs(ctx, port);
    // Keyset rotation and the demo ecash notes are the leader's; every process serves /mint.
    if (config.mint) await startMintJobs(ctx, port);
    // After the demo seed: its thousands of events are nobody's news.
    await pushServiceOf(ctx)?.startSending();
    return async () => {
      await pushServiceOf(ctx)?.stopSending();
      clearInterval(expiry);
      stopMint(ctx);
      await stopLightning(ctx);
      await upstream?.close();
      upstream = null;
      await stopMembership(ctx);
    };
  };
  try {
    startMembership(ctx);
    if (config.demoLightning) startLightning(ctx, port);
    if (config.mint) await startMint(ctx);
    await startPush(ctx);
    leadership = config.databaseUrl
      ? await startLeadership({ connectionString: config.databaseUrl, jobs: leaderJobs, verbose: config.verbose })
      : await singleProcessLeadership(leaderJobs);
    ctx.cluster = { processId: bridge?.processId ?? 'single', isLeader: () => leadership?.isLeader() ?? false };
  } catch (err) {
    await close();
    throw err;
  }
  // After the demo seed (a leader job above): the newest notes are then the ones the first pages ask for. The
  // sockets are open meanwhile (warming yields to them), but the start is announced once the caches are full,
  // so a restart does not meet its first full load with empty caches and a cold warming competing with it.
  if (config.warmCaches) {
    warming = warmHotCaches(ctx);
    await warming.done;
  }
  return { url, port, ctx, close };
}
