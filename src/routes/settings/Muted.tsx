/**
 * /settings/muted: the account's mute list (kind 10000) in four sections — people, words,
 * hashtags and threads — each change published as a new list that keeps every other entry.
 */
import { useTranslation } from 'react-i18next';
import '../../components/moderation/i18n';
import '../../components/moderation/moderation.css';
import { displayName } from '../../../core/profile';
import type { AccountAction, Profile } from '../../../core/types';
import { useAccount } from '../../lib/account';
import { confirmDialog } from '../../lib/overlays';
import { toastError } from '../../lib/toast';
import { runAction } from '../../components/moderation/actions';
import { checkHashtag, checkWord, mutedSections } from '../../components/moderation/muted';
import { MutedThreads } from '../../components/moderation/MutedThreads';
import { ProfileRow } from '../../components/moderation/ProfileRow';
import { SignInPrompt } from '../../components/moderation/SignInPrompt';
import { TagAdder } from '../../components/moderation/TagAdder';
import { UserPicker } from '../../components/moderation/UserPicker';
import { useProfiles } from '../../components/moderation/useProfiles';
import { useBusy } from '../../lib/useBusy';

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section className="mod-section" aria-labelledby={id}>
      <h2 id={id} className="mod-section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

function TagList({ values, prefix = '', empty, busy, onRemove }: { values: string[]; prefix?: string; empty: string; busy: boolean; onRemove: (v: string) => void }) {
  const { t } = useTranslation('moderation');
  if (values.length === 0) return <p className="mod-empty">{empty}</p>;
  return (
    <ul className="mod-list">
      {values.map((v) => (
        <li key={v} className="mod-row mod-row-tag">
          <span className="mod-tag">
            {prefix}
            {v}
          </span>
          <div className="mod-row-actions">
            <button type="button" className="button button-secondary" disabled={busy} aria-label={`${t('unmute')}: ${prefix}${v}`} onClick={() => onRemove(v)}>
              {t('unmute')}
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}

export default function MutedSettings() {
  const { t } = useTranslation('moderation');
  const snapshot = useAccount();
  const record = snapshot?.account;
  const sections = mutedSections(record);
  const profile = useProfiles(sections.users);
  const { busy, run: whileBusy } = useBusy();

  if (!snapshot) return <p className="mod-empty" aria-busy="true">{t('loading')}</p>;
  if (!record) return <SignInPrompt />;

  const run = (action: AccountAction, success?: string) => whileBusy(() => runAction(action, success));

  const muteUser = async (p: Profile) => {
    if (record.muted.includes(p.pubkey)) {
      toastError(t('input.already'));
      return false;
    }
    const name = displayName(p);
    const ok = await confirmDialog({
      title: t('confirmMute.title'),
      message: t('confirmMute.message', { name }),
      confirmLabel: t('confirmMute.confirm'),
      danger: true,
    });
    if (!ok) return false;
    return run({ type: 'mute', pubkey: p.pubkey }, t('muted', { name }));
  };

  // Muting asks first (spec: the confirm dialog before muting), words and hashtags as well as people.
  const muteTag = async (tag: ['word' | 't', string], kind: 'word' | 'hashtag', success: string) => {
    const ok = await confirmDialog({
      title: t(`confirmMuteTag.${kind}Title`),
      message: t(`confirmMuteTag.${kind}Message`, { value: tag[1] }),
      confirmLabel: t('confirmMute.confirm'),
      danger: true,
    });
    if (!ok) return false;
    return run({ type: 'muteTag', tag }, success);
  };

  return (
    <div className="mod-page">
      <Section id="muted-users" title={t('users.title')}>
        <UserPicker label={t('users.add')} hint={t('users.addHint')} actionLabel={t('mute')} disabled={busy} onPick={muteUser} />
        {sections.users.length === 0 ? (
          <p className="mod-empty">{t('users.empty')}</p>
        ) : (
          <ul className="mod-list">
            {sections.users.map((pk) => (
              <ProfileRow key={pk} profile={profile(pk)}>
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={busy}
                  aria-label={`${t('unmute')}: ${displayName(profile(pk))}`}
                  onClick={() => void run({ type: 'unmute', pubkey: pk }, t('unmuted'))}
                >
                  {t('unmute')}
                </button>
              </ProfileRow>
            ))}
          </ul>
        )}
      </Section>

      <Section id="muted-words" title={t('words.title')}>
        <TagAdder
          label={t('words.add')}
          hint={t('words.hint')}
          buttonLabel={t('mute')}
          check={checkWord}
          existing={sections.words}
          disabled={busy}
          onAdd={(value) => muteTag(['word', value], 'word', t('words.added', { value }))}
        />
        <TagList values={sections.words} empty={t('words.empty')} busy={busy} onRemove={(v) => void run({ type: 'unmuteTag', tag: ['word', v] }, t('unmuted'))} />
      </Section>

      <Section id="muted-hashtags" title={t('hashtags.title')}>
        <TagAdder
          label={t('hashtags.add')}
          hint={t('hashtags.hint')}
          buttonLabel={t('mute')}
          check={checkHashtag}
          existing={sections.hashtags}
          disabled={busy}
          onAdd={(value) => muteTag(['t', value], 'hashtag', t('hashtags.added', { value }))}
        />
        <TagList
          values={sections.hashtags}
          prefix="#"
          empty={t('hashtags.empty')}
          busy={busy}
          onRemove={(v) => void run({ type: 'unmuteTag', tag: ['t', v] }, t('unmuted'))}
        />
      </Section>

      <Section id="muted-threads" title={t('threads.title')}>
        <p className="form-hint">{t('threads.hint')}</p>
        <MutedThreads ids={sections.threads} busy={busy} onUnmute={(id) => void run({ type: 'unmuteTag', tag: ['e', id] }, t('unmuted'))} />
      </Section>
    </div>
  );
}
