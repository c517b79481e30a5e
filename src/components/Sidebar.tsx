import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchCombobox } from './search/SearchCombobox';
import { PremiumReminder } from './PremiumReminder';

// The trending block costs a request and some parsing; it must not delay the feed's first paint.
const Trending = lazy(() => import('./Trending'));

export function Sidebar() {
  const { t } = useTranslation();
  return (
    <aside className="right-sidebar" aria-label={t('sidebar.label')}>
      <div className="sidebar-inner">
        <SearchCombobox />
        <PremiumReminder />
        {/* A page with blocks of its own (a profile's popular notes) renders them here through a portal. */}
        <div id="page-sidebar" className="page-sidebar" style={{ display: 'contents' }} />
        {/* Busy until the block's code has come: a page is not finished while its sidebar is still on the way. */}
        <Suspense fallback={<div aria-busy="true" />}>
          <Trending />
        </Suspense>
      </div>
    </aside>
  );
}
