import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { LogoMark } from '../components/Logo';
import { usePageTitle } from '../lib/hooks';

export type PublicPageKey = 'appDownloadQr' | 'terms' | 'csaePolicy' | 'privacy' | 'support';

/** Documents linked from outside the app: no navigation chrome, just the brand and the text. */
export default function PublicPage({ page }: { page: PublicPageKey }) {
  const { t } = useTranslation();
  const title = t(`pages.${page}.title`);
  usePageTitle(title);
  return (
    <div className="public-layout">
      <header className="public-header">
        <Link href="/home" className="brand" aria-label={t('nav.logoLabel')}>
          <LogoMark size={40} />
          <span className="brand-name" aria-hidden="true">
            {t('app.name')}
          </span>
        </Link>
      </header>
      <main id="main" className="public-main" tabIndex={-1}>
        <h1 className="page-title">{title}</h1>
        <p>{t(`pages.${page}.description`)}</p>
      </main>
    </div>
  );
}
