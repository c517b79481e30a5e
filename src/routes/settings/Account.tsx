/**
 * /settings/account: the public key to share (copy, QR code) and the private key, which stays
 * hidden until asked for and comes with a warning. An extension's key is never readable here.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { QrCode } from '../../components/QrCode';
import { useAccount } from '../../lib/account';
import { openLogin } from '../../lib/overlays';
import { fullApi } from '../../lib/account';
import { toastSuccess } from '../../lib/toast';
import { PIN_MIN_LENGTH } from '../../../core/pin';
import { copyWithToast, useRevealedSecret } from '../../components/login/util';
import { PinField } from '../../components/login/PinField';
import '../../components/login/i18n';
import '../../styles/modal.css';
import '../../styles/login.css';

/**
 * A PIN-protected key is shown only to someone who types the PIN now: the key being unlocked
 * says only that someone knew the PIN once. The worker checks the PIN; this form only asks.
 */
function PinReveal({ onRevealed }: { onRevealed: (nsec: string) => void }) {
  const { t } = useTranslation('login');
  const id = useId();
  const [pin, setPin] = useState('');
  const [error, setError] = useState(false);
  const [working, setWorking] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setWorking(true);
    setError(false);
    try {
      const nsec = await (await fullApi()).revealSecret(pin);
      setPin('');
      if (nsec) onRevealed(nsec);
      else setError(true);
    } catch {
      setError(true);
    } finally {
      setWorking(false);
    }
  };
  return (
    <form className="account-pin-form" onSubmit={(e) => void submit(e)} noValidate>
      <PinField
        id={`${id}-pin`}
        label={t('account.revealPin')}
        name="reveal-pin"
        autoComplete="current-password"
        value={pin}
        onChange={setPin}
        error={error ? t('pin.wrong') : undefined}
      />
      <button type="submit" className="button button-secondary" disabled={working || pin === ''} aria-busy={working}>
        {t('account.reveal')}
      </button>
    </form>
  );
}

/** A new PIN for the stored key: the current one must open it, the new one must follow the 6-character rule. */
function ChangePin() {
  const { t } = useTranslation('login');
  const id = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<{ field: 'current' | 'next' | 'again'; text: string } | null>(null);
  const [working, setWorking] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (next.length < PIN_MIN_LENGTH) return setError({ field: 'next', text: t('modal.pinTooShort') });
    if (next !== again) return setError({ field: 'again', text: t('modal.pinMismatch') });
    setWorking(true);
    setError(null);
    try {
      const result = await (await fullApi()).changePin(current, next, again);
      if (result.ok) {
        setCurrent('');
        setNext('');
        setAgain('');
        toastSuccess(t('account.pinChanged'));
      } else if (result.code === 'invalid-pin') setError({ field: 'next', text: result.message ?? t('modal.pinTooShort') });
      else setError({ field: 'current', text: result.code === 'not-secure-env' ? t('modal.insecure') : t('pin.wrong') });
    } finally {
      setWorking(false);
    }
  };
  const field = (name: 'current' | 'next' | 'again', label: string, value: string, set: (v: string) => void, auto: 'current-password' | 'new-password') => (
    <PinField id={`${id}-${name}`} label={label} name={`pin-${name}`} autoComplete={auto} value={value} onChange={set} error={error?.field === name ? error.text : undefined} />
  );
  return (
    <form className="account-pin-form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('account.changePinTitle')}</h3>
      {field('current', t('account.currentPin'), current, setCurrent, 'current-password')}
      {field('next', t('account.newPin'), next, setNext, 'new-password')}
      {field('again', t('account.newPinAgain'), again, setAgain, 'new-password')}
      <button type="submit" className="button button-secondary" disabled={working || !current || !next} aria-busy={working}>
        {t('account.changePin')}
      </button>
    </form>
  );
}

function PrivateKey({ method, state, pinProtected, remoteRelays }: { method?: string; state: string; pinProtected: boolean; remoteRelays?: string[] }) {
  const { t } = useTranslation('login');
  const id = useId();
  const [shown, setShown] = useState(false);
  const [pinNsec, setPinNsec] = useState<string | null>(null);

  // The key is read from the worker only once it is to be shown, and forgotten when hidden.
  const plainNsec = useRevealedSecret(shown && !pinProtected);
  const nsec = pinProtected ? pinNsec : plainNsec;
  const toggle = () => {
    setPinNsec(null);
    setShown((v) => !v);
  };

  if (method === 'extension') return <p className="form-hint">{t('account.extension')}</p>;
  if (method === 'remote') {
    return (
      <div data-testid="account-remote-signer">
        <p>
          <strong>{t('remote.inUse')}</strong>
        </p>
        {remoteRelays && remoteRelays.length > 0 && <p className="form-hint">{t('remote.relays', { relays: remoteRelays.join(', ') })}</p>}
        <p className="form-hint">{t('remote.accountHint')}</p>
      </div>
    );
  }
  if (state === 'locked') return <p className="form-hint">{t('account.locked')}</p>;
  if (method !== 'local') return <p className="form-hint">{t('account.readOnly')}</p>;

  return (
    <>
      <p className="login-warning" id={`${id}-warning`}>
        {t('account.privateWarning')}
      </p>
      <div className="account-key-row">
        <code className={`account-key${shown && nsec ? '' : ' account-key-masked'}`} aria-describedby={`${id}-warning`} data-testid="account-nsec">
          {shown && nsec ? nsec : '••••••••••••••••••••••••'}
        </code>
        <button type="button" className="button button-secondary" aria-pressed={shown} onClick={toggle}>
          {shown ? t('account.hide') : t('account.reveal')}
        </button>
        {shown && nsec && (
          <button type="button" className="button button-secondary" onClick={() => void copyWithToast(nsec, t('account.nsecCopied'), t('account.copyFailed'))}>
            {t('account.copyNsec')}
          </button>
        )}
      </div>
      {pinProtected && shown && !nsec && <PinReveal onRevealed={setPinNsec} />}
    </>
  );
}

export default function AccountSettings() {
  const { t } = useTranslation('login');
  const account = useAccount();
  const login = account?.login;

  if (!account) return <div className="settings-loading" aria-busy="true" />;
  if (!login?.pubkey) {
    return (
      <section className="account-section">
        <p className="login-intro">{t('account.guest')}</p>
        <div className="account-key-row">
          <button type="button" className="button" onClick={openLogin}>
            {t('account.login')}
          </button>
          <Link href="/new" className="button button-secondary">
            {t('account.create')}
          </Link>
        </div>
      </section>
    );
  }

  return (
    <div className="account-settings">
      <section className="account-section" aria-labelledby="account-public">
        <h2 id="account-public">{t('account.publicTitle')}</h2>
        <p className="form-hint">{t('account.publicHint')}</p>
        <div className="account-key-row">
          <code className="account-key" data-testid="account-npub">
            {login.npub}
          </code>
          <button type="button" className="button button-secondary" onClick={() => void copyWithToast(login.npub, t('account.copied'), t('account.copyFailed'))}>
            {t('account.copyNpub')}
          </button>
        </div>
        <div className="account-qr">
          <QrCode value={`nostr:${login.npub}`} label={t('account.qr')} />
        </div>
      </section>
      <section className="account-section" aria-labelledby="account-private">
        <h2 id="account-private">{t('account.privateTitle')}</h2>
        <PrivateKey method={login.method} state={login.state} pinProtected={login.hasPinSecret} remoteRelays={login.remoteRelays} />
      </section>
      {login.hasPinSecret && login.method === 'local' && (
        <section className="account-section" id="pin" aria-label={t('account.changePinTitle')}>
          {login.weakPin && (
            <p className="alert" role="status">
              {t('account.weakPin')}
            </p>
          )}
          <ChangePin />
        </section>
      )}
    </div>
  );
}
