import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useFixedT } from './i18n';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { BottomNav, PhoneTopBar, SideNav } from './components/Nav';
import { Sidebar } from './components/Sidebar';
import { isHomePath } from './lib/routes';
import { usePhoneLayout } from './lib/layout';
import type { PublicPageKey } from './routes/PublicPage';
import { useKeyboardShortcuts } from './lib/keyboard';
import { preloadable } from './lib/preloadable';
import { OverlayHost } from './components/OverlayHost';
import { Toaster } from './components/Toaster';
import { SettingsSync } from './components/settings/SettingsSync';
import './styles/keyboard-focus.css';

// Every screen is its own chunk; /home loads the shell plus the Home chunk only.
export const Home = preloadable(() => import('./routes/Home'));
const NotFound = lazy(() => import('./routes/PageIntro').then((m) => ({ default: m.NotFound })));
// One module per screen, each loaded only when its route is visited.
const Reads = lazy(() => import('./routes/Reads'));
const Article = lazy(() => import('./routes/Article'));
export const Thread = preloadable(() => import('./routes/Thread'));
const VanityThread = lazy(() => import('./routes/Thread').then((m) => ({ default: m.VanityThread })));
export const Profile = preloadable(() => import('./routes/Profile'));
const VanityProfile = lazy(() => import('./routes/Profile').then((m) => ({ default: m.VanityProfile })));
const Explore = lazy(() => import('./routes/Explore'));
const ExploreFeed = lazy(() => import('./routes/Explore').then((m) => ({ default: m.ExploreFeedRoute })));
const Search = lazy(() => import('./routes/Search'));
const Feeds = lazy(() => import('./routes/Search').then((m) => ({ default: m.FeedsRoute })));
const Notifications = lazy(() => import('./routes/Notifications'));
const Dms = lazy(() => import('./routes/Dms'));
const Downloads = lazy(() => import('./routes/Downloads'));
const Help = lazy(() => import('./routes/Downloads').then((m) => ({ default: m.HelpRoute })));
const ReadsEditor = lazy(() => import('./routes/ReadsEditor'));
const Bookmarks = lazy(() => import('./routes/Bookmarks'));
const MuteList = lazy(() => import('./routes/MuteList'));
const NewAccount = lazy(() => import('./routes/NewAccount'));
const SettingsMenu = lazy(() => import('./routes/Settings'));
const SettingsSubPage = lazy(() => import('./routes/Settings').then((m) => ({ default: m.SettingsSubPage })));
const PublicPage = lazy(() => import('./routes/PublicPage'));
const Premium = lazy(() => import('./routes/Premium'));
const Premiums = lazy(() => import('./routes/Premium').then((m) => ({ default: m.PremiumsRoute })));
const Legends = lazy(() => import('./routes/Premium').then((m) => ({ default: m.LegendsRoute })));
// Only fetched when someone presses '?'.
const ShortcutsDialog = lazy(() => import('./components/ShortcutsDialog'));

// Built once at module level: a component created during render would remount its page on every navigation.
const publicPage = (page: PublicPageKey) => {
  const Page = () => <PublicPage page={page} />;
  Page.displayName = `PublicPage(${page})`;
  return Page;
};

const Pages = {
  appDownloadQr: publicPage('appDownloadQr'),
  terms: publicPage('terms'),
  csaePolicy: publicPage('csaePolicy'),
  privacy: publicPage('privacy'),
  support: publicPage('support'),
};

/** The chunk of the screen a first load lands on, fetched before the first render (see preloadable). */
export function preloadFirstScreen(path: string): Promise<void> {
  const screen = isHomePath(path) ? Home : /^\/(thread|e)\//.test(path) ? Thread : /^\/(profile|p)(\/|$)/.test(path) ? Profile : null;
  return screen ? screen.preload() : Promise.resolve();
}

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
  const { t } = useFixedT();
  useFocusOnNavigate();
  const phone = usePhoneLayout();
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      {!phone && (
        <div className="nav-rail">
          <SideNav />
        </div>
      )}
      {phone && <PhoneTopBar />}
      <main id="main" className="main-column" tabIndex={-1}>
        <Suspense fallback={<PageFallback />}>{children}</Suspense>
      </main>
      <div className="sidebar-rail">
        <Sidebar />
      </div>
      {phone && <BottomNav />}
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
      <Route path="/reads/edit" component={ReadsEditor} />
      <Route path="/reads/:topic?" component={Reads} />
      <Route path="/thread/:id" component={Thread} />
      <Route path="/e/:id" component={Thread} />
      <Route path="/a/:id" component={Article} />
      <Route path="/explore" component={Explore} />
      <Route path="/explore/feed/:id" component={ExploreFeed} />
      <Route path="/dms/:contact?" component={Dms} />
      <Route path="/notifications" component={Notifications} />
      <Route path="/downloads" component={Downloads} />
      <Route path="/download">
        <Redirect to="/downloads" replace />
      </Route>
      <Route path="/settings" component={SettingsMenu} />
      <Route path="/settings/:page" component={SettingsSubPage} />
      <Route path="/bookmarks" component={Bookmarks} />
      <Route path="/profile/:npub?" component={Profile} />
      <Route path="/p/:npub?" component={Profile} />
      <Route path="/help" component={Help} />
      <Route path="/mutelist/:npub" component={MuteList} />
      <Route path="/new" component={NewAccount} />
      <Route path="/feeds" component={Feeds} />
      <Route path="/feeds/:query" component={Feeds} />
      <Route path="/search" component={Search} />
      <Route path="/search/:query" component={Search} />
      <Route path="/premium/:step?" component={Premium} />
      <Route path="/premiums" component={Premiums} />
      <Route path="/legends" component={Legends} />
      <Route path="/404" component={NotFound} />
      <Route path="/:vanityName" component={VanityProfile} />
      <Route path="/:vanityName/:identifier" component={VanityThread} />
      <Route component={NotFound} />
    </Switch>
  );
}

/** The global keyboard shortcuts, and the list of them that '?' opens. */
function KeyboardShortcuts() {
  // Each opening is a fresh dialog: a '?' pressed while the last one's close is still being
  // rendered would otherwise leave a mounted but closed dialog.
  const [opened, setOpened] = useState(0);
  const [open, setOpen] = useState(false);
  const show = useCallback(() => {
    setOpened((n) => n + 1);
    setOpen(true);
  }, []);
  const hide = useCallback(() => setOpen(false), []);
  useKeyboardShortcuts(show);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ShortcutsDialog key={opened} onClose={hide} />
    </Suspense>
  );
}

export default function App() {
  return (
    <Suspense fallback={<PageFallback />}>
      <KeyboardShortcuts />
      <OverlayHost />
      <Toaster />
      <SettingsSync />
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
