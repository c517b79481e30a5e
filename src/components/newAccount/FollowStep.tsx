/**
 * Step 3: suggested accounts (get_suggested_users), grouped as the server groups them, every one
 * preselected. Nothing is published here; the contact list goes out when the wizard finishes.
 */
import { useEffect, useMemo, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useWorkerRequest } from '../../lib/useWorkerRequest';
import { parseSuggestedUsers, type SuggestedGroup } from '../../lib/newAccount';
import { displayName } from '../../../core/profile';
import { Avatar } from '../Avatar';
import { StepNav } from './StepIndicator';

interface Props {
  /** Undefined until the suggestions were first shown. */
  follows: string[] | undefined;
  onChange: (follows: string[]) => void;
  onBack: () => void;
  onNext: () => void;
}

type Load = { status: 'loading' } | { status: 'ready'; groups: SuggestedGroup[] } | { status: 'error' };

export function FollowStep({ follows, onChange, onBack, onNext }: Props) {
  const { t } = useTranslation('login');
  const { data: groups, error, reload: fetchSuggestions } = useWorkerRequest((api) => api.request('get_suggested_users').then(parseSuggestedUsers), []);
  // One object per answer: the effect below runs when the answer changes, not on every render.
  const load = useMemo<Load>(() => (groups ? { status: 'ready', groups } : error !== undefined ? { status: 'error' } : { status: 'loading' }), [groups, error]);

  const everyone = load.status === 'ready' ? load.groups.flatMap((g) => g.members.map((m) => m.pubkey)) : [];
  // First visit of the step: all suggestions start ticked.
  useEffect(() => {
    if (follows === undefined && load.status === 'ready') onChange(load.groups.flatMap((g) => g.members.map((m) => m.pubkey)));
  }, [follows, load, onChange]);

  const chosen = new Set(follows ?? everyone);
  const toggle = (pubkey: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(pubkey);
    else next.delete(pubkey);
    onChange([...next]);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onNext();
  };

  return (
    <form onSubmit={submit} noValidate className="wizard-form">
      <p className="login-intro">{t('follow.intro')}</p>
      {load.status === 'loading' && (
        <p className="form-hint" role="status" aria-busy="true">
          {t('follow.loading')}
        </p>
      )}
      {load.status === 'error' && (
        <div className="wizard-follow-error" role="alert">
          <p className="form-error">{t('follow.failed')}</p>
          <button type="button" className="button button-secondary" onClick={fetchSuggestions}>
            {t('follow.retry')}
          </button>
        </div>
      )}
      {load.status === 'ready' && load.groups.length === 0 && <p className="form-hint">{t('follow.empty')}</p>}
      {load.status === 'ready' && load.groups.length > 0 && (
        <>
          <div className="wizard-follow-bar">
            <span className="form-hint" aria-live="polite">
              {t('follow.selected', { count: everyone.filter((pk) => chosen.has(pk)).length })}
            </span>
            <button type="button" className="button button-secondary" onClick={() => onChange(everyone)}>
              {t('follow.all')}
            </button>
            <button type="button" className="button button-secondary" onClick={() => onChange([])}>
              {t('follow.none')}
            </button>
          </div>
          {load.groups.map((group) => (
            <fieldset key={group.group} className="wizard-follow-group">
              <legend>{group.group}</legend>
              <ul>
                {group.members.map((profile) => {
                  const name = displayName(profile);
                  return (
                    <li key={profile.pubkey}>
                      <label className="wizard-person">
                        <input
                          type="checkbox"
                          checked={chosen.has(profile.pubkey)}
                          onChange={(e) => toggle(profile.pubkey, e.target.checked)}
                          aria-label={t('follow.followName', { name })}
                          data-pubkey={profile.pubkey}
                        />
                        <Avatar profile={profile} name={name} size={40} />
                        <span className="wizard-person-text">
                          <span className="wizard-person-name">{name}</span>
                          {profile.about && <span className="wizard-person-about">{profile.about}</span>}
                        </span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
          ))}
        </>
      )}
      <StepNav onBack={onBack} next={t('wizard.next')} />
    </form>
  );
}
