/**
 * The profile's QR codes: the public key (npub) and, when the profile has one, the Lightning
 * address as a lightning: URI. Drawn as React SVG from the code's modules, so no markup string
 * is ever injected.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QrCode } from '../QrCode';

type QrTab = 'npub' | 'lightning';

export function QrModal({ npub, lud16, name, onClose }: { npub: string; lud16: string; name: string; onClose: () => void }) {
  const { t } = useTranslation('profile');
  const ref = useRef<HTMLDialogElement>(null);
  const [tab, setTab] = useState<QrTab>('npub');
  const [copied, setCopied] = useState(false);
  const titleId = useId();
  const baseId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const tabs: QrTab[] = lud16 ? ['npub', 'lightning'] : ['npub'];
  const value = tab === 'npub' ? npub : `lightning:${lud16}`;
  const shown = tab === 'npub' ? npub : lud16;

  const copy = () => {
    void navigator.clipboard
      ?.writeText(shown)
      .then(() => setCopied(true))
      .catch(() => setCopied(false));
  };

  return (
    <dialog ref={ref} className="qr-modal" aria-labelledby={titleId} onClose={onClose} onCancel={onClose} onClick={(e) => e.target === ref.current && onClose()}>
      <div className="qr-modal-inner">
        <div className="qr-modal-head">
          <h2 id={titleId}>{t('qr.title', { name })}</h2>
          <button type="button" className="qr-close" onClick={onClose} aria-label={t('qr.close')}>
            ×
          </button>
        </div>
        <div role="tablist" className="qr-tabs" aria-label={t('qr.tabs')}>
          {tabs.map((k) => (
            <button
              key={k}
              type="button"
              role="tab"
              id={`${baseId}-${k}`}
              aria-selected={tab === k}
              aria-controls={`${baseId}-panel`}
              className="qr-tab"
              onClick={() => {
                setTab(k);
                setCopied(false);
              }}
            >
              {t(`qr.${k}`)}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-${tab}`} className="qr-panel">
          <QrCode className="qr-code" value={value} label={t(tab === 'npub' ? 'qr.npubImage' : 'qr.lightningImage')} />
          <p className="qr-value">{shown}</p>
          <button type="button" className="button" onClick={copy}>
            {copied ? t('qr.copied') : t('qr.copy')}
          </button>
          <span className="visually-hidden" role="status">
            {copied ? t('qr.copied') : ''}
          </span>
        </div>
      </div>
    </dialog>
  );
}
