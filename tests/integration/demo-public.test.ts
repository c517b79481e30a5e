/**
 * Demo mode is safe by default: a server reachable from other machines neither seeds the demo
 * network nor marks membership quotes paid through POST /api/demo/pay-quote, unless DEMO_PUBLIC=1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../server/app.ts';
import { readConfig } from '../../server/config.ts';

const running: { server: RunningServer; dir: string }[] = [];

async function start(env: Record<string, string>): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'strucc-demo-public-'));
  const server = await startServer(readConfig({ PORT: '0', DATA_DIR: dir, DIST_DIR: join(dir, 'no-dist'), DEMO_SCALE: '0.01', ...env }));
  running.push({ server, dir });
  return server;
}

async function payQuote(server: RunningServer): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/demo/pay-quote`, { method: 'POST', body: '{}' });
  await res.text();
  return res.status;
}

async function events(server: RunningServer): Promise<number> {
  return Number((await server.ctx.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM events'))!.n);
}

afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  for (const { server, dir } of running.splice(0)) {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('demo mode on a public HOST', () => {
  it('neither seeds nor pays, and says why in the log', { timeout: 60_000 }, async () => {
    vi.stubEnv('DEMO_PAYMENTS', '1');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const server = await start({ HOST: '0.0.0.0', DEMO: '1' });
    expect(await events(server)).toBe(0);
    expect(await payQuote(server)).toBe(404);
    expect(warn.mock.calls.flat().join('\n')).toMatch(/Demó kikapcsolva.*HOST=0\.0\.0\.0.*DEMO_PUBLIC=1/s);
  });

  it('pays with DEMO_PUBLIC=1, which says the operator means a public demo', async () => {
    vi.stubEnv('DEMO_PAYMENTS', '1');
    const server = await start({ HOST: '0.0.0.0', DEMO: '0', DEMO_PUBLIC: '1' });
    // 400: the endpoint exists and wants a quote id.
    expect(await payQuote(server)).toBe(400);
  });

  it('keeps demo payments on a loopback HOST, as npm run serve has them', async () => {
    vi.stubEnv('DEMO_PAYMENTS', '1');
    const server = await start({ HOST: '127.0.0.1', DEMO: '0' });
    expect(await payQuote(server)).toBe(400);
  });
});
