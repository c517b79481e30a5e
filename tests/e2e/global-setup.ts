import type { FullConfig } from '@playwright/test';
import { startServerProcess } from '../support/server-process.ts';

// One real server with a small demo network per Playwright worker, so workers never see each
// other's writes; each worker finds its own by TEST_PARALLEL_INDEX (tests/e2e/support/base.ts).
// The returned function is Playwright's teardown.
export default async function globalSetup(config: FullConfig) {
  const count = Math.max(1, config.workers);
  const servers = await Promise.all(
    Array.from({ length: count }, () => startServerProcess({ DEMO_SCALE: process.env.E2E_DEMO_SCALE ?? '0.1', FETCH_PRIVATE_ADDRESSES: '1' })),
  );
  process.env.STRUCC_URLS = servers.map((s) => s.url).join(' ');
  process.env.STRUCC_URL = servers[0].url;
  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
  };
}
