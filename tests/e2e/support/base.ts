/** The seeded server of this Playwright run (tests/e2e/global-setup.ts sets STRUCC_URL). */
export const base = (): string => process.env.STRUCC_URL!;

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
