import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { usePageTitle } from '../lib/hooks';

export type PageKey =
  | 'reads'
  | 'readsEdit'
  | 'thread'
  | 'explore'
  | 'exploreFeed'
  | 'dms'
  | 'notifications'
  | 'downloads'
  | 'bookmarks'
  | 'profile'
  | 'help'
  | 'mutelist'
  | 'new'
  | 'feeds'
  | 'premium'
  | 'premiums'
  | 'legends';

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

/** The title and purpose of a section whose full screen arrives in a later release. */
export default function InfoPage({ page }: { page: PageKey }) {
  const { t } = useTranslation();
  return <PageIntro title={t(`pages.${page}.title`)} description={t(`pages.${page}.description`)} />;
}

function decodeParam(value: string | undefined): string {
  if (!value) return '';
  try {
    return decodeURIComponent(value).trim();
  } catch {
    return value.trim();
  }
}

export function ReadsPage() {
  const { t } = useTranslation();
  const topic = decodeParam(useParams<{ topic?: string }>().topic);
  if (!topic) return <InfoPage page="reads" />;
  return <PageIntro title={t('pages.readsTopic.title', { topic })} description={t('pages.readsTopic.description', { topic })} />;
}

export function SearchPage() {
  const { t } = useTranslation();
  const query = decodeParam(useParams<{ query?: string }>().query);
  if (!query) {
    return (
      <PageIntro title={t('pages.search.title')} description={t('pages.search.description')}>
        <p className="alert" role="alert">
          {t('search.empty')}
        </p>
      </PageIntro>
    );
  }
  return <PageIntro title={t('pages.searchQuery.title', { query })} description={t('pages.searchQuery.description', { query })} />;
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
