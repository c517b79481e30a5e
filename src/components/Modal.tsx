/**
 * A modal dialog on the native <dialog>: showModal makes the page behind inert, keeps Tab inside
 * and turns Escape into a close; focus returns to the opener afterwards.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '../styles/modal.css';

export interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Extra class on the dialog (width variants: modal-wide, modal-narrow). */
  className?: string;
  /** Buttons along the bottom edge. */
  footer?: ReactNode;
  /** A strip under the title that stays put while the body scrolls (tabs). */
  toolbar?: ReactNode;
  /** Called instead of onClose on Escape / the close button, e.g. to ask about a draft first. */
  onRequestClose?: () => void;
  /** Where focus goes on open (defaults to the first field or button inside). */
  initialFocus?: string;
}

export function Modal({ title, onClose, children, className, footer, toolbar, onRequestClose, initialFocus }: ModalProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const requestClose = onRequestClose ?? onClose;

  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    if (dialog && initialFocus) dialog.querySelector<HTMLElement>(initialFocus)?.focus();
    return () => opener?.focus();
  }, [initialFocus]);

  return (
    <dialog
      ref={ref}
      className={`modal${className ? ` ${className}` : ''}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        requestClose();
      }}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog element itself.
        if (e.target === ref.current) requestClose();
      }}
    >
      <div className="modal-panel">
        <header className="modal-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="modal-close" onClick={requestClose} aria-label={t('modal.close')} title={t('modal.close')}>
            <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true" focusable="false">
              <path d="M18 6 6 18M6 6l12 12" />
            </svg>
          </button>
        </header>
        {toolbar}
        <div className="modal-body">{children}</div>
        {footer && <footer className="modal-footer">{footer}</footer>}
      </div>
    </dialog>
  );
}
