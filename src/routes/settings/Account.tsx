/**
 * /settings/account: the public key to share (copy, QR code) and the private key, which stays
 * hidden until asked for and comes with a warning. An extension's key is never readable here.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { QrCode } from '../../components/QrCode';
import { useAccount } from '../../lib/account';
import { openLogin } from '../../lib/overlays';
import { copyWithToast, useRevealedSecret } from '../../components/login/util';
import '../../components/login/i18n';
import '../../styles/modal.css';
import '../../styles/login.css';

function PrivateKey({ method, state }: { method?: string; state: string }) {
  const { t } = useTranslation('login');
  const id = useId();
  const [shown, setShown] = useState(false);

  // The key is read from the worker only once it is to be shown, and forgotten when hidden.
  const nsec = useRevealedSecret(shown);

  if (method === 'extension') return <p className="form-hint">{t('account.extension')}</p>;
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
        <button type="button" className="button button-secondary" aria-pressed={shown} onClick={() => setShown((v) => !v)}>
          {shown ? t('account.hide') : t('account.reveal')}
        </button>
        {shown && nsec && (
          <button type="button" className="button button-secondary" onClick={() => void copyWithToast(nsec, t('account.nsecCopied'), t('account.copyFailed'))}>
            {t('account.copyNsec')}
          </button>
        )}
      </div>
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
        <PrivateKey method={login.method} state={login.state} />
      </section>
    </div>
  );
}
