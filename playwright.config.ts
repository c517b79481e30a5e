import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/support/chromium.ts';

// Debian's Chromium: Playwright cannot download browsers here. The server is started
// once for the whole run by tests/e2e/global-setup.ts on a free port.
export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 20_000 },
  reporter: [['list'], ['json', { outputFile: '.cache/playwright-results.json' }]],
  use: {
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    locale: 'hu-HU',
    timezoneId: 'Europe/Budapest',
  },
});
