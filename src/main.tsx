import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import './styles/themes.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/tabs.css';
import './styles/feed.css';
import './styles/sidebar.css';
import './styles/settings-menu.css';
import { applyAnimated, applyTheme, storedAnimated, storedTheme } from './theme';
import { connect } from './worker-client';
import { startSignerBridge } from './lib/signerBridge';
import { trackActivity } from './lib/activity';
import { exposeDevtools } from './lib/devtools';
import { startAccountWatch } from './lib/account';
import App, { preloadFirstScreen } from './App';

performance.mark('strucc:main');
applyTheme(storedTheme());
applyAnimated(storedAnimated());
// Greeting the worker before React renders overlaps the socket handshake with the first paint.
void connect().catch(() => undefined);
startSignerBridge();
trackActivity();
exposeDevtools();
startAccountWatch();

const root = document.getElementById('root');
// A failed preload is retried by the route's own lazy load.
void preloadFirstScreen(location.pathname)
  .catch(() => undefined)
  .then(() => {
    if (!root) return;
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
