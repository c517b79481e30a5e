/**
 * The custom zap (issue 14): the six presets of the zap settings with their emoji and messages,
 * a free amount, a comment, and the wallet that will pay. Sending closes it; the zap itself runs
 * like the quick one (optimistic count, rollback with a toast).
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeedNote } from '../../../core/types';
import { useAccount } from '../../lib/account';
import { MAX_MESSAGE_LENGTH, parseAmount, zapDefaultOf, zapOptionsOf } from '../../lib/zapSettings';
import { Modal } from '../Modal';
import { useWallet } from '../wallet/useWallet';
import { ACTIONS_NS, zapNote } from './state';

export default function ZapModal({ note, onClose }: { note: FeedNote; onClose: () => void }) {
  const { t, i18n } = useTranslation(ACTIONS_NS);
  const settings = useAccount()?.settings.settings ?? {};
  const wallet = useWallet();
  const presets = zapOptionsOf(settings);
  const initial = zapDefaultOf(settings);
  const [amount, setAmount] = useState(String(initial.amount));
  const [comment, setComment] = useState(initial.message);
  const [error, setError] = useState('');
  const payer = wallet?.connections.find((c) => c.id === wallet.active);
  const fmt = new Intl.NumberFormat(i18n.language);
  const parsed = parseAmount(amount);

  const send = (e: FormEvent) => {
    e.preventDefault();
    if (typeof parsed !== 'number') {
      setError(t('zap.invalidAmount'));
      return;
    }
    onClose();
    void zapNote(note, { amountSats: parsed, comment });
  };

  return (
    <Modal title={t('zap.title')} onClose={onClose} className="modal-narrow zap-modal">
      <form className="zap-form" onSubmit={send}>
        <div className="zap-presets" role="group" aria-label={t('zap.amount')}>
          {presets.map((p, i) => (
            <button
              key={i}
              type="button"
              className={`button button-secondary zap-preset${String(p.amount) === amount.replace(/\s/g, '') ? ' is-active' : ''}`}
              aria-pressed={String(p.amount) === amount.replace(/\s/g, '')}
              onClick={() => {
                setAmount(String(p.amount));
                if (p.message) setComment(p.message);
                setError('');
              }}
            >
              {p.emoji && <span aria-hidden="true">{p.emoji} </span>}
              {fmt.format(p.amount)}
            </button>
          ))}
        </div>
        <label>
          {t('zap.amount')}
          <input inputMode="numeric" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </label>
        <label>
          {t('zap.comment')}
          <input value={comment} maxLength={MAX_MESSAGE_LENGTH} onChange={(e) => setComment(e.target.value)} />
        </label>
        <p className="zap-payer">{payer ? t('zap.wallet', { name: payer.name }) : t('zap.noWallet')}</p>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('zap.cancel')}
          </button>
          <button type="submit" className="button">
            {t('zap.send', { sats: typeof parsed === 'number' ? fmt.format(parsed) : '…' })}
          </button>
        </div>
      </form>
    </Modal>
  );
}
