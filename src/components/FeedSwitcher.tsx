import { useFixedT } from '../i18n';
import type { FeedDefinition, FeedList } from '../../core/types';
import { FeedSwitcherEdit } from './feedSettings/FeedSwitcherEdit';

interface FeedSwitcherProps {
  feeds: FeedDefinition[];
  selected: string | undefined;
  onSelect: (spec: string) => void;
  /** Which list the feeds are: adds the entries to the marketplace and the feed settings. */
  list?: FeedList;
}

/** Toggle buttons rather than ARIA tabs: each choice replaces the whole list below, like a filter. */
export function FeedSwitcher({ feeds, selected, onSelect, list }: FeedSwitcherProps) {
  const { t } = useFixedT();
  if (feeds.length < 2 && !list) return null;
  return (
    <div className="feed-switcher" role="group" aria-label={t('feed.switcherLabel')}>
      {feeds.map((feed) => (
        <button
          key={feed.spec}
          type="button"
          className="chip"
          aria-pressed={feed.spec === selected}
          title={feed.description || undefined}
          onClick={() => onSelect(feed.spec)}
        >
          {feed.name}
        </button>
      ))}
      {list && <FeedSwitcherEdit list={list} />}
    </div>
  );
}
