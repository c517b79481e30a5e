import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissToast, useToasts } from '../lib/toast';
import '../styles/modal.css';

/**
 * Draws the toasts; a polite live region so screen readers announce each one. The region is a
 * manual popover, re-shown on every new toast: the top layer stacks in order of showing, so a toast
 * raised from inside a modal dialog lands above the dialog and its backdrop, not under them.
 */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const ref = useRef<HTMLDivElement>(null);
  const newest = toasts.at(-1)?.id;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof el.showPopover !== 'function') return;
    if (el.matches(':popover-open')) el.hidePopover();
    if (newest !== undefined) el.showPopover();
  }, [newest]);

  return (
    <div ref={ref} className="toaster" role="status" aria-live="polite" popover="manual">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} data-toast-kind={toast.kind}>
          <span className="toast-text">{toast.text}</span>
          <button type="button" className="toast-close" onClick={() => dismissToast(toast.id)} aria-label={t('modal.close')}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
