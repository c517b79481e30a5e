import { useTranslation } from 'react-i18next';
import { Redirect, useParams } from 'wouter';
import hu from '../../locales/hu/search.json';
import en from '../../locales/en/search.json';
import { registerNamespace } from '../i18n';
import { usePageTitle } from '../lib/hooks';
import { AdvancedSearch } from '../components/search/AdvancedSearch';
import { FeedQueryTest } from '../components/search/FeedQueryTest';
import { profileTarget } from '../components/search/query';
import { SearchCombobox } from '../components/search/SearchCombobox';
import { SearchResults } from '../components/search/SearchResults';
import { StatusMessage } from '../components/StatusMessage';

registerNamespace('search', { hu, en });

function decodeParam(value: string | undefined): string {
  if (!value) return '';
  try {
    return decodeURIComponent(value).trim();
  } catch {
    return value.trim();
  }
}

/** /search and /search/{query}. */
export default function SearchRoute() {
  const { t } = useTranslation('search');
  const query = decodeParam(useParams<{ query?: string }>().query);
  const title = query ? t('titleQuery', { query }) : t('title');
  usePageTitle(title);
  // Spec §5: a search by npub decodes it and opens that profile.
  const profile = profileTarget(query);
  if (profile) return <Redirect to={`/p/${profile}`} replace />;
  return (
    <div className="page page-search">
      <header className="page-header">
        <h1 className="page-title">{title}</h1>
        <SearchCombobox initial={query} className="search-page-box" label={t('boxLabel')} />
      </header>
      <AdvancedSearch query={query} open={!query} />
      {query ? <SearchResults query={query} /> : <StatusMessage title={t('empty')}>{t('emptyHint')}</StatusMessage>}
    </div>
  );
}

/** /feeds and /feeds/{query}: the feed query test. */
export function FeedsRoute() {
  const { t } = useTranslation('search');
  const query = decodeParam(useParams<{ query?: string }>().query);
  usePageTitle(t('feedTest.title'));
  return (
    <div className="page page-feed-test">
      <header className="page-header">
        <h1 className="page-title">{t('feedTest.title')}</h1>
        <p className="page-subtitle">{t('feedTest.description')}</p>
      </header>
      <FeedQueryTest query={query} />
    </div>
  );
}
