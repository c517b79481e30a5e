import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { contentOf, formatDay, ofKind, signed } from './membership';
import { PAGE, PageFooter, usePages } from './paging';
import { CacheKind } from '../../../core/kinds';

interface Order {
  purchased_at: number;
  product_label: string;
  amount_btc: string;
  amount_usd: string;
}


/** membership_purchase_history, 20 a page (spec "purchase history (limit 20)"). */
export function OrderHistory() {
  const { t, i18n } = useTranslation('premium');
  const locale = i18n.resolvedLanguage ?? 'hu';
  const fetchPage = useCallback(
    async (offset: number) => contentOf<Order[]>(ofKind(await signed('membership_purchase_history', { limit: PAGE, offset }), CacheKind.ORDER_HISTORY)) ?? [],
    [],
  );
  const { items: orders, state, more, load } = usePages(fetchPage);
  return (
    <section className="premium-history" aria-labelledby="premium-history-heading">
      <h3 id="premium-history-heading">{t('history.heading')}</h3>
      {state === 'ready' && orders.length === 0 && <p>{t('history.empty')}</p>}
      {orders.length > 0 && (
        <table className="premium-table" data-testid="premium-history">
          <thead>
            <tr>
              <th scope="col">{t('history.date')}</th>
              <th scope="col">{t('history.product')}</th>
              <th scope="col">{t('history.amount')}</th>
            </tr>
          </thead>
          <tbody>
            {orders.map((o, i) => (
              <tr key={`${o.purchased_at}-${i}`}>
                <td>{formatDay(o.purchased_at, locale)}</td>
                <td>{o.product_label}</td>
                <td>{t('history.usdSats', { usd: o.amount_usd, sats: Math.round(Number(o.amount_btc) * 1e8).toLocaleString(locale) })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PageFooter state={state} more={more} moreLabel={t('history.more')} onLoad={() => void load(orders.length)} />
    </section>
  );
}
