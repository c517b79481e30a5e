/**
 * Step 4: the private key, hidden until revealed, with copy and .txt download and the warning
 * that nobody can restore it. Finishing publishes the profile, follows and relay list.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { keyFileText } from '../../lib/newAccount';
import { copyWithToast, useRevealedSecret } from '../login/util';
import { StepNav } from './StepIndicator';

interface Props {
  npub: string;
  username: string;
  busy: boolean;
  error: string | null;
  onBack: () => void;
  onFinish: () => void;
}

export function KeyStep({ npub, username, busy, error, onBack, onFinish }: Props) {
  const { t } = useTranslation('login');
  const id = useId();
  const [shown, setShown] = useState(false);
  const [saved, setSaved] = useState(false);
  const [savedError, setSavedError] = useState(false);

  // The worker holds the new key; the page asks for it only while this step is open.
  const nsec = useRevealedSecret(true);

  const download = () => {
    if (!nsec) return;
    const blob = new Blob([keyFileText(nsec, npub, t('key.fileIntro'))], { type: 'text/plain;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `strucc-${username || 'kulcs'}-nsec.txt`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSavedError(!saved);
    if (saved) onFinish();
  };

  return (
    <form onSubmit={submit} noValidate className="wizard-form">
      <div className="login-warning" role="note" id={`${id}-warning`}>
        <p>
          <strong>{t('key.warning')}</strong>
        </p>
      </div>
      <div className="form-field wizard-key">
        <span id={`${id}-label`}>{t('key.label')}</span>
        <code className={`account-key${shown && nsec ? '' : ' account-key-masked'}`} aria-labelledby={`${id}-label`} aria-describedby={`${id}-warning`} data-testid="new-nsec">
          {shown && nsec ? nsec : '••••••••••••••••••••••••'}
        </code>
        <div className="account-key-row">
          <button
            type="button"
            className="button button-secondary"
            aria-pressed={shown}
            disabled={!nsec}
            onClick={() => setShown((v) => !v)}
          >
            {shown ? t('key.hide') : t('key.reveal')}
          </button>
          <button
            type="button"
            className="button button-secondary"
            disabled={!nsec}
            onClick={() => nsec && void copyWithToast(nsec, t('key.copied'), t('key.copyFailed'))}
          >
            {t('key.copy')}
          </button>
          <button type="button" className="button button-secondary" disabled={!nsec} onClick={download}>
            {t('key.download')}
          </button>
        </div>
      </div>
      <div className="form-field">
        <span>{t('key.public')}</span>
        <code className="account-key">{npub}</code>
      </div>
      <div className="form-field">
        <label className="login-check">
          <input
            type="checkbox"
            name="keySaved"
            checked={saved}
            onChange={(e) => {
              setSaved(e.target.checked);
              if (e.target.checked) setSavedError(false);
            }}
            aria-invalid={savedError ? true : undefined}
            aria-describedby={savedError ? `${id}-saved-error` : undefined}
          />
          <span>{t('key.saved')}</span>
        </label>
        {savedError && (
          <p id={`${id}-saved-error`} className="form-error" role="alert">
            {t('key.savedRequired')}
          </p>
        )}
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <StepNav onBack={onBack} next={busy ? t('wizard.finishing') : t('wizard.finish')} busy={busy} />
    </form>
  );
}
