/**
 * The feed marketplace (opened with openOverlay({kind:'marketplace', list})): Strucc and DVM feeds,
 * filtered by name, each with a preview of its first notes and add/remove for both lists.
 */
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TabStrip } from '../TabStrip';
import { Link } from 'wouter';
import type { FeedList } from '../../../core/types';
import { useAccount } from '../../lib/account';
import { useLoad } from '../explore/useExplore';
import { findFeed, matchesQuery, toDefinition } from '../feedSettings/feedModel';
import { addFeedTo, removeFeedFrom, useUserFeeds } from '../feedSettings/useUserFeeds';
import { Modal } from '../Modal';
import { FeedSkeleton } from '../NoteSkeleton';
import { StatusMessage, RetryMessage } from '../StatusMessage';
import { MarketItem } from './MarketItem';
import { isReadsSpec, loadMarket, type MarketFeed } from './marketData';
import '../feedSettings/i18n';
import '../../styles/feeds.css';
import '../../styles/marketplace.css';

const TABS = ['strucc', 'dvm'] as const;
type Tab = (typeof TABS)[number];

export default function FeedMarketplace({ list, onClose }: { list: FeedList; onClose: () => void }) {
  const { t } = useTranslation('feeds');
  const account = useAccount();
  const viewer = account?.login.state === 'signedIn' || account?.login.state === 'readOnly' ? account.login.pubkey : undefined;
  const catalogue = useLoad(`market:${list}:${viewer ?? ''}`, (api) => loadMarket(api, list, viewer));
  const mine = useUserFeeds(list);
  const other: FeedList = list === 'home' ? 'reads' : 'home';
  const theirs = useUserFeeds(other);
  const [tab, setTab] = useState<Tab>('strucc');
  const [query, setQuery] = useState('');
  const [previewing, setPreviewing] = useState<string | null>(null);
  const baseId = useId();

  const feeds: MarketFeed[] = catalogue.state.status === 'ready' ? catalogue.state.value[tab] : [];
  const shown = useMemo(() => feeds.filter((f) => matchesQuery(f, query)), [feeds, query]);

  const toggle = (target: FeedList, feed: MarketFeed) => {
    const current = target === list ? mine.feeds : theirs.feeds;
    if (current && findFeed(current, feed.spec)) void removeFeedFrom(target, feed.spec, current);
    else void addFeedTo(target, toDefinition(feed), mine.canEdit);
  };

  let body;
  if (catalogue.state.status === 'error') {
    body = (
      <RetryMessage title={t('market.error')} retryLabel={t('market.retry')} onRetry={catalogue.retry}>
        {t('market.errorHint')}
      </RetryMessage>
    );
  } else if (catalogue.state.status === 'loading') {
    body = <FeedSkeleton label={t('market.loading')} />;
  } else if (shown.length === 0) {
    body = <StatusMessage title={query.trim() ? t('market.noMatch') : tab === 'dvm' ? t('market.dvmEmpty') : t('market.struccEmpty')} />;
  } else {
    body = (
      <>
        <p className="market-count" role="status">
          {t('market.count', { count: shown.length })}
        </p>
        <ul className="market-list">
          {shown.map((feed) => (
            <MarketItem
              key={feed.spec}
              feed={feed}
              list={list}
              inList={!!mine.feeds && !!findFeed(mine.feeds, feed.spec)}
              inOther={!!theirs.feeds && !!findFeed(theirs.feeds, feed.spec)}
              // Home shows any note, articles too; the reads page only makes sense for article feeds.
              offerOther={other === 'home' || isReadsSpec(feed.spec)}
              previewing={previewing === feed.spec}
              onPreview={() => setPreviewing((p) => (p === feed.spec ? null : feed.spec))}
              onToggle={() => toggle(list, feed)}
              onToggleOther={() => toggle(other, feed)}
            />
          ))}
        </ul>
      </>
    );
  }

  return (
    <Modal
      title={t(list === 'home' ? 'market.titleHome' : 'market.titleReads')}
      className="modal-wide feed-marketplace"
      onClose={onClose}
      initialFocus="input[type=search]"
      footer={
        <>
          {mine.canEdit && (
            <Link href={`/settings/${list}_feeds`} className="button button-secondary" onClick={onClose}>
              {t('market.edit')}
            </Link>
          )}
          <button type="button" className="button" onClick={onClose}>
            {t('market.done')}
          </button>
        </>
      }
    >
      <TabStrip
        tabs={TABS}
        selected={tab}
        onSelect={setTab}
        label={t('market.tabs')}
        className="market-tabs"
        tabClassName="chip"
        tabId={(name) => `${baseId}-tab-${name}`}
        panelId={() => `${baseId}-panel`}
      >
        {(name) => t(`market.${name}`)}
      </TabStrip>
      <div className="form-field market-search">
        <label htmlFor={`${baseId}-search`} className="visually-hidden">
          {t('market.search')}
        </label>
        <input
          id={`${baseId}-search`}
          type="search"
          className="form-input"
          value={query}
          placeholder={t('market.searchPlaceholder')}
          aria-label={t('market.search')}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <div id={`${baseId}-panel`} role="tabpanel" aria-labelledby={`${baseId}-tab-${tab}`}>
        {tab === 'dvm' && <p className="market-hint">{t('market.dvmHint')}</p>}
        {body}
      </div>
    </Modal>
  );
}
