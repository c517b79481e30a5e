/** The profile tabs that are not note feeds: media gallery, zaps, people and relays. */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { neventEncode } from 'nostr-tools/nip19';
import type { FeedNote, Profile, ProfileZap, RelayFlags } from '../../../core/types';
import { displayName, emptyProfile } from '../../../core/profile';
import { formatCount, formatFullDate, formatRelativeTime } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { mediaUrl } from '../../lib/media';
import { Avatar } from '../Avatar';
import { FollowButton } from '../actions/FollowButton';
import { ZapIcon } from '../Icons';
import { mediaOf } from './format';
import { useUserInfos } from './hooks';

/** People lists arrive whole (up to thousands); they are drawn a page at a time. */
export const PEOPLE_PAGE = 30;
const ABOUT_SNIPPET = 120;

function noteHref(note: FeedNote): string {
  try {
    return `/e/${neventEncode({ id: note.event.id, author: note.event.pubkey })}`;
  } catch {
    return `/e/${note.event.id}`;
  }
}

export function MediaGallery({ notes }: { notes: FeedNote[] }) {
  const { t } = useTranslation('profile');
  const items = mediaOf(notes);
  if (items.length === 0) return null;
  return (
    <ul className="profile-gallery" aria-label={t('tabs.media')}>
      {items.map((item, i) => (
        <li key={item.url}>
          <Link href={noteHref(item.note)} className="profile-gallery-item" aria-label={t('gallery.open', { n: i + 1 })}>
            {item.video ? (
              <video src={item.url} muted playsInline preload="metadata" aria-hidden="true" />
            ) : (
              <img src={mediaUrl(item.url, 's')} alt={t('gallery.alt', { n: i + 1 })} loading="lazy" decoding="async" />
            )}
            {item.video && <span className="profile-gallery-video">{t('gallery.video')}</span>}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function profileHref(p: Profile): string {
  return `/p/${p.npub || p.pubkey}`;
}

export function ZapList({ zaps }: { zaps: ProfileZap[] }) {
  const { t, i18n } = useTranslation('profile');
  const now = useNow();
  const locale = i18n.resolvedLanguage ?? 'hu';
  const senders = useUserInfos(zaps.map((z) => z.sender).filter(Boolean));
  return (
    <ul className="profile-zaps">
      {zaps.map((z) => {
        const sender = senders[z.sender] ?? emptyProfile(z.sender);
        const name = displayName(sender);
        return (
          <li key={z.id} className="profile-zap" data-zap-id={z.id}>
            <Link href={profileHref(sender)} className="profile-zap-avatar" tabIndex={-1} aria-hidden="true">
              <Avatar profile={sender} name={name} size={40} />
            </Link>
            <div className="profile-zap-body">
              <p className="profile-zap-head">
                <Link href={profileHref(sender)} className="profile-zap-sender">
                  {name}
                </Link>
                <span className="profile-zap-amount">
                  <ZapIcon size={15} />
                  {t('zaps.amount', { amount: formatCount(z.amount, { locale }) })}
                </span>
                <time className="profile-zap-time" dateTime={new Date(z.created_at * 1000).toISOString()} title={formatFullDate(z.created_at, locale)}>
                  {formatRelativeTime(z.created_at, now, locale)}
                </time>
              </p>
              {z.message && <p className="profile-zap-message">{z.message}</p>}
              {z.eventId && (
                <Link href={`/e/${z.eventId}`} className="profile-zap-note">
                  {t('zaps.onNote')}
                </Link>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ABOUT_SNIPPET ? `${flat.slice(0, ABOUT_SNIPPET - 1)}…` : flat;
}

export function UserList({ users, label }: { users: Profile[]; label: string }) {
  const { t } = useTranslation('profile');
  const [shown, setShown] = useState(PEOPLE_PAGE);
  const sentinel = useRef<HTMLDivElement>(null);
  const more = shown < users.length;

  // Scrolling near the end shows the next page; the button stays for keyboard users.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !more) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setShown((s) => s + PEOPLE_PAGE);
    }, { rootMargin: '400px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, [more, shown]);

  return (
    <>
      <ul className="profile-users" aria-label={label}>
        {users.slice(0, shown).map((u) => {
          const name = displayName(u);
          return (
            <li key={u.pubkey} className="profile-user has-follow" data-pubkey={u.pubkey}>
              <Link href={profileHref(u)} className="profile-user-link">
                <Avatar profile={u} name={name} size={44} />
                <span className="profile-user-text">
                  <span className="profile-user-name">{name}</span>
                  {u.nip05 && <span className="profile-user-nip05">{u.nip05.replace(/^_@/, '')}</span>}
                  {u.about && <span className="profile-user-about">{snippet(u.about)}</span>}
                </span>
              </Link>
              <FollowButton pubkey={u.pubkey} name={name} />
            </li>
          );
        })}
      </ul>
      {more && (
        <div ref={sentinel} className="profile-more">
          <button type="button" className="button" onClick={() => setShown((s) => s + PEOPLE_PAGE)}>
            {t('more', { count: Math.min(PEOPLE_PAGE, users.length - shown) })}
          </button>
        </div>
      )}
    </>
  );
}

export function RelayList({ relays }: { relays: Record<string, RelayFlags> }) {
  const { t } = useTranslation('profile');
  return (
    <ul className="profile-relays">
      {Object.entries(relays).map(([url, flags]) => (
        <li key={url} className="profile-relay">
          <span className="profile-relay-url">{url}</span>
          <span className="profile-relay-flags">
            {flags.read && <span className="profile-relay-flag">{t('relays.read')}</span>}
            {flags.write && <span className="profile-relay-flag">{t('relays.write')}</span>}
          </span>
        </li>
      ))}
    </ul>
  );
}
