/**
 * Step 1: the username (spec §5 rule) and acceptance of the community values, both required.
 * Passing it creates the account's key and signs in with it, so later steps can upload.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { usernameProblem, type UsernameProblem } from '../../lib/newAccount';
import { Modal } from '../Modal';
import { StepNav } from './StepIndicator';

interface Props {
  username: string;
  accepted: boolean;
  /** Signed in with another account now: continuing replaces it. */
  replacesLogin: boolean;
  busy: boolean;
  error: string | null;
  onChange: (patch: { username?: string; acceptedValues?: boolean }) => void;
  onNext: () => void;
}

function ValuesDocument({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('login');
  return (
    <Modal
      title={t('username.valuesTitle')}
      onClose={onClose}
      footer={
        <button type="button" className="button" onClick={onClose}>
          {t('username.valuesClose')}
        </button>
      }
    >
      <ul className="wizard-values">
        {[1, 2, 3, 4, 5].map((n) => (
          <li key={n}>{t(`username.values${n}`)}</li>
        ))}
      </ul>
    </Modal>
  );
}

export function UsernameStep({ username, accepted, replacesLogin, busy, error, onChange, onNext }: Props) {
  const { t } = useTranslation('login');
  const id = useId();
  const [problem, setProblem] = useState<UsernameProblem | undefined>();
  const [acceptError, setAcceptError] = useState(false);
  const [valuesOpen, setValuesOpen] = useState(false);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = usernameProblem(username);
    setProblem(p);
    setAcceptError(!accepted);
    if (!p && accepted) onNext();
  };

  return (
    <form onSubmit={submit} noValidate className="wizard-form">
      <p className="login-intro">{t('username.intro')}</p>
      <div className="form-field">
        <label htmlFor={`${id}-name`}>{t('username.label')}</label>
        <input
          id={`${id}-name`}
          className="form-input"
          name="username"
          autoComplete="username"
          autoCapitalize="off"
          spellCheck={false}
          value={username}
          onChange={(e) => {
            onChange({ username: e.target.value });
            // Say at once when the problem is fixed; a new problem waits for the next submit.
            if (problem && !usernameProblem(e.target.value)) setProblem(undefined);
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${problem ? `${id}-name-error ` : ''}${id}-name-hint`}
          required
        />
        {problem && (
          <p id={`${id}-name-error`} className="form-error" role="alert">
            {t(`username.${problem}`)}
          </p>
        )}
        <p id={`${id}-name-hint`} className="form-hint">
          {t('username.hint')}
        </p>
      </div>
      <div className="form-field">
        <label className="login-check">
          <input
            type="checkbox"
            name="acceptValues"
            checked={accepted}
            onChange={(e) => {
              onChange({ acceptedValues: e.target.checked });
              if (e.target.checked) setAcceptError(false);
            }}
            aria-invalid={acceptError ? true : undefined}
            aria-describedby={acceptError ? `${id}-accept-error` : undefined}
          />
          <span>{t('username.accept')}</span>
        </label>
        <button type="button" className="login-link-button wizard-values-link" onClick={() => setValuesOpen(true)}>
          {t('username.readValues')}
        </button>
        {acceptError && (
          <p id={`${id}-accept-error`} className="form-error" role="alert">
            {t('username.acceptRequired')}
          </p>
        )}
      </div>
      {replacesLogin && <p className="form-hint wizard-notice">{t('wizard.signedInWarning')}</p>}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <StepNav next={t('wizard.next')} busy={busy} />
      {valuesOpen && <ValuesDocument onClose={() => setValuesOpen(false)} />}
    </form>
  );
}
