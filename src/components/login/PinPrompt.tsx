/**
 * PIN entry for a stored PIN-protected key, and the forgot-PIN dialog. Opens by itself whenever
 * the worker's login is in pinPrompt (at start, or when an action needs the key); a wrong PIN
 * keeps the dialog open for another try.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fullApi } from '../../lib/account';
import { toastSuccess } from '../../lib/toast';
import { stopPushBeforeLogout } from '../../lib/push';
import { Modal } from '../Modal';
import { PinField } from './PinField';
import './i18n';
import '../../styles/login.css';

function ForgotPin({ onBack, onDone }: { onBack: () => void; onDone: () => void }) {
  const { t } = useTranslation('login');
  const [working, setWorking] = useState(false);
  const forget = async () => {
    setWorking(true);
    try {
      // The key is locked: the browser drops its subscription, the push service's 410 tells the server.
      await stopPushBeforeLogout({ sign: false });
      await (await fullApi()).logout();
      toastSuccess(t('forgot.done'));
      onDone();
    } finally {
      setWorking(false);
    }
  };
  return (
    <Modal
      title={t('forgot.title')}
      className="modal-narrow forgot-pin"
      onClose={onBack}
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onBack} disabled={working}>
            {t('forgot.back')}
          </button>
          <button type="button" className="button button-danger" onClick={() => void forget()} disabled={working} aria-busy={working}>
            {t('forgot.confirm')}
          </button>
        </>
      }
    >
      <div className="login-warning" role="note">
        <p>{t('forgot.warning')}</p>
        <p>
          <strong>{t('forgot.noRecovery')}</strong>
        </p>
      </div>
    </Modal>
  );
}

export default function PinPrompt() {
  const { t } = useTranslation('login');
  const id = useId();
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const [forgot, setForgot] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setWorking(true);
    setError(null);
    try {
      const result = await (await fullApi()).unlockPin(pin);
      // On success the snapshot leaves pinPrompt and the gate unmounts this dialog.
      if (!result.ok) setError(result.code === 'not-secure-env' ? t('modal.insecure') : t('pin.wrong'));
      else setPin('');
    } catch {
      setError(t('pin.wrong'));
    } finally {
      setWorking(false);
    }
  };

  const cancel = () => void fullApi().then((api) => api.cancelPin());

  if (forgot) return <ForgotPin onBack={() => setForgot(false)} onDone={() => setForgot(false)} />;

  return (
    <Modal title={t('pin.title')} className="modal-narrow pin-prompt" onClose={cancel} initialFocus="input">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <p className="login-intro">{t('pin.intro')}</p>
        <PinField
          id={`${id}-pin`}
          label={t('pin.label')}
          name="pin"
          autoComplete="current-password"
          value={pin}
          onChange={setPin}
          error={error ?? undefined}
        />
        <div className="pin-actions">
          <button type="button" className="button button-secondary" onClick={cancel} disabled={working}>
            {t('pin.cancel')}
          </button>
          <button type="submit" className="button" disabled={working || pin === ''} aria-busy={working}>
            {working ? t('pin.working') : t('pin.submit')}
          </button>
        </div>
        <button type="button" className="login-link-button" onClick={() => setForgot(true)}>
          {t('pin.forgot')}
        </button>
      </form>
    </Modal>
  );
}
