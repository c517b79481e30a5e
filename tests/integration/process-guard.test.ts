/** An unhandled promise rejection anywhere in the server is logged and the server keeps serving. */
import { resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startServerProcess, type RunningServer } from '../support/server-process.ts';

let server: RunningServer | undefined;

afterAll(async () => {
  await server?.stop();
});

it('survives an unhandled rejection', { timeout: 60_000 }, async () => {
  const probe = resolve('tests/support/reject-probe.mjs');
  server = await startServerProcess({ DEMO: '0', NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${probe}`.trim() });
  const running = server;
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error('the probe never reported its rejection: the server died')), 20_000);
    running.onLine((line) => {
      if (line.includes('probe: rejected')) {
        clearTimeout(timer);
        done();
      }
    });
  });
  const res = await fetch(`${running.url}/api/status`);
  expect(res.status).toBe(200);
});
