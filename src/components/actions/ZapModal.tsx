/**
 * The custom zap (issue 14): the six presets of the zap settings with their emoji and messages,
 * a free amount, a comment as long as the recipient's LNURL service takes (`commentAllowed`), the
 * value in the person's currency at the wallet service's rate, and the wallet that will pay.
 * Sending closes it; the zap itself runs like the quick one (optimistic count, rollback with a toast).
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExchangeRate, ZapEndpointInfo } from '../../../core/types';
import { useWorkerRequest } from '../../lib/useWorkerRequest';
import { useAccount } from '../../lib/account';
import { MAX_MESSAGE_LENGTH, parseAmount, zapDefaultOf, zapOptionsOf } from '../../lib/zapSettings';
import { Modal } from '../Modal';
import { usePayer } from '../wallet/usePayer';
import { ACTIONS_NS, type ZapChoice, type ZapTarget } from './state';

const DEFAULT_CURRENCY = 'HUF';
const SATS_PER_BTC = 100_000_000;

/** The LNURL limits and the exchange rate, fetched once the modal opens. */
function useZapContext(target: ZapTarget, currency: string): { endpoint: ZapEndpointInfo | null; rate: ExchangeRate | null } {
  const { data } = useWorkerRequest(
    (api) => Promise.all([api.zapEndpoint(target.lud16, target.lud06).catch(() => ({ error: 'failed' })), api.exchangeRate(currency).catch(() => undefined)]),
    [target.lud16, target.lud06, currency],
  );
  const endpoint: ZapEndpointInfo | null = data?.[0] ?? null;
  const rate = data?.[1] ?? null;
  return { endpoint, rate };
}

export default function ZapModal({ target, name, onZap, onClose }: { target: ZapTarget; name: string; onZap: (c: ZapChoice) => void; onClose: () => void }) {
  const { t, i18n } = useTranslation(ACTIONS_NS);
  const settings = useAccount()?.settings.settings ?? {};
  const currency = typeof settings.currency === 'string' && /^[A-Z]{3}$/.test(settings.currency) ? settings.currency : DEFAULT_CURRENCY;
  const payer = usePayer();
  const presets = zapOptionsOf(settings);
  const initial = zapDefaultOf(settings);
  const [amount, setAmount] = useState(String(initial.amount));
  const [comment, setComment] = useState(initial.message);
  const [error, setError] = useState('');
  const { endpoint, rate } = useZapContext(target, currency);
  const fmt = new Intl.NumberFormat(i18n.language);
  const parsed = parseAmount(amount);
  const limits = endpoint && !('error' in endpoint) ? endpoint : null;
  // Before the service answers, the settings' own cap holds; a service that takes no comment gets none.
  const maxComment = limits ? Math.min(limits.commentAllowed, MAX_MESSAGE_LENGTH) : MAX_MESSAGE_LENGTH;
  const shownComment = [...comment].slice(0, maxComment).join('');
  const fiat =
    typeof parsed === 'number' && rate && rate.rate > 0
      ? new Intl.NumberFormat(i18n.language, { style: 'currency', currency: rate.currency }).format((parsed * rate.rate) / SATS_PER_BTC)
      : null;

  const send = (e: FormEvent) => {
    e.preventDefault();
    if (typeof parsed !== 'number') {
      setError(t('zap.invalidAmount'));
      return;
    }
    if (limits && (parsed < limits.minSats || parsed > limits.maxSats)) {
      setError(t('zap.outOfRange', { min: fmt.format(limits.minSats), max: fmt.format(limits.maxSats) }));
      return;
    }
    onClose();
    onZap({ amountSats: parsed, comment: shownComment });
  };

  return (
    <Modal title={t('zap.title')} onClose={onClose} className="modal-narrow zap-modal">
      <form className="zap-form" onSubmit={send}>
        <p className="zap-recipient">{t('zap.to', { name })}</p>
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
        <label className="form-field">
          <span>{t('zap.amount')}</span>
          <input className="form-input" inputMode="numeric" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </label>
        <p className="zap-fiat" data-testid="zap-fiat">
          {fiat ? t(rate?.demo ? 'zap.fiatDemo' : 'zap.fiat', { value: fiat }) : rate === null && endpoint !== null ? t('zap.noRate') : '\u00a0'}
        </p>
        {limits && limits.commentAllowed === 0 ? (
          <p className="zap-no-comment">{t('zap.noComment')}</p>
        ) : (
          <label className="form-field">
            <span>{t('zap.comment')}</span>
            <input className="form-input" value={shownComment} maxLength={maxComment} onChange={(e) => setComment(e.target.value)} />
            <span className="zap-counter" data-testid="zap-counter" aria-live="polite">
              {t('zap.counter', { count: [...shownComment].length, max: maxComment })}
            </span>
          </label>
        )}
        <p className="zap-payer">{payer ? t('zap.wallet', { name: payer.name }) : t('zap.noWallet')}</p>
        {endpoint && 'error' in endpoint && <p className="zap-warning">{t(endpoint.error === 'no-address' ? 'toast.cannotZap' : 'zap.unreachable')}</p>}
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
