/**
 * Always mounted in the shell, and tiny: opens the PIN prompt whenever the worker asks for the
 * PIN, and the getting-started modal on a guest's first visit. The dialogs themselves are
 * separate chunks, fetched only when they are needed.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { useAccount } from '../../lib/account';
import { openOverlay, useOverlays } from '../../lib/overlays';

const PinPrompt = lazy(() => import('./PinPrompt'));
const WeakPinNotice = lazy(() => import('./WeakPinNotice'));

/** localStorage: the getting-started modal was shown (or dismissed) once in this browser. */
export const GETTING_STARTED_KEY = 'gettingStartedSeen';

/** Screens where a welcome would be in the way: the wizard itself and the public documents. */
const NO_WELCOME = /^\/(new|terms|privacy|csae-policy|support|app-download-qr)(\/|$)/;

function welcomeSeen(): boolean {
  try {
    return localStorage.getItem(GETTING_STARTED_KEY) !== null;
  } catch {
    return true;
  }
}

export function markWelcomeSeen(): void {
  try {
    localStorage.setItem(GETTING_STARTED_KEY, String(Date.now()));
  } catch {
    // Private mode without storage: the modal may show again next time, which is harmless.
  }
}

export function AccountGate() {
  const account = useAccount();
  const { overlay } = useOverlays();
  const [path] = useLocation();
  const state = account?.login.state;
  const weakPin = account?.login.weakPin === true;
  const [pinNoticeDismissed, setPinNoticeDismissed] = useState(false);

  useEffect(() => {
    if (state !== 'loggedOut' || overlay || NO_WELCOME.test(path) || welcomeSeen()) return;
    // Automated browsers (tests, crawlers) would find every screen covered by the welcome.
    if (navigator.webdriver) return;
    markWelcomeSeen();
    openOverlay({ kind: 'gettingStarted' });
  }, [state, overlay, path]);

  // The account page shows the same request next to the form that answers it.
  if (weakPin && !pinNoticeDismissed && state === 'signedIn' && !path.startsWith('/settings/account')) {
    return (
      <Suspense fallback={null}>
        <WeakPinNotice onDismiss={() => setPinNoticeDismissed(true)} />
      </Suspense>
    );
  }
  // Kept mounted while unlocking, so a wrong PIN's message lands in the same dialog.
  if (state !== 'pinPrompt' && state !== 'unlocking') return null;
  return (
    <Suspense fallback={null}>
      <PinPrompt />
    </Suspense>
  );
}
