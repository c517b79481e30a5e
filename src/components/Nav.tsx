import { type ComponentType } from 'react';
import { useFixedT } from '../i18n';
import type { TFunction } from 'i18next';
import { Link, useLocation } from 'wouter';
import {
  BellIcon,
  BookmarkIcon,
  DownloadIcon,
  ExploreIcon,
  HelpIcon,
  HomeIcon,
  MessagesIcon,
  PremiumIcon,
  ReadsIcon,
  SettingsIcon,
} from './Icons';
import { LogoMark } from './Logo';
import { AccountChip } from './AccountChip';
import { NewNoteButton } from './composer/ComposeButton';
import { version } from '../../package.json';
import { formatBadgeCount } from '../lib/format';
import { toastError, toastSuccess } from '../lib/toast';
import { useDmCount, useNotificationCount, useReleases } from './notifications/badges';
import './notifications/nav.css';

interface NavItem {
  href: string;
  key: 'home' | 'reads' | 'explore' | 'dms' | 'notifications' | 'bookmarks' | 'premium' | 'settings' | 'downloads' | 'help';
  Icon: ComponentType<{ size?: number }>;
  /** Part of the phone's bottom bar, which only has room for the everyday sections. */
  phone?: boolean;
}

const NAV_ITEMS: NavItem[] = [
  { href: '/home', key: 'home', Icon: HomeIcon, phone: true },
  { href: '/reads', key: 'reads', Icon: ReadsIcon, phone: true },
  { href: '/explore', key: 'explore', Icon: ExploreIcon, phone: true },
  { href: '/dms', key: 'dms', Icon: MessagesIcon, phone: true },
  { href: '/notifications', key: 'notifications', Icon: BellIcon, phone: true },
  { href: '/bookmarks', key: 'bookmarks', Icon: BookmarkIcon },
  { href: '/premium', key: 'premium', Icon: PremiumIcon },
  { href: '/settings', key: 'settings', Icon: SettingsIcon },
  { href: '/downloads', key: 'downloads', Icon: DownloadIcon },
  { href: '/help', key: 'help', Icon: HelpIcon },
];

function isActive(location: string, href: string): boolean {
  return location === href || location.startsWith(`${href}/`);
}

/** The unread notification and message counts and whether a new app release waits, shared by both navigations. */
function useBadges(): { notifications: number; dms: number; release: boolean } {
  const count = useNotificationCount();
  const dms = useDmCount();
  const releases = useReleases();
  return { notifications: count?.count ?? 0, dms, release: releases?.badge ?? false };
}

/** "99+" is too wide to hang off the icon's corner without covering the label: it covers the icon instead. */
const countBadgeClass = (count: number) => (formatBadgeCount(count).length > 2 ? 'nav-badge nav-badge-wide' : 'nav-badge');

// The navigation's t comes in as a prop: a hook here would run for every link of the list although
// most links show no badge.
function Badge({ item, badges, t }: { item: NavItem['key']; badges: ReturnType<typeof useBadges>; t: TFunction }) {
  if (item === 'notifications' && badges.notifications > 0) {
    return (
      <span className={countBadgeClass(badges.notifications)} data-badge="notifications">
        <span aria-hidden="true">{formatBadgeCount(badges.notifications)}</span>
        <span className="visually-hidden">{t('nav.unread', { count: badges.notifications })}</span>
      </span>
    );
  }
  if (item === 'dms' && badges.dms > 0) {
    return (
      <span className={countBadgeClass(badges.dms)} data-badge="dms">
        <span aria-hidden="true">{formatBadgeCount(badges.dms)}</span>
        <span className="visually-hidden">{t('nav.unreadDms', { count: badges.dms })}</span>
      </span>
    );
  }
  if (item === 'downloads' && badges.release) {
    return (
      <span className="nav-badge nav-badge-dot" data-badge="downloads">
        <span className="visually-hidden">{t('nav.newRelease')}</span>
      </span>
    );
  }
  return null;
}

/** Shares the app's address: the system share sheet where there is one, else the clipboard and a toast. */
function ShareButton() {
  const { t } = useFixedT();
  const share = async () => {
    const url = `${location.origin}/home`;
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: t('app.name'), text: t('nav.shareText'), url });
        return;
      } catch (err) {
        if (err instanceof DOMException && err.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      toastSuccess(t('nav.shareCopied'));
    } catch {
      toastError(t('nav.shareFailed', { url }));
    }
  };
  return (
    <button type="button" className="nav-extra-link" onClick={() => void share()}>
      {t('nav.share')}
    </button>
  );
}

/** Spec §2 sidebar links: source code, donation, the information documents and sharing. */
function ExtraLinks() {
  const { t } = useFixedT();
  const links: { href: string; key: string }[] = [
    { href: '/help#forraskod', key: 'sourceCode' },
    { href: '/support#tamogatas', key: 'donate' },
    { href: '/terms', key: 'terms' },
    { href: '/privacy', key: 'privacy' },
    { href: '/csae-policy', key: 'csae' },
  ];
  return (
    <nav className="nav-extra" aria-label={t('nav.extraLabel')}>
      <ul>
        {links.map(({ href, key }) => (
          <li key={key}>
            <Link href={href} className="nav-extra-link">
              {t(`nav.${key}`)}
            </Link>
          </li>
        ))}
        <li>
          <ShareButton />
        </li>
      </ul>
    </nav>
  );
}

function Brand() {
  const { t } = useFixedT();
  return (
    <Link href="/home" className="brand" aria-label={t('nav.logoLabel')}>
      <LogoMark size={40} />
      <span className="brand-name" aria-hidden="true">
        {t('app.name')}
      </span>
    </Link>
  );
}

export function SideNav() {
  const { t } = useFixedT();
  const [location] = useLocation();
  const badges = useBadges();
  return (
    <header className="side-nav">
      <Brand />
      <nav aria-label={t('nav.label')}>
        <ul className="nav-list">
          {NAV_ITEMS.map(({ href, key, Icon }) => {
            const active = isActive(location, href);
            return (
              <li key={key}>
                <Link href={href} className="nav-link" aria-current={active ? 'page' : undefined} title={t(`nav.${key}`)}>
                  <span className="nav-icon">
                    <Icon size={24} />
                    <Badge item={key} badges={badges} t={t} />
                  </span>
                  <span className="nav-text">{t(`nav.${key}`)}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <NewNoteButton />
      <AccountChip />
      <ExtraLinks />
      <p className="app-version">{t('app.version', { version: version })}</p>
    </header>
  );
}

export function PhoneTopBar() {
  const { t } = useFixedT();
  const [location] = useLocation();
  const extras = NAV_ITEMS.filter((item) => item.key === 'settings' || item.key === 'help');
  return (
    <header className="phone-top">
      <Brand />
      <nav aria-label={t('nav.label')} className="phone-top-links">
        {extras.map(({ href, key, Icon }) => (
          <Link key={key} href={href} className="icon-link" aria-current={isActive(location, href) ? 'page' : undefined} aria-label={t(`nav.${key}`)}>
            <Icon size={22} />
          </Link>
        ))}
        <AccountChip compact />
      </nav>
    </header>
  );
}

export function BottomNav() {
  const { t } = useFixedT();
  const [location] = useLocation();
  const badges = useBadges();
  return (
    <>
      <NewNoteButton floating />
      <nav className="bottom-nav" aria-label={t('nav.phoneLabel')}>
        <ul>
          {NAV_ITEMS.filter((item) => item.phone).map(({ href, key, Icon }) => (
            <li key={key}>
              <Link href={href} className="bottom-link" aria-current={isActive(location, href) ? 'page' : undefined}>
                <span className="nav-icon">
                  <Icon size={24} />
                  <Badge item={key} badges={badges} t={t} />
                </span>
                <span className="bottom-text">{t(`nav.${key}`)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}
