import { useTranslation } from 'react-i18next';
import type { FeedDefinition } from '../../worker/types';

interface FeedSwitcherProps {
  feeds: FeedDefinition[];
  selected: string | undefined;
  onSelect: (spec: string) => void;
}

/** Toggle buttons rather than ARIA tabs: each choice replaces the whole list below, like a filter. */
export function FeedSwitcher({ feeds, selected, onSelect }: FeedSwitcherProps) {
  const { t } = useTranslation();
  if (feeds.length < 2) return null;
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
    </div>
  );
}
