/**
 * "Új bejegyzés": the side navigation's button and the phone's floating one. Small and in the
 * shell's chunk; the composer itself loads only when it opens. Guests get the login modal.
 */
import { useTranslation } from 'react-i18next';
import { useAccount } from '../../lib/account';
import { openComposer, openLogin } from '../../lib/overlays';
import './composeButton.css';

function PenIcon({ size }: { size: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M4 20h4L19.5 8.5a2.1 2.1 0 0 0-3-3L5 17v3z" />
      <path d="m14.5 7.5 3 3" />
    </svg>
  );
}

export function NewNoteButton({ floating = false }: { floating?: boolean }) {
  const { t } = useTranslation();
  const canWrite = useAccount()?.login.state === 'signedIn';
  const label = t('nav.newNote');
  return (
    <button
      type="button"
      className={floating ? 'compose-fab' : 'compose-button'}
      aria-label={label}
      title={label}
      data-new-note=""
      onClick={() => (canWrite ? openComposer() : openLogin())}
    >
      <PenIcon size={floating ? 26 : 22} />
      {!floating && <span className="nav-text">{label}</span>}
    </button>
  );
}
