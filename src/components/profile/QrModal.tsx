/**
 * The profile's QR codes: the public key (npub) and, when the profile has one, the Lightning
 * address as a lightning: URI. Drawn as React SVG from the code's modules, so no markup string
 * is ever injected.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TabStrip } from '../TabStrip';
import { Modal } from '../Modal';
import { QrCode } from '../QrCode';

type QrTab = 'npub' | 'lightning';

export function QrModal({ npub, lud16, name, onClose }: { npub: string; lud16: string; name: string; onClose: () => void }) {
  const { t } = useTranslation('profile');
  const [tab, setTab] = useState<QrTab>('npub');
  const [copied, setCopied] = useState(false);
  const baseId = useId();

  const tabs: QrTab[] = lud16 ? ['npub', 'lightning'] : ['npub'];
  const value = tab === 'npub' ? npub : `lightning:${lud16}`;
  const shown = tab === 'npub' ? npub : lud16;
  const select = (k: QrTab) => {
    setTab(k);
    setCopied(false);
  };

  const copy = () => {
    void navigator.clipboard
      ?.writeText(shown)
      .then(() => setCopied(true))
      .catch(() => setCopied(false));
  };

  return (
    <Modal title={t('qr.title', { name })} onClose={onClose} className="modal-narrow qr-modal">
      <TabStrip
        tabs={tabs}
        selected={tab}
        onSelect={select}
        label={t('qr.tabs')}
        className="qr-tabs"
        tabClassName="qr-tab"
        tabId={(k) => `${baseId}-${k}`}
        panelId={() => `${baseId}-panel`}
      >
        {(k) => t(`qr.${k}`)}
      </TabStrip>
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
    </Modal>
  );
}
