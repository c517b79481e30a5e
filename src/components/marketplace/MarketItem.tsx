/** One marketplace feed: who made it, what it shows, its preview and the add/remove buttons. */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeedList } from '../../../core/types';
import { displayName, emptyProfile } from '../../../core/profile';
import { Avatar } from '../Avatar';
import { FeedPreview } from './FeedPreview';
import type { MarketFeed } from './marketData';

export interface MarketItemProps {
  feed: MarketFeed;
  list: FeedList;
  inList: boolean;
  inOther: boolean;
  /** Whether the feed fits the other list too. */
  offerOther: boolean;
  previewing: boolean;
  onPreview: () => void;
  onToggle: () => void;
  onToggleOther: () => void;
}

function FeedIcon({ feed }: { feed: MarketFeed }) {
  if (feed.pubkey) {
    // The DVM's own picture says more about the feed than its operator's avatar.
    const profile = { ...(feed.author ?? emptyProfile(feed.pubkey)) };
    if (feed.picture) profile.picture = feed.picture;
    return <Avatar profile={profile} name={feed.name} size={40} />;
  }
  return (
    <span className="market-icon" aria-hidden="true">
      {(Array.from(feed.name.trim())[0] ?? '?').toLocaleUpperCase('hu')}
    </span>
  );
}

export function MarketItem({ feed, list, inList, inOther, offerOther, previewing, onPreview, onToggle, onToggleOther }: MarketItemProps) {
  const { t } = useTranslation('feeds');
  const previewId = useId();
  const nameId = useId();
  const author = feed.author ? displayName(feed.author) : '';
  const otherAction = list === 'home' ? (inOther ? t('market.removeFromReads') : t('market.addToReads')) : inOther ? t('market.removeFromHome') : t('market.addToHome');

  return (
    <li className={`market-item${inList ? ' is-added' : ''}`} aria-labelledby={nameId}>
      <div className="market-row">
        <FeedIcon feed={feed} />
        <div className="market-info">
          <h3 id={nameId} className="market-name">
            {feed.name}
          </h3>
          {feed.description && <p className="market-desc">{feed.description}</p>}
          {(author || feed.likes !== undefined || inList) && (
            <p className="market-meta">
              {author && <span className="market-author">{t('market.by', { name: author })}</span>}
              {feed.likes !== undefined && feed.likes > 0 && <span>{t('market.likes', { count: feed.likes })}</span>}
              {inList && <span>{t('market.added')}</span>}
            </p>
          )}
        </div>
      </div>
      <div className="market-actions">
        <button
          type="button"
          className={`button${inList ? ' button-secondary' : ''}`}
          onClick={onToggle}
          aria-label={t(inList ? 'market.removeLabel' : 'market.addLabel', { name: feed.name })}
        >
          {inList ? t('market.remove') : t('market.add')}
        </button>
        <button type="button" className="button button-secondary" aria-expanded={previewing} aria-controls={previewId} onClick={onPreview}>
          {previewing ? t('market.hidePreview') : t('market.preview')}
        </button>
        {(offerOther || inOther) && (
          <button type="button" className="market-other" onClick={onToggleOther} aria-label={t('market.alsoLabel', { name: feed.name, action: otherAction })}>
            {otherAction}
          </button>
        )}
      </div>
      {previewing && <FeedPreview id={previewId} name={feed.name} spec={feed.spec} />}
    </li>
  );
}
