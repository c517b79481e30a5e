import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayName } from '../../../core/profile';
import { fullApi } from '../../lib/account';
import { parseFilterAnswer, type FilterAnswer } from './filters';
import { UserPicker } from './UserPicker';
import { profileOf, rememberProfiles } from './useProfiles';

/** "Is an account on a filter list?": search_filterlist for the viewer, worded in Hungarian. */
export function FilterListCheck({ viewer }: { viewer: string }) {
  const { t } = useTranslation('moderation');
  const [answer, setAnswer] = useState<{ text: string; found: boolean } | null>(null);

  const wording = (name: string, a: FilterAnswer): string => {
    switch (a.kind) {
      case 'none':
        return t('check.none', { name });
      case 'allowed':
        return t('check.allowed', { name });
      case 'group':
        return t(a.group === 'spam' ? 'check.blockedSpam' : 'check.blockedNsfw', { name });
      case 'list':
        return a.owner === viewer ? t('check.blockedOwn', { name }) : t('check.blockedList', { name, owner: displayName(profileOf(a.owner)) });
    }
  };

  return (
    <section className="mod-section" aria-labelledby="filters-check">
      <h2 id="filters-check" className="mod-section-title">
        {t('check.title')}
      </h2>
      <UserPicker
        label={t('check.label')}
        actionLabel={t('check.button')}
        onSearch={() => setAnswer(null)}
        onPick={async (p) => {
          setAnswer({ text: t('check.checking'), found: false });
          try {
            const api = await fullApi();
            const [reply] = await Promise.all([
              api.request('search_filterlist', { pubkey: p.pubkey, user_pubkey: viewer }),
              p.name || p.displayName ? Promise.resolve(null) : api.request('user_infos', { pubkeys: [p.pubkey] }).then((r) => rememberProfiles(r.events)),
            ]);
            if (reply.notice !== undefined) throw new Error(reply.notice);
            rememberProfiles(reply.events);
            const result = parseFilterAnswer(reply.events);
            setAnswer({ text: wording(displayName(profileOf(p.pubkey)), result), found: result.kind !== 'none' });
            return true;
          } catch {
            setAnswer({ text: t('check.failed'), found: false });
            return false;
          }
        }}
      />
      <div aria-live="polite">
        {answer && (
          <p className="mod-answer" data-found={answer.found} data-testid="filter-check-answer">
            {answer.text}
          </p>
        )}
      </div>
    </section>
  );
}
