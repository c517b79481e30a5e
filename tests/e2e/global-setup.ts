import { startServerProcess } from '../support/server-process.ts';

// One real server with a small demo network for the whole Playwright run; workers
// inherit STRUCC_URL. The returned function is Playwright's teardown.
export default async function globalSetup() {
  const server = await startServerProcess({ DEMO_SCALE: process.env.E2E_DEMO_SCALE ?? '0.1', FETCH_PRIVATE_ADDRESSES: '1' });
  process.env.STRUCC_URL = server.url;
  return async () => {
    await server.stop();
  };
}
