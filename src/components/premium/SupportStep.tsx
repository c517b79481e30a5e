import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { hufToUsd, LEGEND_MIN_HUF, LEGEND_PRODUCT, usdToSats, useRates, type MembershipStatus } from './membership';
import { PaymentView } from './PaymentView';
import { useChoice } from './purchase';
import { useCheckout } from './SubscriptionStep';
import { SuccessView } from './SuccessView';

/** Support (a donation) that makes the supporter a legend from 100,000 Ft: the legend-premium product. */
export default function SupportStep({ pubkey, status }: { pubkey: string; status: MembershipStatus }) {
  const { t, i18n } = useTranslation('premium');
  const locale = i18n.resolvedLanguage ?? 'hu';
  const id = useId();
  const rates = useRates();
  const choice = useChoice();
  const checkout = useCheckout();
  const [huf, setHuf] = useState(LEGEND_MIN_HUF);
  const name = status.name || choice.name;
  const ready = rates !== null && rates !== 'error';
  // Rounded up to the cent, so the server's own conversion never lands below the threshold.
  const usd = ready ? Math.ceil(hufToUsd(huf, rates) * 100) / 100 : 0;
  const enough = huf >= LEGEND_MIN_HUF;
  const params = { name, product_id: LEGEND_PRODUCT, receiver_pubkey: pubkey, amount_usd: usd, onchain: false };

  if (checkout.paid) return <SuccessView legend />;
  if (checkout.quote) return <PaymentView quote={checkout.quote} onPaid={checkout.onPaid} onNewQuote={() => void checkout.start(params)} onCancel={checkout.reset} />;
  return (
    <section className="premium-step" aria-labelledby="premium-support-heading">
      <h2 id="premium-support-heading">{t('support.heading')}</h2>
      <p>{t('support.text')}</p>
      {!name ? (
        <p>
          {t('support.needsName')}{' '}
          <Link href="/premium/name" className="button">
            {t('plan.pickName')}
          </Link>
        </p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (ready && enough) void checkout.start(params);
          }}
        >
          <label htmlFor={id} className="form-label">
            {t('support.amountLabel')}
          </label>
          <input id={id} className="form-input" type="number" inputMode="numeric" min={1} step={1} value={huf} onChange={(e) => setHuf(Math.max(0, Math.floor(Number(e.target.value) || 0)))} />
          <p className="premium-muted" role="status">
            {rates === null
              ? t('plan.ratesLoading')
              : rates === 'error'
                ? t('plan.ratesFailed')
                : t('support.equals', { usd: usd.toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }), sats: usdToSats(usd, rates).toLocaleString(locale) })}
          </p>
          <p className={enough ? 'premium-name-msg is-ok' : 'premium-name-msg is-bad'}>{enough ? t('support.legendReached') : t('support.belowLegend')}</p>
          <p className="premium-muted">{t('support.onchainNone')}</p>
          {checkout.error && (
            <p className="form-error" role="alert">
              {checkout.error}
            </p>
          )}
          <button type="submit" className="button" disabled={!ready || !enough || checkout.busy}>
            {checkout.busy ? t('plan.creating') : t('support.donate')}
          </button>
        </form>
      )}
    </section>
  );
}
