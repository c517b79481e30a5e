import { useTranslation } from 'react-i18next';
import { dismissToast, useToasts } from '../lib/toast';
import '../styles/modal.css';

/** Draws the toasts; a polite live region so screen readers announce each one. */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useToasts();
  return (
    <div className="toaster" role="status" aria-live="polite">
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
