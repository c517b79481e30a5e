/**
 * This worker's seeded server: tests/e2e/global-setup.ts starts one per worker (STRUCC_URLS) and
 * Playwright numbers its workers 0..n-1 in TEST_PARALLEL_INDEX.
 */
export const base = (): string => {
  const urls = (process.env.STRUCC_URLS ?? '').split(' ').filter(Boolean);
  return urls[Number(process.env.TEST_PARALLEL_INDEX ?? 0)] ?? process.env.STRUCC_URL!;
};

/** A websocket URL on that server, e.g. wsUrl('/v1') for the cache socket, wsUrl('/relay') for the relay. */
export const wsUrl = (path: string): string => `${base().replace(/^http/, 'ws')}${path}`;

export interface ServerStatus {
  cacheConnections: number;
  relayConnections: number;
  /** Open async subscriptions by cache command (net_stats, notification counts, …). */
  asyncSubscriptions: Record<string, number>;
  events: number;
}

/** The server's own counters (/api/status): what it holds open, seen from outside. */
export async function serverStatus(): Promise<ServerStatus> {
  const res = await fetch(`${base()}/api/status`, { headers: { connection: 'close' } });
  return (await res.json()) as ServerStatus;
}
