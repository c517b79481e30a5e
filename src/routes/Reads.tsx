import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { FeedSwitcher } from '../components/FeedSwitcher';
import { useSwitcherFeeds } from '../components/feedSettings/useUserFeeds';
import { NewNotesPill } from '../components/NewNotesPill';
import { FeedSkeleton } from '../components/NoteSkeleton';
import { StatusMessage, RetryMessage } from '../components/StatusMessage';
import { ArticleList } from '../components/reads/ArticleList';
import { parseFeedList, syntheticContent, topicSpec } from '../components/reads/articleMeta';
import { FeaturedAuthor, TopicChips, TopPicks } from '../components/reads/ReadsExtras';
import { readyEvents, useCacheRequest } from '../components/reads/useCache';
import { registerNamespace } from '../i18n';
import { useActingPubkey } from '../lib/account';
import { usePageTitle } from '../lib/hooks';
import { useFeed } from '../lib/useFeed';
import hu from '../../locales/hu/reads.json';
import en from '../../locales/en/reads.json';
import { CacheKind } from '../../core/kinds';
import '../styles/reads.css';

registerNamespace('reads', { hu, en });

const SELECTED_FEED_KEY = 'readsFeed';

function decodeTopic(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw).trim().toLowerCase() || undefined;
  } catch {
    return raw.trim().toLowerCase() || undefined;
  }
}

function readSelected(): string | undefined {
  try {
    return localStorage.getItem(SELECTED_FEED_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** /reads/{topic?}: the reads feeds, or one topic's articles. */
export default function ReadsRoute() {
  const { t } = useTranslation('reads');
  const topic = decodeTopic(useParams<{ topic?: string }>().topic);
  const signedIn = useActingPubkey() !== undefined;
  usePageTitle(topic ? t('topicTitle', { topic }) : t('title'));

  // A signed-in user's own list (enabled feeds, in their order) replaces the server's defaults once loaded.
  const userFeeds = useSwitcherFeeds('reads');
  const feedsReply = useCacheRequest(topic || userFeeds ? null : 'get_reads_feeds', undefined, 'reads-feeds');
  const defaultFeeds = useMemo(
    () => parseFeedList(syntheticContent(readyEvents(feedsReply.state), CacheKind.READS_FEEDS)).filter((f) => f.enabled),
    [feedsReply.state],
  );
  const feeds = userFeeds ?? defaultFeeds;
  const [selected, setSelected] = useState<string | undefined>(readSelected);
  const active = feeds.find((f) => f.spec === selected) ?? feeds[0];
  const spec = topic ? topicSpec(topic) : active?.spec;
  const { snapshot, loadMore, showPending, retry } = useFeed(spec);

  const select = useCallback((next: string) => {
    setSelected(next);
    try {
      localStorage.setItem(SELECTED_FEED_KEY, next);
    } catch {
      // The choice still holds for this visit.
    }
    window.scrollTo({ top: 0 });
  }, []);

  const feedsFailed = !topic && !userFeeds && (feedsReply.state.status === 'error' || feedsReply.state.status === 'notice');
  let body;
  if (feedsFailed) {
    body = (
      <RetryMessage title={t('feedsError')} retryLabel={t('retry')} onRetry={feedsReply.retry}>
        {t('errorHint')}
      </RetryMessage>
    );
  } else if (!topic && (userFeeds || feedsReply.state.status === 'ready') && !active) {
    body = <StatusMessage title={t('noFeeds')}>{t('noFeedsHint')}</StatusMessage>;
  } else if (snapshot?.status === 'error' && snapshot.notes.length === 0) {
    body = (
      <RetryMessage title={t('feedError')} retryLabel={t('retry')} onRetry={retry}>
        {t('errorHint')}
      </RetryMessage>
    );
  } else if (snapshot && snapshot.notes.length > 0) {
    body = (
      <ArticleList
        notes={snapshot.notes}
        status={snapshot.status}
        hasMore={snapshot.hasMore}
        onLoadMore={loadMore}
        label={topic ? t('topicListLabel', { topic }) : t('listLabel')}
      />
    );
  } else if (snapshot?.status === 'ready') {
    body = topic ? (
      <StatusMessage title={t('topicEmpty', { topic })} action={<Link href="/reads" className="button">{t('allReads')}</Link>}>
        {t('topicEmptyHint')}
      </StatusMessage>
    ) : (
      <StatusMessage title={t('empty')}>{t('emptyHint')}</StatusMessage>
    );
  } else {
    body = <FeedSkeleton label={t('loading')} />;
  }

  return (
    <div className="page page-reads">
      <header className="page-header">
        {topic ? (
          <div className="reads-topic-heading">
            <Link href="/reads" className="reads-back">
              {t('allReads')}
            </Link>
            <h1 className="page-title">{t('topicTitle', { topic })}</h1>
          </div>
        ) : (
          <div className="reads-title-row">
            <h1 className="page-title">{t('title')}</h1>
            {signedIn && (
              <Link href="/reads/edit" className="button reads-write">
                {t('write')}
              </Link>
            )}
          </div>
        )}
        {!topic && <FeedSwitcher feeds={feeds} selected={active?.spec} onSelect={select} list="reads" />}
        {snapshot && <NewNotesPill count={snapshot.pendingCount} authors={snapshot.pendingAuthors} onShow={showPending} />}
      </header>
      <TopicChips current={topic} />
      {!topic && (
        <div className="reads-extras">
          <TopPicks />
          <FeaturedAuthor />
        </div>
      )}
      {body}
    </div>
  );
}
