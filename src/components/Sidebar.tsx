import { lazy, Suspense, useEffect, useState } from 'react';
import { useFixedT } from '../i18n';
import { SearchCombobox } from './search/SearchCombobox';
import { PremiumReminder } from './PremiumReminder';

// The trending block costs a request and some parsing; it must not delay the feed's first paint.
const Trending = lazy(() => import('./Trending'));

/**
 * True from the frame after the first render. The trending block's lazy import, made inside that
 * render, added its preload links and requests to the first screen's own work; its answer comes from
 * the worker, which a revisit of /home starts only after that paint anyway (main.tsx).
 */
function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setPainted(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  return painted;
}

export function Sidebar() {
  const { t } = useFixedT();
  const painted = usePainted();
  // Busy until the block's code has come: a page is not finished while its sidebar is still on the way.
  const busy = <div aria-busy="true" />;
  return (
    <aside className="right-sidebar" aria-label={t('sidebar.label')}>
      <div className="sidebar-inner">
        <SearchCombobox />
        <PremiumReminder />
        {/* A page with blocks of its own (a profile's popular notes) renders them here through a portal. */}
        <div id="page-sidebar" className="page-sidebar" style={{ display: 'contents' }} />
        {painted ? (
          <Suspense fallback={busy}>
            <Trending />
          </Suspense>
        ) : (
          busy
        )}
      </div>
    </aside>
  );
}
