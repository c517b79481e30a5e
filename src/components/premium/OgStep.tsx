import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { MembershipStatus } from './membership';

/** The early members ("OG"): who they are, the member's own cohort year, and the list of the first members. */
export default function OgStep({ status }: { status: MembershipStatus }) {
  const { t } = useTranslation('premium');
  const since = status.premiumSince ? new Date(status.premiumSince * 1000).getFullYear() : null;
  return (
    <section className="premium-step" aria-labelledby="premium-og-heading">
      <h2 id="premium-og-heading">{t('og.heading')}</h2>
      <p>{t('og.text')}</p>
      {since !== null && <p data-testid="premium-og-year">{t('og.you', { year: since })}</p>}
      <Link href="/premiums" className="button">
        {t('og.list')}
      </Link>
    </section>
  );
}
