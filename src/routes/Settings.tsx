import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { NotFound, PageIntro } from './PageIntro';

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
  ecash: 'settingsEcash',
  devtools: 'settingsDevtools',
  profile: 'settingsProfile',
} as const;

type SubPage = keyof typeof SUB_PAGES;

/** Each sub-page's body is its own chunk (src/routes/settings/). */
const PAGE_BODIES: Partial<Record<SubPage, LazyExoticComponent<ComponentType>>> = {
  account: lazy(() => import('./settings/Account')),
  appearance: lazy(() => import('./settings/Appearance')),
  home_feeds: lazy(() => import('./settings/HomeFeeds')),
  reads_feeds: lazy(() => import('./settings/ReadsFeeds')),
  notifications: lazy(() => import('./settings/Notifications')),
  zaps: lazy(() => import('./settings/Zaps')),
  muted: lazy(() => import('./settings/Muted')),
  network: lazy(() => import('./settings/Network')),
  filters: lazy(() => import('./settings/Filters')),
  nwc: lazy(() => import('./settings/Nwc')),
  ecash: lazy(() => import('./settings/Ecash')),
  devtools: lazy(() => import('./settings/Devtools')),
  profile: lazy(() => import('./settings/ProfileEdit')),
};

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

export function SettingsSubPage() {
  const { t } = useTranslation();
  const { page } = useParams<{ page: string }>();
  if (!isSubPage(page)) return <NotFound />;
  const key = SUB_PAGES[page];
  const Body = PAGE_BODIES[page];
  return (
    <PageIntro title={t(`pages.${key}.title`)} description={t(`pages.${key}.description`)}>
      {Body && (
        <Suspense fallback={<div className="settings-loading" aria-busy="true" />}>
          <Body />
        </Suspense>
      )}
      <Link href="/settings" className="back-link">
        {t('settings.back')}
      </Link>
    </PageIntro>
  );
}
