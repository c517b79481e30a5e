/**
 * Settings → Appearance: theme and animations. Applied at once and kept on this device
 * (localStorage); for a signed-in account also saved to the server, so other devices and tabs
 * follow (SettingsSync applies changes that arrive from elsewhere).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { settingsAction, useAccount, useActingPubkey } from '../../lib/account';
import { setAnimated, setTheme, storedAnimated, storedTheme, THEMES, type Theme } from '../../theme';
import { SETTINGS_NS } from '../../components/settings/i18n';
import { LoginPrompt, loginPending, SettingsSection, SettingsStatus, SwitchRow } from '../../components/settings/common';

/** Follows the theme and animation choice, whichever tab or page changed it. */
function useLocalChoice<T>(event: string, read: () => T): T {
  const [value, setValue] = useState<T>(read);
  useEffect(() => {
    const sync = () => setValue(read());
    window.addEventListener(event, sync);
    return () => window.removeEventListener(event, sync);
  }, [event, read]);
  return value;
}

function ThemePicker({ onPick }: { onPick: (theme: Theme) => void }) {
  const { t } = useTranslation();
  const theme = useLocalChoice('strucc:theme', storedTheme);
  return (
    <fieldset className="theme-picker">
      <legend>{t('theme.label')}</legend>
      {THEMES.map((name) => (
        <label key={name} className="theme-option" data-preview={name}>
          <input type="radio" name="theme" value={name} checked={theme === name} onChange={() => onPick(name)} />
          <span className="theme-swatch" aria-hidden="true" />
          <span>{t(`theme.${name}`)}</span>
        </label>
      ))}
    </fieldset>
  );
}

export default function Appearance() {
  const { t } = useTranslation(SETTINGS_NS);
  const snapshot = useAccount();
  const pubkey = useActingPubkey();
  const animated = useLocalChoice('strucc:animated', storedAnimated);

  // Each change is applied here first, so it shows even if the worker or the server is slow.
  const pickTheme = (theme: Theme) => {
    setTheme(theme);
    void settingsAction({ type: 'setTheme', theme });
    // setTheme alone stays on this device; the patch carries it to the server-saved settings.
    if (pubkey) void settingsAction({ type: 'updateSettings', patch: { theme } });
  };
  const pickAnimated = (on: boolean) => {
    setAnimated(on);
    void settingsAction({ type: 'setAnimated', animated: on });
    if (pubkey) void settingsAction({ type: 'updateSettings', patch: { animated: on } });
  };

  return (
    <div className="settings-form">
      {pubkey && <SettingsStatus warning={snapshot?.settings.warning} />}
      <ThemePicker onPick={pickTheme} />
      <SettingsSection title={t('appearance.animationHeading')}>
        <SwitchRow label={t('appearance.animated')} hint={t('appearance.animatedHint')} checked={animated} onChange={pickAnimated} />
      </SettingsSection>
      {!pubkey && !loginPending(snapshot) && <LoginPrompt text={t('appearance.guestNote')} />}
    </div>
  );
}
