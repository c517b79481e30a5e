import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { THEMES, setTheme, storedTheme, type Theme } from '../theme';
import { NotFound, PageIntro } from './InfoPage';

const SUB_PAGES = {
  account: 'settingsAccount',
  appearance: 'settingsAppearance',
  home_feeds: 'settingsHomeFeeds',
  reads_feeds: 'settingsReadsFeeds',
  notifications: 'settingsNotifications',
  zaps: 'settingsZaps',
  muted: 'settingsMuted',
  network: 'settingsNetwork',
  filters: 'settingsFilters',
  nwc: 'settingsNwc',
  devtools: 'settingsDevtools',
  profile: 'settingsProfile',
} as const;

type SubPage = keyof typeof SUB_PAGES;

function isSubPage(value: string): value is SubPage {
  return Object.hasOwn(SUB_PAGES, value);
}

export default function SettingsMenu() {
  const { t } = useTranslation();
  return (
    <PageIntro title={t('pages.settings.title')} description={t('pages.settings.description')}>
      <nav aria-label={t('settings.menuLabel')}>
        <ul className="settings-menu">
          {(Object.keys(SUB_PAGES) as SubPage[]).map((page) => (
            <li key={page}>
              <Link href={`/settings/${page}`} className="settings-link">
                <span className="settings-link-title">{t(`pages.${SUB_PAGES[page]}.title`)}</span>
                <span className="settings-link-text">{t(`pages.${SUB_PAGES[page]}.description`)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </PageIntro>
  );
}

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

export function SettingsSubPage() {
  const { t } = useTranslation();
  const { page } = useParams<{ page: string }>();
  if (!isSubPage(page)) return <NotFound />;
  const key = SUB_PAGES[page];
  return (
    <PageIntro title={t(`pages.${key}.title`)} description={t(`pages.${key}.description`)}>
      {page === 'appearance' && <ThemePicker />}
      <Link href="/settings" className="back-link">
        {t('settings.back')}
      </Link>
    </PageIntro>
  );
}
