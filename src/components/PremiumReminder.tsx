import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { accountAction, useAccount } from '../lib/account';
import '../styles/legend.css';

/**
 * Spec §4: non-members see the reminder once the last one was cleared longer ago than the 7-day
 * interval; the worker decides (showPremiumReminder) and clearing stores the time for every tab.
 */
export function PremiumReminder() {
  const { t } = useTranslation();
  const account = useAccount();
  const [location] = useLocation();
  if (!account?.showPremiumReminder || account.login.state !== 'signedIn' || location.startsWith('/premium')) return null;
  const dismiss = () => void accountAction({ type: 'clearPremiumReminder' });
  return (
    <section className="premium-reminder" aria-labelledby="premium-reminder-title" data-testid="premium-reminder">
      <h2 id="premium-reminder-title" className="sidebar-title">
        {t('member.reminderTitle')}
      </h2>
      <p>{t('member.reminderText')}</p>
      <div className="premium-reminder-actions">
        <Link href="/premium" className="button" onClick={dismiss}>
          {t('member.reminderCta')}
        </Link>
        <button type="button" className="button button-secondary" onClick={dismiss}>
          {t('member.reminderDismiss')}
        </button>
      </div>
    </section>
  );
}
