import { useTranslation } from 'react-i18next';
import type { AppSettings } from '../../../core/types';
import { settingsAction } from '../../lib/account';
import { toastError, toastSuccess } from '../../lib/toast';
import { FILTER_GROUPS, groupScopes, groupScopesPatch, type FilterGroup, type Scopes } from './filters';
import { Switch } from './Switch';

/** The server's spam and nsfw lists, switched per scope in the saved settings. */
export function ContentFilters({ settings, busy, run }: { settings: AppSettings; busy: boolean; run: (f: () => Promise<boolean>) => Promise<boolean> }) {
  const { t } = useTranslation('moderation');

  const save = (group: FilterGroup, scopes: Scopes) =>
    void run(async () => {
      try {
        const result = await settingsAction({ type: 'updateSettings', patch: groupScopesPatch(settings, group, scopes) });
        if (!result.ok) throw new Error(result.code);
        toastSuccess(t('saved'));
        return true;
      } catch {
        toastError(t('errors.generic'));
        return false;
      }
    });

  return (
    <section className="mod-section" aria-labelledby="filters-groups">
      <h2 id="filters-groups" className="mod-section-title">
        {t('filters.title')}
      </h2>
      <p className="mod-section-intro">{t('filters.intro')}</p>
      <ul className="mod-list">
        {FILTER_GROUPS.map((group) => {
          const scopes = groupScopes(settings, group);
          return (
            <li key={group} className="mod-row" data-group={group}>
              <div className="mod-person-text">
                <span className="mod-person-name">{t(`filters.${group}`)}</span>
                <span className="form-hint">{t(`filters.${group}Hint`)}</span>
              </div>
              <div className="mod-row-actions">
                <Switch label={t('flags.content')} checked={scopes.content} disabled={busy} onChange={(on) => save(group, { ...scopes, content: on })} />
                <Switch label={t('flags.trending')} checked={scopes.trending} disabled={busy} onChange={(on) => save(group, { ...scopes, trending: on })} />
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
