import { useCallback, useEffect, useState } from 'react';
import { useFixedT } from '../i18n';
import { FeedList } from '../components/FeedList';
import { FeedSwitcher } from '../components/FeedSwitcher';
import { useSwitcherFeeds } from '../components/feedSettings/useUserFeeds';
import { NewNotesPill } from '../components/NewNotesPill';
import { FeedSkeleton } from '../components/NoteSkeleton';
import { StatusMessage, RetryMessage } from '../components/StatusMessage';
import { usePageTitle, useSocketState } from '../lib/hooks';
import { useFeed, useHomeFeeds } from '../lib/useFeed';

const SELECTED_FEED_KEY = 'homeFeed';
/** A first load slower than this is worth explaining instead of showing a silent skeleton. */
const SLOW_LOAD_MS = 6000;

function readSelected(): string | undefined {
  try {
    return localStorage.getItem(SELECTED_FEED_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function useElapsed(active: boolean, ms: number): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    setElapsed(false);
    if (!active) return;
    const timer = window.setTimeout(() => setElapsed(true), ms);
    return () => window.clearTimeout(timer);
  }, [active, ms]);
  return elapsed;
}

export default function Home() {
  const { t } = useFixedT();
  usePageTitle(t('nav.home'));
  const { state: defaultFeeds, retry: retryFeeds } = useHomeFeeds();
  // A signed-in user's own list (enabled feeds, in their order) replaces the defaults once it is loaded.
  const userFeeds = useSwitcherFeeds('home');
  const feedsState = userFeeds ? ({ status: 'ready', value: userFeeds } as const) : defaultFeeds;
  const [selected, setSelected] = useState<string | undefined>(readSelected);
  const socket = useSocketState();

  const feeds = feedsState.status === 'ready' ? feedsState.value : [];
  const active = feeds.find((f) => f.spec === selected) ?? feeds[0];
  const { snapshot, loadMore, showPending, retry } = useFeed(active?.spec, true);

  const select = useCallback((spec: string) => {
    setSelected(spec);
    try {
      localStorage.setItem(SELECTED_FEED_KEY, spec);
    } catch {
      // The choice still holds for this visit.
    }
    window.scrollTo({ top: 0 });
  }, []);

  const onShowPending = useCallback(() => {
    showPending();
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    window.scrollTo({ top: 0, behavior: reduce ? 'auto' : 'smooth' });
  }, [showPending]);

  const socketDown = socket.everConnected && socket.snapshot !== null && !socket.snapshot.connected;
  const loading = feedsState.status === 'loading' || (active !== undefined && (!snapshot || snapshot.status === 'loading' || snapshot.status === 'idle'));
  const slow = useElapsed(loading && (snapshot?.notes.length ?? 0) === 0, SLOW_LOAD_MS);

  let body;
  if (feedsState.status === 'error') {
    body = (
      <RetryMessage title={t('home.feedsError')} retryLabel={t('common.retry')} onRetry={retryFeeds}>
        {socketDown ? t('feed.reconnecting') : t('feed.errorHint')}
      </RetryMessage>
    );
  } else if (feedsState.status === 'ready' && !active) {
    body = <StatusMessage title={t('home.noFeeds')}>{t('home.noFeedsHint')}</StatusMessage>;
  } else if (snapshot?.status === 'error' && snapshot.notes.length === 0) {
    body = (
      <RetryMessage title={t('feed.error')} retryLabel={t('common.retry')} onRetry={retry}>
        {socketDown ? t('feed.reconnecting') : t('feed.errorHint')}
      </RetryMessage>
    );
  } else if (snapshot && snapshot.notes.length > 0) {
    body = <FeedList notes={snapshot.notes} status={snapshot.status} hasMore={snapshot.hasMore} onLoadMore={loadMore} />;
  } else if (snapshot?.status === 'ready') {
    body = <StatusMessage title={t('feed.empty')}>{t('feed.emptyHint')}</StatusMessage>;
  } else {
    body = (
      <>
        {slow && <StatusMessage title={t('feed.slow')}>{socketDown || !socket.everConnected ? t('feed.connecting') : t('feed.slowHint')}</StatusMessage>}
        <FeedSkeleton label={t('feed.loading')} />
      </>
    );
  }

  return (
    <div className="page page-home">
      <header className="page-header">
        <h1 className="page-title">{t('nav.home')}</h1>
        <FeedSwitcher feeds={feeds} selected={active?.spec} onSelect={select} list="home" />
        {snapshot && <NewNotesPill count={snapshot.pendingCount} authors={snapshot.pendingAuthors} onShow={onShowPending} />}
      </header>
      {socketDown && (snapshot?.notes.length ?? 0) > 0 && (
        <p className="connection-banner" role="status">
          {t('feed.reconnecting')}
        </p>
      )}
      {body}
    </div>
  );
}
