import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useActingPubkey } from '../../lib/account';
import { useMembershipStatus } from './membership';

/** After the payment: the member's new address, read back from membership_status. */
export function SuccessView({ legend }: { legend: boolean }) {
  const { t } = useTranslation('premium');
  const pubkey = useActingPubkey();
  const { status } = useMembershipStatus(pubkey, 'paid');
  return (
    <section className="premium-step premium-success" role="status" data-testid="premium-success">
      <h2>{legend ? t('success.legendHeading') : t('success.heading')}</h2>
      {status?.nostrAddress && <p>{t('success.text', { address: status.nostrAddress })}</p>}
      <Link href="/premium" className="button">
        {t('success.manage')}
      </Link>
    </section>
  );
}
