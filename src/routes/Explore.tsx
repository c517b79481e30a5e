import { useTranslation } from 'react-i18next';
import { TabStrip } from '../components/TabStrip';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import hu from '../../locales/hu/explore.json';
import en from '../../locales/en/explore.json';
import { registerNamespace } from '../i18n';
import { usePageTitle } from '../lib/hooks';
import { useFeed } from '../lib/useFeed';
import { FeedList } from '../components/FeedList';
import { FeedSkeleton } from '../components/NoteSkeleton';
import { StatusMessage, RetryMessage } from '../components/StatusMessage';
import { loadCatalogue, megaFeedSpec } from '../components/explore/catalogue';
import { ExploreFeeds, SCOPES, TIMEFRAMES, type Scope, type Timeframe } from '../components/explore/ExploreFeeds';
import { ExploreMedia, ExplorePeople, ExploreTopics, ExploreZaps } from '../components/explore/ExploreLists';
import { LegendStatsPanel, NetStatsPanel } from '../components/explore/StatsPanels';
import { useLoad, useViewerPubkey } from '../components/explore/useExplore';
import '../styles/explore.css';
import '../styles/explore-tabs.css';

registerNamespace('explore', { hu, en });

const TABS = ['feeds', 'people', 'zaps', 'media', 'topics'] as const;
type Tab = (typeof TABS)[number];

function pick<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  return (values as readonly string[]).includes(value ?? '') ? (value as T) : fallback;
}

/** /explore: tab, timeframe and scope live in the query string, so a link or a reload keeps them. */
export default function ExploreRoute() {
  const { t } = useTranslation('explore');
  usePageTitle(t('title'));
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const tab = pick(TABS, params.get('tab'), 'feeds');
  const timeframe = pick(TIMEFRAMES, params.get('timeframe'), 'latest');
  const scope = pick(SCOPES, params.get('scope'), 'global');
  const viewer = useViewerPubkey();

  const go = (next: { tab?: Tab; timeframe?: Timeframe; scope?: Scope }) => {
    const q = new URLSearchParams();
    const nt = next.tab ?? tab;
    const ntf = next.timeframe ?? timeframe;
    const ns = next.scope ?? scope;
    if (nt !== 'feeds') q.set('tab', nt);
    if (ntf !== 'latest') q.set('timeframe', ntf);
    if (ns !== 'global') q.set('scope', ns);
    const qs = q.toString();
    navigate(qs ? `/explore?${qs}` : '/explore', { replace: true });
  };

  return (
    <div className="page page-explore">
      <header className="page-header">
        <h1 className="page-title">{t('title')}</h1>
        <TabStrip
          tabs={TABS}
          selected={tab}
          onSelect={(id) => go({ tab: id })}
          label={t('tabsLabel')}
          className="explore-tabs"
          tabClassName="tab explore-tab"
          tabId={(id) => `explore-tab-${id}`}
          panelId={(id) => `explore-panel-${id}`}
        >
          {(id) => t(`tabs.${id}`)}
        </TabStrip>
      </header>
      <div className="explore-panels">
        <NetStatsPanel />
        <LegendStatsPanel viewer={viewer} />
      </div>
      <div id={`explore-panel-${tab}`} role="tabpanel" aria-labelledby={`explore-tab-${tab}`} className="explore-tabpanel">
        {tab === 'feeds' && <ExploreFeeds viewer={viewer} timeframe={timeframe} scope={scope} onChange={go} />}
        {tab === 'people' && <ExplorePeople viewer={viewer} />}
        {tab === 'zaps' && <ExploreZaps viewer={viewer} />}
        {tab === 'media' && <ExploreMedia />}
        {tab === 'topics' && <ExploreTopics />}
      </div>
    </div>
  );
}

/** /explore/feed/{id}: one feed of the catalogue, by its id. */
export function ExploreFeedRoute() {
  const { t } = useTranslation('explore');
  const raw = useParams<{ id?: string }>().id ?? '';
  let id = raw;
  try {
    id = decodeURIComponent(raw);
  } catch {
    // Kept as typed.
  }
  const viewer = useViewerPubkey();
  const catalogue = useLoad(`catalogue:${viewer ?? ''}`, (api) => loadCatalogue(api, viewer));
  const listed = catalogue.state.status === 'ready' ? catalogue.state.value.find((f) => f.id === id) : undefined;
  const megaSpec = megaFeedSpec(id);
  const feed = listed ?? (catalogue.state.status === 'ready' && megaSpec ? { name: t(`megaFeeds.${id}`), description: '', spec: megaSpec } : undefined);
  const { snapshot, loadMore, retry } = useFeed(feed?.spec);
  const title = feed?.name ?? t('feedPage.title');
  usePageTitle(title);

  let body;
  if (catalogue.state.status === 'error') {
    body = (
      <RetryMessage title={t('feedPage.catalogueError')} retryLabel={t('retry')} onRetry={catalogue.retry} />
    );
  } else if (catalogue.state.status === 'ready' && !feed) {
    body = <StatusMessage title={t('feedPage.notFound')}>{t('feedPage.notFoundHint')}</StatusMessage>;
  } else if (snapshot?.status === 'error' && snapshot.notes.length === 0) {
    body = (
      <RetryMessage title={t('feeds.error')} retryLabel={t('retry')} onRetry={retry} />
    );
  } else if (snapshot && snapshot.notes.length > 0) {
    body = <FeedList notes={snapshot.notes} status={snapshot.status} hasMore={snapshot.hasMore} onLoadMore={loadMore} />;
  } else if (snapshot?.status === 'ready') {
    body = <StatusMessage title={t('feeds.empty')}>{t('feeds.catalogueEmptyHint')}</StatusMessage>;
  } else {
    body = <FeedSkeleton label={t('feeds.loading')} />;
  }

  return (
    <div className="page page-explore-feed">
      <header className="page-header">
        <Link href="/explore" className="back-link">
          {t('feedPage.back')}
        </Link>
        <h1 className="page-title">{title}</h1>
        {feed?.description && <p className="page-subtitle">{feed.description}</p>}
      </header>
      {body}
    </div>
  );
}
