/** The profile's tabs: each asks the worker for its part the first time it is opened. */
import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeedStatus, ProfileLoadingFlag, ProfileSnapshot, ProfileTab } from '../../../core/types';
import { FeedList } from '../FeedList';
import { TabStrip } from '../TabStrip';
import { FeedSkeleton } from '../NoteSkeleton';
import { mediaOf } from './format';
import { MediaGallery, RelayList, UserList, ZapList } from './ProfileLists';

export const PROFILE_TABS: ProfileTab[] = ['notes', 'replies', 'reads', 'media', 'zaps', 'followers', 'follows', 'relays'];

const FLAG: Record<ProfileTab, ProfileLoadingFlag> = {
  notes: 'notes',
  replies: 'replies',
  reads: 'reads',
  media: 'gallery',
  zaps: 'zaps',
  follows: 'contacts',
  followers: 'followers',
  relays: 'relays',
};

function countOf(s: ProfileSnapshot, tab: ProfileTab): number {
  switch (tab) {
    case 'notes':
    case 'replies':
    case 'reads':
    case 'media':
    case 'zaps':
    case 'follows':
    case 'followers':
      return s[tab].length;
    case 'relays':
      return Object.keys(s.relays).length;
  }
}

function MoreButton({ loading, onClick }: { loading: boolean; onClick: () => void }) {
  const { t } = useTranslation('profile');
  return (
    <div className="profile-more">
      <button type="button" className="button" onClick={onClick} disabled={loading} aria-busy={loading}>
        {loading ? t('loadingMore') : t('loadMore')}
      </button>
    </div>
  );
}

function TabBody({ snapshot, tab, requested, loadMore }: { snapshot: ProfileSnapshot; tab: ProfileTab; requested: boolean; loadMore: (tab: ProfileTab) => void }) {
  const { t } = useTranslation('profile');
  const loading = snapshot.loading[FLAG[tab]];
  const count = countOf(snapshot, tab);
  if (count === 0) {
    if (loading || !requested) return <FeedSkeleton label={t('tabLoading')} />;
    return <p className="profile-empty">{t(`empty.${tab}`)}</p>;
  }
  switch (tab) {
    case 'notes':
    case 'replies':
    case 'reads': {
      const status: FeedStatus = loading ? 'loadingMore' : 'ready';
      return <FeedList notes={snapshot[tab]} status={status} hasMore={snapshot.hasMore[tab]} onLoadMore={() => loadMore(tab)} />;
    }
    case 'media': {
      const found = mediaOf(snapshot.media).length > 0;
      return (
        <>
          {found ? <MediaGallery notes={snapshot.media} /> : <p className="profile-empty">{t('empty.media')}</p>}
          {snapshot.hasMore.media && <MoreButton loading={loading} onClick={() => loadMore('media')} />}
        </>
      );
    }
    case 'zaps':
      return (
        <>
          <ZapList zaps={snapshot.zaps} />
          {snapshot.hasMore.zaps && <MoreButton loading={loading} onClick={() => loadMore('zaps')} />}
        </>
      );
    case 'follows':
    case 'followers':
      return <UserList key={`${snapshot.pubkey}-${tab}`} users={snapshot[tab]} label={t(`tabs.${tab}`)} />;
    case 'relays':
      return <RelayList relays={snapshot.relays} />;
  }
}

export interface ProfileTabsProps {
  snapshot: ProfileSnapshot;
  tab: ProfileTab;
  onTab: (tab: ProfileTab) => void;
  loadTab: (tab: ProfileTab) => void;
  loadMore: (tab: ProfileTab) => void;
}

export function ProfileTabs({ snapshot, tab, onTab, loadTab, loadMore }: ProfileTabsProps) {
  const { t } = useTranslation('profile');
  const baseId = useId();
  const requested = useRef(new Set<string>());
  const key = `${snapshot.pubkey}:${tab}`;

  useEffect(() => {
    if (requested.current.has(key)) return;
    requested.current.add(key);
    loadTab(tab);
  }, [key, tab, loadTab]);

  return (
    <div className="profile-tabs-wrap">
      <TabStrip
        tabs={PROFILE_TABS}
        selected={tab}
        onSelect={onTab}
        label={t('tabs.label')}
        className="profile-tabs"
        tabClassName="tab profile-tab"
        tabId={(k) => `${baseId}-${k}`}
        panelId={() => `${baseId}-panel`}
      >
        {(k) => t(`tabs.${k}`)}
      </TabStrip>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-${tab}`} className="profile-panel" data-panel={tab}>
        <TabBody snapshot={snapshot} tab={tab} requested={requested.current.has(key)} loadMore={loadMore} />
      </div>
    </div>
  );
}
