import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { connect } from '../../worker-client';
import { MembershipError, ofKind, parseQuote, PLANS, signed, usdToHuf, usdToSats, useRates, type MembershipStatus, type PlanId, type Quote } from './membership';
import { PaymentView } from './PaymentView';
import { setChoice, useChoice } from './purchase';
import { SuccessView } from './SuccessView';
import { CacheKind } from '../../../core/kinds';

/** Asks for a quote (membership_purchase_product) and returns it, or throws the server's reason. */
export async function requestQuote(params: Record<string, unknown>): Promise<Quote> {
  const reply = await signed('membership_purchase_product', params);
  const quote = parseQuote(ofKind(reply, CacheKind.WALLET_OPERATION));
  if (!quote) throw new MembershipError('');
  return quote;
}

/** Quote, payment and success, shared by the subscription and the support steps. */
export function useCheckout() {
  const [quote, setQuote] = useState<Quote | null>(null);
  const [paid, setPaid] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const start = useCallback(async (params: Record<string, unknown>) => {
    setBusy(true);
    setError('');
    try {
      setQuote(await requestQuote(params));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }, []);
  const onPaid = useCallback(() => {
    setPaid(true);
    // Every tab's account snapshot takes the new tier from the worker.
    void connect().then((api) => api.refreshMembership());
  }, []);
  return { quote, paid, busy, error, start, onPaid, reset: () => setQuote(null) };
}

export default function SubscriptionStep({ pubkey, status }: { pubkey: string; status: MembershipStatus }) {
  const { t, i18n } = useTranslation('premium');
  const locale = i18n.resolvedLanguage ?? 'hu';
  const rates = useRates();
  const choice = useChoice();
  const checkout = useCheckout();
  // A member renewing keeps their name; a newcomer brings the one chosen on the first step.
  const renewing = status.tier === 'premium' && !!status.name;
  const name = renewing ? status.name : choice.name;
  const plan = PLANS.find((p) => p.id === choice.plan) ?? PLANS[1];
  const total = plan.months * plan.usdPerMonth;
  const params = { name, product_id: plan.id, receiver_pubkey: pubkey };

  if (checkout.paid) return <SuccessView legend={false} />;
  if (checkout.quote) {
    return <PaymentView quote={checkout.quote} onPaid={checkout.onPaid} onNewQuote={() => void checkout.start(params)} onCancel={checkout.reset} />;
  }
  if (!name) {
    return (
      <section className="premium-step">
        <p>{t('plan.noName')}</p>
        <Link href="/premium/name" className="button">
          {t('plan.pickName')}
        </Link>
      </section>
    );
  }
  const price = (usd: number) =>
    rates === null ? t('plan.ratesLoading') : rates === 'error' ? t('plan.ratesFailed') : `${t('plan.sats', { sats: usdToSats(usd, rates).toLocaleString(locale) })} · ${t('plan.huf', { huf: usdToHuf(usd, rates).toLocaleString(locale) })}`;
  return (
    <section className="premium-step" aria-labelledby="premium-plan-heading">
      <h2 id="premium-plan-heading">{t('plan.heading')}</h2>
      <div className="premium-plans" role="radiogroup" aria-labelledby="premium-plan-heading">
        {PLANS.map((p) => {
          const sum = p.months * p.usdPerMonth;
          return (
            <label key={p.id} className={`premium-plan${p.id === plan.id ? ' is-selected' : ''}`} data-testid={`premium-plan-${p.months}`}>
              <input type="radio" name="premium-plan" value={p.id} checked={p.id === plan.id} onChange={() => setChoice({ plan: p.id as PlanId })} />
              <span className="premium-plan-months">{t('plan.months', { count: p.months })}</span>
              <span>{t('plan.perMonth', { usd: p.usdPerMonth })}</span>
              <span className="premium-plan-total">{t('plan.total', { usd: sum })}</span>
              <span className="premium-muted">{price(sum)}</span>
            </label>
          );
        })}
      </div>
      <h3>{t('plan.summary')}</h3>
      <dl className="premium-summary" data-testid="premium-summary">
        <dt>{t('plan.summaryName')}</dt>
        <dd>{name}</dd>
        <dt>{renewing ? t('plan.summaryRenew') : t('plan.summaryPlan')}</dt>
        <dd>{t('plan.months', { count: plan.months })}</dd>
        <dt>{t('plan.summaryPrice')}</dt>
        <dd>
          {t('plan.total', { usd: total })} ({price(total)})
        </dd>
      </dl>
      {renewing && <p className="premium-muted">{t('plan.renewNote')}</p>}
      {checkout.error && (
        <p className="form-error" role="alert">
          {checkout.error}
        </p>
      )}
      <button type="button" className="button" disabled={checkout.busy} onClick={() => void checkout.start(params)}>
        {checkout.busy ? t('plan.creating') : t('plan.toPayment')}
      </button>
    </section>
  );
}
