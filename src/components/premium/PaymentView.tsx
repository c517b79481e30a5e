import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { CacheObject } from '../../../core/types';
import { confirmDialog } from '../../lib/overlays';
import { tabId, connect } from '../../worker-client';
import { useWorkerWatch } from '../../lib/useWorkerWatch';
import { CopyButton } from '../embeds/CopyButton';
import { QrCode } from '../QrCode';
import { useWallet } from '../wallet/useWallet';
import { parseQuote, type Quote } from './membership';

/**
 * Watches the quote (membership_purchase_monitor pushes its state each second while it is
 * pending, then the final one) until it is paid or expired.
 */
function useQuoteStatus(quote: Quote): Quote['status'] {
  const [status, setStatus] = useState<Quote['status']>(quote.status);
  useWorkerWatch<CacheObject>(
    (api, cb) => api.subscribe(tabId, 'membership_purchase_monitor', { membership_quote_id: quote.id }, cb),
    (api, h) => api.unsubscribe(h),
    [quote.id],
    {
      onValue: (o) => {
        const q = parseQuote(o);
        if (q && q.id === quote.id) setStatus(q.status);
      },
    },
  );
  return status;
}

/** A clock that ticks each second, for the invoice's countdown. */
function useSecondClock(): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000));
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Math.floor(Date.now() / 1000)), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

function remaining(seconds: number): string {
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

/** The invoice of a quote: QR, copy, pay with the connected wallet (NWC), live status, expiry. */
export function PaymentView({ quote, onPaid, onNewQuote, onCancel }: { quote: Quote; onPaid: () => void; onNewQuote: () => void; onCancel: () => void }) {
  const { t, i18n } = useTranslation('premium');
  const locale = i18n.resolvedLanguage ?? 'hu';
  const status = useQuoteStatus(quote);
  const now = useSecondClock();
  const wallet = useWallet();
  const payer = wallet?.connections.find((c) => c.id === wallet.active);
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState('');
  const expired = status === 'expired' || (status === 'pending' && quote.expiresAt > 0 && now >= quote.expiresAt);

  useEffect(() => {
    if (status === 'paid') onPaid();
  }, [status, onPaid]);

  const sats = quote.sats.toLocaleString(locale);
  const pay = async () => {
    if (!payer) return;
    const ok = await confirmDialog({
      title: t('pay.confirmTitle'),
      message: t('pay.confirmMessage', { sats, wallet: payer.name }),
      confirmLabel: t('pay.withWallet'),
      cancelLabel: t('pay.cancel'),
    });
    if (!ok) return;
    setPaying(true);
    setError('');
    const result = await (await connect()).payInvoice(quote.invoice).catch(() => ({ status: 'failed' as const, reason: '' }));
    setPaying(false);
    // A paid invoice shows through the monitor's push; only a failure needs saying here.
    if (result.status !== 'paid') setError(result.reason ? t('pay.payFailed', { reason: result.reason }) : t('pay.payFailedPlain'));
  };

  if (expired) {
    return (
      <section className="premium-pay" aria-labelledby="premium-pay-heading" data-testid="premium-payment">
        <h2 id="premium-pay-heading">{t('pay.heading')}</h2>
        <p role="alert">{t('pay.expired')}</p>
        <button type="button" className="button" onClick={onNewQuote}>
          {t('pay.newInvoice')}
        </button>
      </section>
    );
  }
  return (
    <section className="premium-pay" aria-labelledby="premium-pay-heading" data-testid="premium-payment">
      <h2 id="premium-pay-heading">{t('pay.heading')}</h2>
      <p className="premium-pay-amount">{t('pay.amount', { sats, usd: quote.usd })}</p>
      <p>{t('pay.scan')}</p>
      <QrCode value={`lightning:${quote.invoice}`} label={t('pay.qr')} className="premium-qr" />
      <code className="premium-invoice" data-testid="premium-invoice">
        {quote.invoice}
      </code>
      <div className="premium-pay-actions">
        <CopyButton value={quote.invoice} label={t('pay.copy')} copiedLabel={t('pay.copied')} />
        {payer ? (
          <button type="button" className="button" disabled={paying} onClick={() => void pay()}>
            {paying ? t('pay.paying') : t('pay.withWallet')}
          </button>
        ) : (
          <span className="premium-muted">
            {t('pay.noWallet')} <Link href="/settings/nwc">{t('pay.walletSettings')}</Link>
          </span>
        )}
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {t('pay.cancel')}
        </button>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <p className="premium-muted" role="status">
        {t('pay.waiting')} {quote.expiresAt > 0 && t('pay.expiresIn', { time: remaining(quote.expiresAt - now) })}
      </p>
    </section>
  );
}
