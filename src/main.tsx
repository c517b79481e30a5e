import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import './styles/themes.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/tabs.css';
import './styles/feed.css';
import './styles/sidebar.css';
import './styles/settings-menu.css';
import { applyAnimated, applyTheme, applyThemeColor, storedAnimated, storedTheme } from './theme';
import { connect, holdWorkerStart } from './worker-client';
import { startSignerBridge } from './lib/signerBridge';
import { trackActivity } from './lib/activity';
import { exposeDevtools } from './lib/devtools';
import { startAccountWatch } from './lib/account';
import { startPaintedCopyKeeper } from './lib/paintedCopy';
import { hasFirstScreenNotes } from './lib/firstScreen';
import { isHomePath } from './lib/routes';
import App, { preloadFirstScreen } from './App';

/** The longest a revisit keeps the worker waiting for its first screen. */
const FIRST_SCREEN_WAIT_MS = 1500;

/** How long a screen without notes waits before the service worker starts anyway. */
const PWA_WAIT_FOR_NOTE_MS = 5000;

/** Resolves when the app itself (not the painted copy) shows a note, or after `ms`. */
function firstNoteShown(ms: number): Promise<void> {
  const selector = '#root > :not([data-painted-copy]) [data-note-id]';
  return new Promise((resolve) => {
    if (document.querySelector(selector)) return resolve();
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    };
    const observer = new MutationObserver(() => document.querySelector(selector) && done());
    const timer = setTimeout(done, ms);
    observer.observe(document.getElementById('root') ?? document, { childList: true, subtree: true });
  });
}

/**
 * The service worker, offline banner and update prompt, in their own chunk. They wait for the first
 * note: the service worker's install fetches every chunk of the app, and on a cold load the page is
 * idle while it waits for the network, so an idle callback alone let that download race the first screen.
 */
function startPwaLater(): void {
  const start = () => void import('./lib/pwa').then((m) => m.startPwa()).catch(() => undefined);
  void firstNoteShown(PWA_WAIT_FOR_NOTE_MS).then(() => {
    if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 3000 });
    else setTimeout(start, 500);
  });
}

function afterFirstPaint(): void {
  applyThemeColor();
  firstScreenUp();
  startPwaLater();
}

/** Calls then once the first render has been painted. */
function AfterFirstPaint({ then }: { then: () => void }) {
  useEffect(() => {
    requestAnimationFrame(() => setTimeout(then, 0));
  }, [then]);
  return null;
}

performance.mark('strucc:main');
applyTheme(storedTheme(), { themeColor: false });
applyAnimated(storedAnimated());
// A first visit greets the worker before React renders, so the socket handshake overlaps the first
// render. A revisit of the home screen paints the kept cards first and then starts the worker.
let firstScreenUp = () => {};
if (isHomePath(location.pathname) && hasFirstScreenNotes()) {
  holdWorkerStart(
    new Promise<void>((resolve) => {
      firstScreenUp = resolve;
      setTimeout(resolve, FIRST_SCREEN_WAIT_MS);
    }),
  );
}
void connect().catch(() => undefined);
startSignerBridge();
trackActivity();
exposeDevtools();
startAccountWatch();
startPaintedCopyKeeper();

const root = document.getElementById('root');
// A failed preload is retried by the route's own lazy load.
void preloadFirstScreen(location.pathname)
  .catch(() => undefined)
  .then(() => {
    if (!root) return;
    createRoot(root).render(
      <StrictMode>
        <App />
        <AfterFirstPaint then={afterFirstPaint} />
      </StrictMode>,
    );
  });
