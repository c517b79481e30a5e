import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import '../styles/keyboard.css';

const SHORTCUTS: { keys: string[]; label: string }[] = [
  { keys: ['j'], label: 'next' },
  { keys: ['k'], label: 'prev' },
  { keys: ['Enter'], label: 'open' },
  { keys: ['/'], label: 'search' },
  { keys: ['?'], label: 'help' },
  { keys: ['Esc'], label: 'escape' },
];

/**
 * The list of keyboard shortcuts, as a native modal dialog: it traps focus, closes on Esc and
 * hands focus back to where it was.
 */
export default function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const hintId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const onDialogClose = () => onClose();
    dialog.addEventListener('close', onDialogClose);
    return () => {
      dialog.removeEventListener('close', onDialogClose);
      previous?.focus({ preventScroll: true });
    };
  }, [onClose]);

  return (
    <dialog
      ref={ref}
      className="shortcuts-dialog"
      aria-labelledby={titleId}
      aria-describedby={hintId}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === ref.current) ref.current.close();
      }}
    >
      <div className="shortcuts-inner">
        <h2 id={titleId} className="shortcuts-title">
          {t('shortcuts.title')}
        </h2>
        <dl className="shortcuts-list">
          {SHORTCUTS.map(({ keys, label }) => (
            <div key={label} className="shortcuts-row">
              <dt>
                {keys.map((k) => (
                  <kbd key={k}>{k}</kbd>
                ))}
              </dt>
              <dd>{t(`shortcuts.${label}`)}</dd>
            </div>
          ))}
        </dl>
        <p id={hintId} className="shortcuts-hint">
          {t('shortcuts.hint')}
        </p>
        <form method="dialog" className="shortcuts-actions">
          <button type="submit" className="button" autoFocus>
            {t('shortcuts.close')}
          </button>
        </form>
      </div>
    </dialog>
  );
}
