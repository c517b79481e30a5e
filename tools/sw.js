/**
 * Strucc's service worker. tools/pwa-plugin.ts writes it to dist/sw.js with the build's id and the
 * list of files it emitted (SHELL below), so every build has a byte-different
 * sw.js and the browser installs it as an update.
 *
 * One cache per build holds that build's index.html and its chunks together: a page is never put
 * together from one build's index.html and another build's chunks, and the caches of older builds
 * are deleted once this one takes over.
 */
/* eslint-env serviceworker */
const SHELL = self.__STRUCC_SHELL__;
const PREFIX = 'strucc-shell-';
const CACHE = PREFIX + SHELL.build;
const PRECACHED = new Set(SHELL.files);

/**
 * Never answered from a cache: the cache socket and relay (websockets), the wallet and upload
 * sockets, the API, media, link previews, Blossom blobs (/<sha256>[.ext], /upload, /list),
 * NIP-05, LNURL. They pass through untouched, not even read by this worker.
 */
const LIVE = /^\/(v1|relay|wallet|upload|api|media-cache|link-preview|\.well-known|lnurlp|list)(\/|$)/;
const BLOB = /^\/[0-9a-f]{64}(\.[\w]+)?$/i;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // The server may already have a newer build than this worker: its index.html must not be kept
      // as ours. The install fails and the browser tries again with the sw.js of that build.
      const index = await fetch('/index.html', { cache: 'no-store' });
      if (!index.ok) throw new Error(`index.html: ${index.status}`);
      const html = await index.clone().text();
      if (!html.includes(`<meta name="strucc-build" content="${SHELL.build}"`)) throw new Error('index.html belongs to another build');
      await cache.put('/index.html', index);
      await cache.addAll(SHELL.files.map((file) => new Request(file, { cache: 'no-store' })));
    })().catch(async (err) => {
      await caches.delete(CACHE);
      throw err;
    }),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)));
      // A navigation then goes to the network while this worker is still starting, instead of after.
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      // The first install takes the open tab over, so it works offline without a reload.
      await self.clients.claim();
    })(),
  );
});

// The page asks for this only when someone clicks the update prompt.
self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'strucc:activate') void self.skipWaiting();
  if (event.data && event.data.type === 'strucc:build' && event.ports[0]) event.ports[0].postMessage(SHELL.build);
});

// Opened once per worker start: a cold start asks for the entry chunk and its imports at once.
let opened;
function shellCache() {
  opened ??= caches.open(CACHE);
  return opened;
}

async function shellIndex() {
  const cache = await shellCache();
  return (await cache.match('/index.html')) ?? Response.error();
}

/** The preloaded response when the browser started one (see activate), else a plain fetch. */
async function navigation(event) {
  const preloaded = await event.preloadResponse;
  return preloaded ?? fetch(event.request);
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (LIVE.test(url.pathname) || BLOB.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    // Network first: online, every start gets the server's current index.html (and, through it,
    // the current build's chunks). Offline, this build's own shell.
    event.respondWith(navigation(event).catch(() => shellIndex()));
    return;
  }
  if (!PRECACHED.has(url.pathname)) return;
  // This build's files, cache first: they are content-hashed (or this build's own copies).
  event.respondWith(
    shellCache()
      .then((cache) => cache.match(url.pathname))
      .then((hit) => hit ?? fetch(request)),
  );
});

/**
 * Web Push from our server (server/push): the message is already in Hungarian and names no more than
 * the server allows (a DM push only says who wrote). Every push must show a notification
 * (userVisibleOnly), so an unreadable one still shows the app's name and opens the notifications.
 */
self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = {};
  }
  const title = typeof message.title === 'string' && message.title ? message.title : 'Strucc';
  // Only our own routes: '//host' would leave the origin.
  const url = typeof message.url === 'string' && /^\/(?!\/)/.test(message.url) ? message.url : '/notifications';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === 'string' ? message.body : '',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      lang: 'hu',
      // A second message from the same person (or on the same post) replaces the first.
      tag: typeof message.tag === 'string' ? message.tag : undefined,
      data: { url, type: message.type },
    }),
  );
});

/** Opens the route the push names: in a Strucc tab already open when there is one, else a new window. */
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const path = event.notification.data && typeof event.notification.data.url === 'string' ? event.notification.data.url : '/notifications';
  const target = new URL(path, self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        let client = open;
        if (open.url !== target) {
          try {
            // Works on tabs this worker controls; for another, a new window opens the route.
            client = (await open.navigate(target)) ?? open;
          } catch {
            client = null;
          }
        }
        if (client) {
          // Focus is the browser's to grant; the tab shows the route either way.
          await client.focus().catch(() => undefined);
          return;
        }
      }
      await self.clients.openWindow(target);
    })(),
  );
});
