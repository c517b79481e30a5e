import { defineConfig } from '@playwright/test';

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
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    locale: 'hu-HU',
    timezoneId: 'Europe/Budapest',
  },
});
