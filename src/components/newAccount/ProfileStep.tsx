/** Step 2: the optional profile — every field may stay empty. */
import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileFields } from '../../lib/newAccount';
import { ImageField } from './ImageField';
import { StepNav } from './StepIndicator';

interface Props {
  profile: ProfileFields;
  onChange: (patch: Partial<ProfileFields>) => void;
  onBack: () => void;
  onNext: () => void;
}

export function ProfileStep({ profile, onChange, onBack, onNext }: Props) {
  const { t } = useTranslation('login');
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onNext();
  };
  const text = (field: 'displayName' | 'website' | 'lud16', type = 'text', autoComplete = 'off', hint?: string) => (
    <div className="form-field">
      <label htmlFor={`${id}-${field}`}>{t(`profile.${field}`)}</label>
      <input
        id={`${id}-${field}`}
        className="form-input"
        name={field}
        type={type}
        autoComplete={autoComplete}
        value={profile[field]}
        onChange={(e) => onChange({ [field]: e.target.value })}
        aria-describedby={hint ? `${id}-${field}-hint` : undefined}
      />
      {hint && (
        <p id={`${id}-${field}-hint`} className="form-hint">
          {hint}
        </p>
      )}
    </div>
  );
  return (
    <form onSubmit={submit} noValidate className="wizard-form">
      <p className="login-intro">{t('profile.intro')}</p>
      <ImageField label={t('profile.banner')} kind="banner" value={profile.banner} onChange={(banner) => onChange({ banner })} />
      <ImageField label={t('profile.avatar')} kind="avatar" value={profile.picture} onChange={(picture) => onChange({ picture })} />
      {text('displayName', 'text', 'nickname')}
      <div className="form-field">
        <label htmlFor={`${id}-about`}>{t('profile.about')}</label>
        <textarea id={`${id}-about`} className="form-textarea" name="about" value={profile.about} onChange={(e) => onChange({ about: e.target.value })} />
      </div>
      {text('website', 'url', 'url')}
      {text('lud16', 'text', 'off', t('profile.lud16Hint'))}
      <StepNav onBack={onBack} next={t('wizard.next')} />
    </form>
  );
}
