import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
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
import { version } from '../../package.json';

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

function Brand() {
  const { t } = useTranslation();
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
  const { t } = useTranslation();
  const [location] = useLocation();
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
                  <Icon size={24} />
                  <span className="nav-text">{t(`nav.${key}`)}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <AccountChip />
      <p className="app-version">{t('app.version', { version: version })}</p>
    </header>
  );
}

export function PhoneTopBar() {
  const { t } = useTranslation();
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
  const { t } = useTranslation();
  const [location] = useLocation();
  return (
    <nav className="bottom-nav" aria-label={t('nav.phoneLabel')}>
      <ul>
        {NAV_ITEMS.filter((item) => item.phone).map(({ href, key, Icon }) => (
          <li key={key}>
            <Link href={href} className="bottom-link" aria-current={isActive(location, href) ? 'page' : undefined}>
              <Icon size={24} />
              <span className="bottom-text">{t(`nav.${key}`)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
