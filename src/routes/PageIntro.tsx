import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { usePageTitle } from '../lib/hooks';

/** A page's title and one line of what it is for, above whatever the page shows. */
export function PageIntro({ title, description, children }: { title: string; description: string; children?: React.ReactNode }) {
  usePageTitle(title);
  return (
    <div className="page">
      <header className="page-header">
        <h1 className="page-title">{title}</h1>
      </header>
      <div className="page-intro">
        <p>{description}</p>
        {children}
      </div>
    </div>
  );
}

export function NotFound() {
  const { t } = useTranslation();
  return (
    <PageIntro title={t('pages.notFound.title')} description={t('pages.notFound.description')}>
      <Link href="/home" className="button">
        {t('common.backHome')}
      </Link>
    </PageIntro>
  );
}
