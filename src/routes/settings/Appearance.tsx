import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { THEMES, setTheme, storedTheme, type Theme } from '../../theme';

function ThemePicker() {
  const { t } = useTranslation();
  const [theme, setLocal] = useState<Theme>(storedTheme);
  useEffect(() => {
    const sync = (event: Event) => setLocal((event as CustomEvent<Theme>).detail);
    window.addEventListener('strucc:theme', sync);
    return () => window.removeEventListener('strucc:theme', sync);
  }, []);
  return (
    <fieldset className="theme-picker">
      <legend>{t('theme.label')}</legend>
      {THEMES.map((name) => (
        <label key={name} className="theme-option" data-preview={name}>
          <input type="radio" name="theme" value={name} checked={theme === name} onChange={() => setTheme(name)} />
          <span className="theme-swatch" aria-hidden="true" />
          <span>{t(`theme.${name}`)}</span>
        </label>
      ))}
    </fieldset>
  );
}

export default function Appearance() {
  return <ThemePicker />;
}
