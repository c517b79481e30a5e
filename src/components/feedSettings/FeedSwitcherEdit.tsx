/** The switcher's way out to the feed lists: "+" opens the marketplace, the link opens the settings page. */
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { FeedList } from '../../../core/types';
import { openOverlay } from '../../lib/overlays';
import { useUserFeeds } from './useUserFeeds';
import './i18n';
import '../../styles/feeds.css';
import '../../styles/marketplace.css';

export function FeedSwitcherEdit({ list }: { list: FeedList }) {
  const { t } = useTranslation('feeds');
  const { canEdit } = useUserFeeds(list);
  return (
    <span className="feed-switcher-edit">
      <button
        type="button"
        className="chip feed-switcher-add"
        aria-label={t('switcher.add')}
        title={t('switcher.add')}
        onClick={() => openOverlay({ kind: 'marketplace', list })}
      >
        <span aria-hidden="true">+</span>
      </button>
      {canEdit && (
        <Link href={`/settings/${list}_feeds`} className="chip feed-switcher-settings">
          {t('switcher.edit')}
        </Link>
      )}
    </span>
  );
}
