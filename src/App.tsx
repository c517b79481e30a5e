import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { BottomNav, PhoneTopBar, SideNav } from './components/Nav';
import { Sidebar } from './components/Sidebar';
import type { PageKey } from './routes/InfoPage';
import type { PublicPageKey } from './routes/PublicPage';

// Every screen is its own chunk; /home loads the shell plus the Home chunk only.
const Home = lazy(() => import('./routes/Home'));
const InfoPage = lazy(() => import('./routes/InfoPage'));
const ReadsPage = lazy(() => import('./routes/InfoPage').then((m) => ({ default: m.ReadsPage })));
const SearchPage = lazy(() => import('./routes/InfoPage').then((m) => ({ default: m.SearchPage })));
const NotFound = lazy(() => import('./routes/InfoPage').then((m) => ({ default: m.NotFound })));
const VanityProfile = lazy(() => import('./routes/InfoPage').then((m) => ({ default: m.VanityProfile })));
const VanityThread = lazy(() => import('./routes/InfoPage').then((m) => ({ default: m.VanityThread })));
const SettingsMenu = lazy(() => import('./routes/Settings'));
const SettingsSubPage = lazy(() => import('./routes/Settings').then((m) => ({ default: m.SettingsSubPage })));
const PublicPage = lazy(() => import('./routes/PublicPage'));

// Built once at module level: a component created during render would remount its page on every navigation.
const info = (page: PageKey) => {
  const Page = () => <InfoPage page={page} />;
  Page.displayName = `InfoPage(${page})`;
  return Page;
};
const publicPage = (page: PublicPageKey) => {
  const Page = () => <PublicPage page={page} />;
  Page.displayName = `PublicPage(${page})`;
  return Page;
};

const Pages = {
  readsEdit: info('readsEdit'),
  thread: info('thread'),
  explore: info('explore'),
  exploreFeed: info('exploreFeed'),
  dms: info('dms'),
  notifications: info('notifications'),
  downloads: info('downloads'),
  bookmarks: info('bookmarks'),
  profile: info('profile'),
  help: info('help'),
  mutelist: info('mutelist'),
  new: info('new'),
  feeds: info('feeds'),
  premium: info('premium'),
  premiums: info('premiums'),
  legends: info('legends'),
  appDownloadQr: publicPage('appDownloadQr'),
  terms: publicPage('terms'),
  csaePolicy: publicPage('csaePolicy'),
  privacy: publicPage('privacy'),
  support: publicPage('support'),
};

function PageFallback() {
  return <div className="page page-loading" aria-busy="true" />;
}

/** Moves focus to the new page's content on navigation, so keyboard and screen-reader users land on it. */
function useFocusOnNavigate() {
  const [location] = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
  }, [location]);
}

function MainLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  useFocusOnNavigate();
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <SideNav />
      <PhoneTopBar />
      <main id="main" className="main-column" tabIndex={-1}>
        <Suspense fallback={<PageFallback />}>{children}</Suspense>
      </main>
      <Sidebar />
      <BottomNav />
    </div>
  );
}

function MainRoutes() {
  return (
    <Switch>
      <Route path="/">
        <Redirect to="/home" replace />
      </Route>
      <Route path="/home" component={Home} />
      <Route path="/reads/edit" component={Pages.readsEdit} />
      <Route path="/reads/:topic?" component={ReadsPage} />
      <Route path="/thread/:id" component={Pages.thread} />
      <Route path="/e/:id" component={Pages.thread} />
      <Route path="/a/:id" component={Pages.thread} />
      <Route path="/explore" component={Pages.explore} />
      <Route path="/explore/feed/:id" component={Pages.exploreFeed} />
      <Route path="/dms/:contact?" component={Pages.dms} />
      <Route path="/notifications" component={Pages.notifications} />
      <Route path="/downloads" component={Pages.downloads} />
      <Route path="/download">
        <Redirect to="/downloads" replace />
      </Route>
      <Route path="/settings" component={SettingsMenu} />
      <Route path="/settings/:page" component={SettingsSubPage} />
      <Route path="/bookmarks" component={Pages.bookmarks} />
      <Route path="/profile/:npub?" component={Pages.profile} />
      <Route path="/p/:npub?" component={Pages.profile} />
      <Route path="/help" component={Pages.help} />
      <Route path="/mutelist/:npub" component={Pages.mutelist} />
      <Route path="/new" component={Pages.new} />
      <Route path="/feeds" component={Pages.feeds} />
      <Route path="/feeds/:query" component={Pages.feeds} />
      <Route path="/search" component={SearchPage} />
      <Route path="/search/:query" component={SearchPage} />
      <Route path="/premium/:step?" component={Pages.premium} />
      <Route path="/premiums" component={Pages.premiums} />
      <Route path="/legends" component={Pages.legends} />
      <Route path="/404" component={NotFound} />
      <Route path="/:vanityName" component={VanityProfile} />
      <Route path="/:vanityName/:identifier" component={VanityThread} />
      <Route component={NotFound} />
    </Switch>
  );
}

export default function App() {
  return (
    <Suspense fallback={<PageFallback />}>
      <Switch>
        <Route path="/app-download-qr" component={Pages.appDownloadQr} />
        <Route path="/terms" component={Pages.terms} />
        <Route path="/csae-policy" component={Pages.csaePolicy} />
        <Route path="/privacy" component={Pages.privacy} />
        <Route path="/support" component={Pages.support} />
        <Route>
          <MainLayout>
            <MainRoutes />
          </MainLayout>
        </Route>
      </Switch>
    </Suspense>
  );
}
