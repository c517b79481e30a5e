import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './i18n';
import './styles/themes.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/feed.css';
import { applyTheme, storedTheme } from './theme';
import { connect } from './worker-client';
import { startSignerBridge } from './lib/signerBridge';
import { trackActivity } from './lib/activity';
import { exposeDevtools } from './lib/devtools';
import App from './App';

applyTheme(storedTheme());
// Greeting the worker before React renders overlaps the socket handshake with the first paint.
void connect().catch(() => undefined);
startSignerBridge();
trackActivity();
exposeDevtools();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
