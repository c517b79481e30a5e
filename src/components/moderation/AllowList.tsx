import { useTranslation } from 'react-i18next';
import { displayName } from '../../../core/profile';
import type { AccountRecord } from '../../../core/types';
import { toastError } from '../../lib/toast';
import { runAction } from './actions';
import { ProfileRow } from './ProfileRow';
import { UserPicker } from './UserPicker';
import { useProfiles } from './useProfiles';

/** The allow list (kind 30000 d=allowlist): people no subscribed list or filter hides. */
export function AllowList({ record, busy, run }: { record: AccountRecord; busy: boolean; run: (f: () => Promise<boolean>) => Promise<boolean> }) {
  const { t } = useTranslation('moderation');
  const profile = useProfiles(record.allowlist);
  return (
    <section className="mod-section" aria-labelledby="filters-allow">
      <h2 id="filters-allow" className="mod-section-title">
        {t('allow.title')}
      </h2>
      <p className="mod-section-intro">{t('allow.intro')}</p>
      <UserPicker
        label={t('allow.add')}
        hint={t('users.addHint')}
        actionLabel={t('add')}
        disabled={busy}
        onPick={async (p) => {
          if (record.allowlist.includes(p.pubkey)) {
            toastError(t('input.already'));
            return false;
          }
          return run(() => runAction({ type: 'allow', pubkey: p.pubkey }, t('allow.added')));
        }}
      />
      {record.allowlist.length === 0 ? (
        <p className="mod-empty">{t('allow.empty')}</p>
      ) : (
        <ul className="mod-list">
          {record.allowlist.map((pk) => (
            <ProfileRow key={pk} profile={profile(pk)}>
              <button
                type="button"
                className="button button-secondary"
                disabled={busy}
                aria-label={`${t('remove')}: ${displayName(profile(pk))}`}
                onClick={() => void run(() => runAction({ type: 'disallow', pubkey: pk }, t('allow.removed')))}
              >
                {t('remove')}
              </button>
            </ProfileRow>
          ))}
        </ul>
      )}
    </section>
  );
}
