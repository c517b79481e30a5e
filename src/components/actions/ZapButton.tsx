/**
 * The zap button of notes, articles and profiles: a click sends the default zap; a long press,
 * a right-click or the caret beside it opens the custom zap. A sent zap flies a small bolt off
 * the button, unless animations are off.
 */
import { lazy, Suspense, useRef, useState } from 'react';
import { useCardT } from '../../lib/noteI18n';
import { useAccount, useActingPubkey } from '../../lib/account';
import { openLogin } from '../../lib/overlays';
import { zapDefaultOf } from '../../lib/zapSettings';
import { ZapIcon } from '../Icons';
import { ACTIONS_NS, sendZap, type ZapChoice, type ZapTarget } from './state';

const ZapModal = lazy(() => import('./ZapModal'));
/** A press this long on the zap button opens the custom zap instead of sending the default one. */
const LONG_PRESS_MS = 500;

function animationsOn(): boolean {
  return document.documentElement.dataset.animated !== 'false';
}

export function ZapButton({ target, name, className = 'note-act', iconSize = 18 }: { target: ZapTarget; name: string; className?: string; iconSize?: number }) {
  const { t } = useCardT(ACTIONS_NS);
  const acting = useActingPubkey();
  const settings = useAccount()?.settings.settings;
  const [open, setOpen] = useState(false);
  const [burst, setBurst] = useState(0);
  /** Zaps from this button still being paid: the button says it is busy until they end. */
  const [inFlight, setInFlight] = useState(0);
  const pressTimer = useRef<number | undefined>(undefined);
  const longPressed = useRef(false);

  const zap = (choice: ZapChoice) => {
    if (animationsOn()) setBurst((n) => n + 1);
    setInFlight((n) => n + 1);
    void sendZap(target, choice).finally(() => setInFlight((n) => n - 1));
  };
  const quickZap = () => {
    const { amount, message } = zapDefaultOf(settings ?? {});
    zap({ amountSats: amount, comment: message });
  };
  /** Spec §6: a visitor can browse but not act. */
  const act = (run: () => void) => () => (acting ? run() : openLogin());
  const startPress = () => {
    longPressed.current = false;
    window.clearTimeout(pressTimer.current);
    pressTimer.current = window.setTimeout(() => {
      longPressed.current = true;
      if (acting) setOpen(true);
    }, LONG_PRESS_MS);
  };
  const endPress = () => window.clearTimeout(pressTimer.current);

  return (
    <>
      <button
        type="button"
        className={`${className} note-act-zap`}
        aria-label={t('bar.zap')}
        title={t('bar.zap')}
        aria-busy={inFlight > 0}
        onPointerDown={startPress}
        onPointerUp={endPress}
        onPointerLeave={endPress}
        onContextMenu={(e) => {
          e.preventDefault();
          act(() => setOpen(true))();
        }}
        onClick={act(() => {
          if (!longPressed.current) quickZap();
          longPressed.current = false;
        })}
      >
        <ZapIcon size={iconSize} />
        {burst > 0 && (
          // Stays, faded out, after its flight; a new key flies it again on the next zap.
          <span key={burst} className="zap-burst" aria-hidden="true" data-testid="zap-burst">
            ⚡
          </span>
        )}
      </button>
      <button type="button" className={`${className} note-act-zap-custom`} aria-label={t('bar.zapCustom')} title={t('bar.zapCustom')} aria-haspopup="dialog" onClick={act(() => setOpen(true))}>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <Suspense fallback={null}>
          <ZapModal target={target} name={name} onZap={zap} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
