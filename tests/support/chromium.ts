/**
 * How this project launches Debian's Chromium (Playwright cannot download browsers here).
 * Without the background-networking flags Chromium keeps dialling out on a closed network.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
