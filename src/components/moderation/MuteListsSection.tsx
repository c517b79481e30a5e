import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { toNpub } from '../../../core/profile';
import type { AccountRecord, MuteListEntry } from '../../../core/types';
import { runAction } from './actions';
import { ProfileRow } from './ProfileRow';
import { Switch } from './Switch';
import { useProfiles } from './useProfiles';

/** The subscribed mute lists (kind 30000 d=mutelists), each with where it applies. */
export function MuteListsSection({ record, busy, run }: { record: AccountRecord; busy: boolean; run: (f: () => Promise<boolean>) => Promise<boolean> }) {
  const { t } = useTranslation('moderation');
  const profile = useProfiles(record.mutelists.map((e) => e.pubkey));
  const others = record.mutelists.filter((e) => e.pubkey !== record.pubkey);
  const own = record.mutelists.find((e) => e.pubkey === record.pubkey);

  const setFlags = (e: MuteListEntry, patch: Partial<Pick<MuteListEntry, 'content' | 'trending'>>) =>
    void run(() => runAction({ type: 'setMuteListFlags', pubkey: e.pubkey, content: patch.content ?? e.content, trending: patch.trending ?? e.trending }, t('saved')));

  return (
    <section className="mod-section" aria-labelledby="filters-lists">
      <h2 id="filters-lists" className="mod-section-title">
        {t('lists.title')}
      </h2>
      <p className="mod-section-intro">{t('lists.intro')}</p>
      <ul className="mod-list">
        {own && (
          <ProfileRow profile={profile(own.pubkey)} label={t('lists.own')}>
            <Switch label={t('flags.content')} checked disabled onChange={() => undefined} />
            <Switch label={t('flags.trending')} checked disabled onChange={() => undefined} />
          </ProfileRow>
        )}
        {others.map((e) => (
          <ProfileRow key={e.pubkey} profile={profile(e.pubkey)}>
            <Switch label={t('flags.content')} checked={e.content} disabled={busy} onChange={(on) => setFlags(e, { content: on })} />
            <Switch label={t('flags.trending')} checked={e.trending} disabled={busy} onChange={(on) => setFlags(e, { trending: on })} />
            <Link href={`/mutelist/${toNpub(e.pubkey)}`} className="mod-link">
              {t('lists.view')}
            </Link>
            <button
              type="button"
              className="button button-secondary"
              disabled={busy}
              onClick={() => void run(() => runAction({ type: 'unsubscribeMuteList', pubkey: e.pubkey }, t('lists.unsubscribed')))}
            >
              {t('lists.unsubscribe')}
            </button>
          </ProfileRow>
        ))}
      </ul>
      {own && <p className="form-hint">{t('lists.ownHint')}</p>}
      {others.length === 0 && <p className="mod-empty">{t('lists.empty')}</p>}
    </section>
  );
}
