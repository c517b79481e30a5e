/**
 * The offline banner and the quiet update prompt (src/lib/pwa.ts). The prompt never shows while
 * someone is writing: a text field has focus, or the composer or the article editor is open.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { useOverlays } from '../../lib/overlays';
import { activateUpdate, pwaSnapshot, subscribePwa } from '../../lib/pwa';
import './pwa.css';

function typingNow(): boolean {
  const el = document.activeElement;
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  return el instanceof HTMLInputElement && !/^(button|submit|reset|checkbox|radio|range|color|file|image)$/.test(el.type);
}

function useTyping(): boolean {
  const [typing, setTyping] = useState(typingNow);
  useEffect(() => {
    // focusout fires before the next element has focus: read it once the move is done.
    const update = () => setTimeout(() => setTyping(typingNow()), 0);
    document.addEventListener('focusin', update);
    document.addEventListener('focusout', update);
    return () => {
      document.removeEventListener('focusin', update);
      document.removeEventListener('focusout', update);
    };
  }, []);
  return typing;
}

function useDraftOpen(): boolean {
  const { overlay } = useOverlays();
  // wouter's browser location hook: this tree has no <Router> of its own and needs none.
  const [path] = useLocation();
  return overlay?.kind === 'composer' || path.startsWith('/reads/edit');
}

export function PwaStatus() {
  const { t } = useTranslation('pwa');
  const state = useSyncExternalStore(subscribePwa, pwaSnapshot);
  const typing = useTyping();
  const draftOpen = useDraftOpen();
  const prompt = state.updateWaiting && !typing && !draftOpen;
  return (
    <>
      {state.offline && (
        <p className="pwa-offline" role="status" data-testid="offline-banner">
          {t('offline')}
        </p>
      )}
      {prompt && (
        <button type="button" className="pwa-update" data-testid="update-prompt" onClick={activateUpdate}>
          {t('updateReady')} — <span className="pwa-update-action">{t('updateAction')}</span>
        </button>
      )}
    </>
  );
}
