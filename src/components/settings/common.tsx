/** Pieces every settings page of this area shares: the guest prompt, the save/load status and a switch row. */
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { openLogin } from '../../lib/overlays';
import type { AccountSnapshot } from '../../../core/types';
import { SETTINGS_NS } from './i18n';
import '../../styles/modal.css';
import './settings.css';

/** machines/settings.ts warnings, repeated so the machine stays out of this chunk. */
const SAVE_FAILED = 'Failed to save settings';
const LOAD_FAILED = 'settings-offline';

export function LoginPrompt({ text }: { text?: string }) {
  const { t } = useTranslation(SETTINGS_NS);
  return (
    <div className="settings-login" role="region" aria-label={t('common.loginButton')}>
      <p>{text ?? t('common.loginPrompt')}</p>
      <button type="button" className="button" onClick={openLogin}>
        {t('common.loginButton')}
      </button>
    </div>
  );
}

/** The worker does not know yet whether someone is signed in. */
export function loginPending(snapshot: AccountSnapshot | null): boolean {
  return !snapshot || ['booting', 'detecting', 'busy', 'unlocking'].includes(snapshot.login.state);
}

export function SettingsLoading({ text }: { text?: string }) {
  const { t } = useTranslation(SETTINGS_NS);
  return (
    <p className="settings-loading-text" role="status" aria-busy="true">
      {text ?? t('common.loading')}
    </p>
  );
}

/** Why what is shown may not be what the server holds: a failed load or a save being retried. */
export function SettingsStatus({ warning }: { warning?: string }) {
  const { t } = useTranslation(SETTINGS_NS);
  if (warning === SAVE_FAILED) {
    return (
      <div className="settings-banner settings-banner-error" role="alert">
        <strong>{t('common.saveFailed')}</strong>
        <span>{t('common.saveRetry')}</span>
      </div>
    );
  }
  if (warning === LOAD_FAILED) {
    return (
      <div className="settings-banner" role="status">
        {t('common.offline')}
      </div>
    );
  }
  return null;
}

export function SettingsSection({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="settings-section" aria-labelledby={id}>
      <h2 id={id} className="settings-section-title">
        {title}
      </h2>
      {hint && <p className="form-hint settings-section-hint">{hint}</p>}
      {children}
    </section>
  );
}

export interface SwitchRowProps {
  label: string;
  hint?: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  name?: string;
}

/** A labelled on/off switch: a real checkbox with role="switch", so keyboards and screen readers work. */
export function SwitchRow({ label, hint, checked, disabled, onChange, name }: SwitchRowProps) {
  const hintId = useId();
  return (
    <label className="settings-switch">
      <span className="settings-switch-text">
        <span className="settings-switch-label">{label}</span>
        {hint && (
          <span id={hintId} className="form-hint">
            {hint}
          </span>
        )}
      </span>
      <input
        type="checkbox"
        role="switch"
        name={name}
        checked={checked}
        disabled={disabled}
        aria-describedby={hint ? hintId : undefined}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      <span className="settings-switch-track" aria-hidden="true" />
    </label>
  );
}
