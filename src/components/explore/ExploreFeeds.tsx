/** The feeds tab: the feed catalogue, and the explore ranking chosen by scope and timeframe. */
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useFeed } from '../../lib/useFeed';
import { FeedList } from '../FeedList';
import { FeedSkeleton } from '../NoteSkeleton';
import { StatusMessage, RetryMessage } from '../StatusMessage';
import { findFeed, toDefinition } from '../feedSettings/feedModel';
import { addFeedTo, removeFeedFrom, useUserFeeds } from '../feedSettings/useUserFeeds';
import { loadCatalogue } from './catalogue';
import { useLoad } from './useExplore';
import '../../styles/feeds.css';
import '../../styles/marketplace.css';

export const TIMEFRAMES = ['latest', 'trending', 'popular', 'mostzapped'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];
export const SCOPES = ['global', 'network', 'tribe', 'follows'] as const;
export type Scope = (typeof SCOPES)[number];

/** explore {timeframe, scope} as a feed: a command call the worker runs through advanced_feed with the feed's paging. */
export function exploreSpec(timeframe: Timeframe, scope: Scope, viewer: string | undefined): string {
  const args: Record<string, string> = { timeframe, scope };
  if (viewer) args.user_pubkey = viewer;
  return JSON.stringify(['explore', args]);
}

function ChipGroup<T extends string>({ label, values, value, onChange, text }: { label: string; values: readonly T[]; value: T; onChange: (v: T) => void; text: (v: T) => string }) {
  return (
    <div className="explore-choice" role="group" aria-label={label}>
      <span className="explore-choice-label" aria-hidden="true">
        {label}
      </span>
      <div className="explore-chips">
        {values.map((v) => (
          <button key={v} type="button" className="chip" aria-pressed={v === value} onClick={() => onChange(v)}>
            {text(v)}
          </button>
        ))}
      </div>
    </div>
  );
}

interface Props {
  viewer: string | undefined;
  timeframe: Timeframe;
  scope: Scope;
  onChange: (next: { timeframe?: Timeframe; scope?: Scope }) => void;
}

export function ExploreFeeds({ viewer, timeframe, scope, onChange }: Props) {
  const { t } = useTranslation('explore');
  const { t: tf } = useTranslation('feeds');
  const home = useUserFeeds('home');
  // Scopes other than everyone are about the user's own network: a guest has none.
  const activeScope: Scope = viewer ? scope : 'global';
  const { snapshot, loadMore, retry } = useFeed(exploreSpec(timeframe, activeScope, viewer));
  const catalogue = useLoad(`catalogue:${viewer ?? ''}`, (api) => loadCatalogue(api, viewer));
  const feeds = catalogue.state.status === 'ready' ? catalogue.state.value : [];
  const notes = snapshot?.notes ?? [];

  let body;
  if (snapshot?.status === 'error' && notes.length === 0) {
    body = (
      <RetryMessage title={t('feeds.error')} retryLabel={t('retry')} onRetry={retry} />
    );
  } else if (notes.length > 0) {
    body = <FeedList notes={notes} status={snapshot!.status} hasMore={snapshot!.hasMore} onLoadMore={loadMore} />;
  } else if (snapshot?.status === 'ready') {
    body = <StatusMessage title={t('feeds.empty')}>{t('feeds.emptyHint')}</StatusMessage>;
  } else {
    body = <FeedSkeleton label={t('feeds.loading')} />;
  }

  return (
    <div className="explore-feeds">
      {feeds.length > 0 && (
        <nav className="feed-catalogue" aria-label={t('feeds.catalogue')}>
          <h2 className="section-title">{t('feeds.catalogue')}</h2>
          <ul>
            {feeds.map((f) => {
              const added = !!home.feeds && !!findFeed(home.feeds, f.spec);
              return (
                <li key={f.id} className="catalogue-item">
                  <Link href={`/explore/feed/${encodeURIComponent(f.id)}`} className="catalogue-card">
                    <span className="catalogue-name" id={`catalogue-${f.id}`}>
                      {f.name}
                    </span>
                    {f.description && <span className="catalogue-desc">{f.description}</span>}
                  </Link>
                  <button
                    type="button"
                    className={`chip catalogue-add${added ? ' is-added' : ''}`}
                    aria-describedby={`catalogue-${f.id}`}
                    onClick={() => void (added && home.feeds ? removeFeedFrom('home', f.spec, home.feeds) : addFeedTo('home', toDefinition(f), home.canEdit))}
                  >
                    {tf(added ? 'explore.removeFromHome' : 'explore.addToHome')}
                  </button>
                </li>
              );
            })}
          </ul>
        </nav>
      )}
      <div className="explore-controls">
        <ChipGroup label={t('feeds.timeframe')} values={TIMEFRAMES} value={timeframe} onChange={(v) => onChange({ timeframe: v })} text={(v) => t(`timeframes.${v}`)} />
        {viewer && <ChipGroup label={t('feeds.scope')} values={SCOPES} value={activeScope} onChange={(v) => onChange({ scope: v })} text={(v) => t(`scopes.${v}`)} />}
      </div>
      {body}
    </div>
  );
}
