/**
 * /settings/account: the public key to share (copy, QR code) and the private key, which stays
 * hidden until asked for and comes with a warning. An extension's key is never readable here.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import qrcode from 'qrcode-generator';
import { fullApi, useAccount } from '../../lib/account';
import { openLogin } from '../../lib/overlays';
import { copyWithToast } from '../../components/login/util';
import '../../components/login/i18n';
import '../../styles/modal.css';
import '../../styles/login.css';

function QrCode({ value, label }: { value: string; label: string }) {
  const { path, size } = useMemo(() => {
    const qr = qrcode(0, 'M');
    qr.addData(value);
    qr.make();
    const count = qr.getModuleCount();
    let d = '';
    for (let r = 0; r < count; r++) for (let c = 0; c < count; c++) if (qr.isDark(r, c)) d += `M${c + 4} ${r + 4}h1v1h-1z`;
    return { path: d, size: count + 8 };
  }, [value]);
  return (
    <svg viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

function PrivateKey({ method, state }: { method?: string; state: string }) {
  const { t } = useTranslation('login');
  const id = useId();
  const [nsec, setNsec] = useState<string | null>(null);
  const [shown, setShown] = useState(false);

  // The key is read from the worker only once it is to be shown, and forgotten when hidden.
  useEffect(() => {
    if (!shown) return setNsec(null);
    let live = true;
    void fullApi()
      .then((api) => api.revealSecret())
      .then((value) => live && setNsec(value));
    return () => {
      live = false;
    };
  }, [shown]);

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
