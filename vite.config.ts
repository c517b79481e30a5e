import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { pwaPlugin } from './tools/pwa-plugin.ts';
import { firstScreenPlugin } from './tools/first-screen-plugin.ts';
import { FEED_COPY_VERSION } from './core/config.ts';

/** index.html's inline script checks the painted copy's version before any module has loaded. */
const feedCopyVersion = {
  name: 'strucc-feed-copy-version',
  transformIndexHtml: (html: string) => html.replaceAll('__FEED_COPY_VERSION__', String(FEED_COPY_VERSION)),
};

// The built client is served by server/ from dist/. In `npm run dev`, Vite proxies
// the cache socket and HTTP services to a server started separately on 8800.
export default defineConfig({
  plugins: [react(), firstScreenPlugin(), pwaPlugin(), feedCopyVersion],
  worker: { format: 'es' },
  build: { outDir: 'dist', target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 400 },
  server: {
    proxy: {
      '/v1': { target: 'ws://127.0.0.1:8800', ws: true },
      '/relay': { target: 'ws://127.0.0.1:8800', ws: true },
      '/media-cache': 'http://127.0.0.1:8800',
      '/.well-known': 'http://127.0.0.1:8800',
      '/api': 'http://127.0.0.1:8800',
    },
  },
});
