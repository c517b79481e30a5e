/**
 * The login modal: the signer extension when this tab has one, a private key (nsec) that can
 * be protected with a PIN, or a remote signer's bunker:// address (NIP-46). Every refusal keeps what was typed and says why in Hungarian; the
 * modal closes once the worker reports a signed-in account.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { fullApi } from '../../lib/account';
import { remoteSignerError } from '../../lib/remoteSigner';
import { toastSuccess } from '../../lib/toast';
import { MSG_PIN_TOO_SHORT } from '../../../core/keys';
import { PIN_MIN_LENGTH } from '../../../core/pin';
import type { ActionResult, LoginRequest } from '../../../core/types';
import { Modal } from '../Modal';
import { QrCode } from '../QrCode';
import { hasExtension } from './util';
import './i18n';
import '../../styles/login.css';

type Field = 'nsec' | 'pin' | 'pinAgain' | 'form' | 'bunker';

/** Which field a worker refusal belongs to, and its message key. */
function refusal(result: ActionResult, viaExtension: boolean): { field: Field; key: string } {
  if (result.code === 'invalid-nsec') return { field: 'nsec', key: 'modal.invalidNsec' };
  if (result.code === 'invalid-pin') {
    return result.message === MSG_PIN_TOO_SHORT ? { field: 'pin', key: 'modal.pinTooShort' } : { field: 'pinAgain', key: 'modal.pinMismatch' };
  }
  if (result.code === 'not-secure-env') return { field: 'pin', key: 'modal.insecure' };
  if (viaExtension || result.code === 'no_nostr_extension') return { field: 'form', key: 'modal.noExtension' };
  return { field: 'form', key: 'modal.failed' };
}

export default function LoginModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('login');
  const id = useId();
  const [nsec, setNsec] = useState('');
  const [showNsec, setShowNsec] = useState(false);
  const [usePin, setUsePin] = useState(false);
  const [pin, setPin] = useState('');
  const [pinAgain, setPinAgain] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [bunker, setBunker] = useState('');
  const [offer, setOffer] = useState<string | null>(null);
  const offered = useRef(false);

  // A QR code still on show when the dialog closes is withdrawn, so no signer app can use it later.
  useEffect(
    () => () => {
      if (offered.current) void fullApi().then((api) => api.cancelNostrConnect());
    },
    [],
  );
  const [working, setWorking] = useState<'extension' | 'nsec' | 'bunker' | null>(null);
  const extension = hasExtension();

  const run = async (request: LoginRequest) => {
    const viaExtension = request.method === 'extension';
    setWorking(viaExtension ? 'extension' : request.method === 'bunker' ? 'bunker' : 'nsec');
    setErrors({});
    try {
      const result = await (await fullApi()).login(request);
      if (result.ok) {
        toastSuccess(t('modal.success'));
        onClose();
        return;
      }
      const remote = remoteSignerError(result.code);
      if (remote) return setErrors({ bunker: remote });
      const { field, key } = refusal(result, viaExtension);
      setErrors({ [field]: t(key) });
    } catch {
      setErrors({ form: t('modal.failed') });
    } finally {
      setWorking(null);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // The PIN rules are checked here too, so the message appears without a round trip.
    if (usePin && pin.length < PIN_MIN_LENGTH) return setErrors({ pin: t('modal.pinTooShort') });
    if (usePin && pin !== pinAgain) return setErrors({ pinAgain: t('modal.pinMismatch') });
    if (nsec.trim() === '') return setErrors({ nsec: t('modal.invalidNsec') });
    void run(usePin ? { method: 'nsec', nsec: nsec.trim(), pin, pinConfirm: pinAgain } : { method: 'nsec', nsec: nsec.trim() });
  };

  const showQr = async () => {
    setErrors({});
    try {
      const uri = await (await fullApi()).nostrConnect();
      offered.current = true;
      setOffer(uri);
      await run({ method: 'bunker', uri });
    } catch {
      setErrors({ bunker: t('modal.failed') });
    } finally {
      offered.current = false;
      setOffer(null);
    }
  };

  const submitBunker = (e: FormEvent) => {
    e.preventDefault();
    if (!bunker.trim().startsWith('bunker://')) return setErrors({ bunker: t('remote.errors.bunker-bad-uri') });
    void run({ method: 'bunker', uri: bunker.trim() });
  };

  const described = (field: Field, hint?: string) => [errors[field] ? `${id}-${field}-error` : '', hint ?? ''].filter(Boolean).join(' ') || undefined;
  const errorText = (field: Field) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} className="form-error" role="alert">
        {errors[field]}
      </p>
    ) : null;

  return (
    <Modal title={t('modal.title')} className="modal-narrow login-modal" onClose={onClose} initialFocus="[data-autofocus]">
      {extension && (
        <div className="login-extension">
          <button
            type="button"
            className="button login-wide"
            data-autofocus
            onClick={() => void run({ method: 'extension' })}
            disabled={working !== null}
            aria-busy={working === 'extension'}
            aria-describedby={`${id}-ext-hint`}
          >
            {working === 'extension' ? t('modal.working') : t('modal.extension')}
          </button>
          <p id={`${id}-ext-hint`} className="form-hint">
            {t('modal.extensionHint')}
          </p>
          <p className="login-or" aria-hidden="true">
            <span>{t('modal.or')}</span>
          </p>
        </div>
      )}
      {errorText('form')}
      <form className="login-form" onSubmit={submit} noValidate>
        <div className="form-field">
          <label htmlFor={`${id}-nsec`}>{t('modal.nsecLabel')}</label>
          <div className="login-secret">
            <input
              id={`${id}-nsec`}
              className="form-input"
              type={showNsec ? 'text' : 'password'}
              name="nsec"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              placeholder="nsec1…"
              value={nsec}
              data-autofocus={extension ? undefined : true}
              onChange={(e) => setNsec(e.target.value)}
              aria-invalid={errors.nsec ? true : undefined}
              aria-describedby={described('nsec', `${id}-nsec-hint`)}
            />
            <button
              type="button"
              className="button button-secondary login-toggle"
              aria-pressed={showNsec}
              aria-label={showNsec ? t('modal.hideKey') : t('modal.showKey')}
              onClick={() => setShowNsec((v) => !v)}
            >
              {showNsec ? t('modal.hide') : t('modal.show')}
            </button>
          </div>
          {errorText('nsec')}
          <p id={`${id}-nsec-hint`} className="form-hint">
            {t('modal.nsecHint')}
          </p>
        </div>

        <label className="login-check">
          <input type="checkbox" checked={usePin} onChange={(e) => setUsePin(e.target.checked)} aria-controls={`${id}-pin-fields`} aria-expanded={usePin} />
          <span>{t('modal.setPin')}</span>
        </label>
        {usePin && (
          <fieldset id={`${id}-pin-fields`} className="login-pin-fields">
            <legend className="form-hint">{t('modal.pinHint')}</legend>
            <div className="form-field">
              <label htmlFor={`${id}-pin`}>{t('modal.pin')}</label>
              <input
                id={`${id}-pin`}
                className="form-input"
                type="password"
                name="pin"
                autoComplete="new-password"
                value={pin}
                onChange={(e) => setPin(e.target.value)}
                aria-invalid={errors.pin ? true : undefined}
                aria-describedby={described('pin')}
              />
              {errorText('pin')}
            </div>
            <div className="form-field">
              <label htmlFor={`${id}-pinAgain`}>{t('modal.pinAgain')}</label>
              <input
                id={`${id}-pinAgain`}
                className="form-input"
                type="password"
                name="pinAgain"
                autoComplete="new-password"
                value={pinAgain}
                onChange={(e) => setPinAgain(e.target.value)}
                aria-invalid={errors.pinAgain ? true : undefined}
                aria-describedby={described('pinAgain')}
              />
              {errorText('pinAgain')}
            </div>
          </fieldset>
        )}

        <button type="submit" className="button login-wide" disabled={working !== null} aria-busy={working === 'nsec'}>
          {working === 'nsec' ? t('modal.working') : t('modal.submit')}
        </button>
      </form>
      <p className="login-or" aria-hidden="true">
        <span>{t('modal.or')}</span>
      </p>
      <form className="login-form login-remote" onSubmit={submitBunker} noValidate aria-labelledby={`${id}-remote-title`}>
        <h3 id={`${id}-remote-title`} className="login-remote-title">
          {t('remote.title')}
        </h3>
        <div className="form-field">
          <label htmlFor={`${id}-bunker`}>{t('remote.label')}</label>
          <input
            id={`${id}-bunker`}
            className="form-input"
            type="text"
            name="bunker"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            placeholder="bunker://…"
            value={bunker}
            onChange={(e) => setBunker(e.target.value)}
            aria-invalid={errors.bunker ? true : undefined}
            aria-describedby={described('bunker', `${id}-bunker-hint`)}
          />
          {errorText('bunker')}
          <p id={`${id}-bunker-hint`} className="form-hint">
            {t('remote.hint')}
          </p>
        </div>
        <button type="submit" className="button button-secondary login-wide" disabled={working !== null} aria-busy={working === 'bunker'}>
          {working === 'bunker' && !offer ? t('remote.working') : t('remote.submit')}
        </button>
        <button type="button" className="button button-secondary login-wide" disabled={working !== null} onClick={() => void showQr()}>
          {t('remote.qr')}
        </button>
        {offer && (
          <div className="login-qr" data-testid="nostrconnect-qr" data-uri={offer}>
            <QrCode value={offer} label={t('remote.qrLabel')} />
            <p className="form-hint" role="status">
              {t('remote.qrWaiting')}
            </p>
          </div>
        )}
      </form>
      <p className="login-new">
        <Link href="/new" onClick={onClose}>
          {t('modal.noAccount')}
        </Link>
      </p>
    </Modal>
  );
}
