import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { fullApi } from '../../lib/account';
import { toastError, toastSuccess } from '../../lib/toast';
import { formatBytes, formatDay, signed, type MembershipStatus } from './membership';
import { nameProblem, NameField, useAvailability } from './NameStep';
import { OrderHistory } from './OrderHistory';

function RenameForm({ pubkey, current, onDone }: { pubkey: string; current: string; onDone: () => void }) {
  const { t } = useTranslation('premium');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const check = useAvailability(name, pubkey);
  const ready = !!name && name !== current && !nameProblem(name) && check.state === 'available';
  const save = async () => {
    setBusy(true);
    try {
      await signed('membership_change_name', { name });
      toastSuccess(t('manage.renamed'));
      setName('');
      void fullApi().then((api) => api.refreshMembership());
      onDone();
    } catch {
      // Spec §8: 'name not changed'.
      toastError(t('manage.notChanged'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="premium-rename"
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) void save();
      }}
    >
      <h3>{t('manage.rename')}</h3>
      <NameField check={check} value={name} onChange={setName} label={t('manage.renameLabel')} />
      <button type="submit" className="button" disabled={!ready || busy}>
        {t('manage.renameSave')}
      </button>
    </form>
  );
}

export const TOOL_STEPS = ['legend', 'support', 'relay', 'media', 'recovery', 'backup', 'og'] as const;

/** A member's overview: tier, address, expiry and renewal, rename, order history, the tools. */
export default function ManagePanel({ pubkey, status, onChange }: { pubkey: string; status: MembershipStatus; onChange: () => void }) {
  const { t, i18n } = useTranslation('premium');
  const locale = i18n.resolvedLanguage ?? 'hu';
  const member = status.tier !== 'none';
  return (
    <section className="premium-step" aria-labelledby="premium-manage-heading" data-testid="premium-manage">
      <h2 id="premium-manage-heading">{t('manage.heading')}</h2>
      <dl className="premium-summary">
        <dt>{t('manage.heading')}</dt>
        <dd data-testid="premium-tier">{t(`manage.tier.${status.tier}`)}</dd>
        {status.nostrAddress && (
          <>
            <dt>{t('manage.address')}</dt>
            <dd data-testid="premium-address">{status.nostrAddress}</dd>
          </>
        )}
        {status.premiumSince && (
          <>
            <dt>{t('steps.og')}</dt>
            <dd>{t('manage.since', { date: formatDay(status.premiumSince, locale) })}</dd>
          </>
        )}
      </dl>
      {member && <p>{status.expiresOn === null ? t('manage.never') : t('manage.expires', { date: formatDay(status.expiresOn, locale) })}</p>}
      {member && <p className="premium-muted">{t('manage.storage', { used: formatBytes(status.usedStorage, locale) })}</p>}
      {!member && <p>{t('manage.expired')}</p>}
      {status.rename && <p role="alert">{t('manage.needsName')}</p>}
      {status.tier !== 'premium-legend' && (
        <Link href="/premium/subscription" className="button">
          {t('manage.renew')}
        </Link>
      )}
      {member && (
        <nav aria-label={t('manage.tools')} className="premium-tools">
          <h3>{t('manage.tools')}</h3>
          <ul>
            {TOOL_STEPS.map((s) => (
              <li key={s}>
                <Link href={`/premium/${s}`}>{t(`steps.${s}`)}</Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {member && <RenameForm pubkey={pubkey} current={status.name} onDone={onChange} />}
      {member && <OrderHistory />}
    </section>
  );
}
