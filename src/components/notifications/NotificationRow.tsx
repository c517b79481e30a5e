import { memo, type ComponentType } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { npubEncode } from 'nostr-tools/nip19';
import type { FeedNote, Profile } from '../../../core/types';
import { displayName, emptyProfile } from '../../../core/profile';
import { formatCount, formatFullDate, formatRelativeTime } from '../../lib/format';
import { useNow } from '../../lib/hooks';
import { Avatar } from '../Avatar';
import { BellIcon, BookmarkIcon, LikeIcon, MessagesIcon, ReplyIcon, RepostIcon, ZapIcon } from '../Icons';
import { NoteCard } from '../NoteCard';
import { sentenceKey, type NotificationGroup } from './group';

/** Avatars shown in a row; the sentence names the rest as a count. */
const MAX_AVATARS = 8;

type IconComponent = ComponentType<{ size?: number }>;

function iconOf(type: number): { Icon: IconComponent; tone: string } {
  const base = type % 100;
  if (type === 1 || type === 2) return { Icon: BellIcon, tone: 'follow' };
  if (type === 301 || type === 302) return { Icon: BookmarkIcon, tone: 'bookmark' };
  if (type === 401) return { Icon: MessagesIcon, tone: 'message' };
  if (type === 3 || (type > 100 && base === 1)) return { Icon: ZapIcon, tone: 'zap' };
  if (type === 4 || (type > 100 && base === 2)) return { Icon: LikeIcon, tone: 'like' };
  if (type === 5 || (type > 100 && base === 3)) return { Icon: RepostIcon, tone: 'repost' };
  if (type === 6 || type === 601 || (type > 100 && base === 4)) return { Icon: ReplyIcon, tone: 'reply' };
  return { Icon: BellIcon, tone: 'mention' };
}

function npubOf(pubkey: string): string {
  try {
    return npubEncode(pubkey);
  } catch {
    return pubkey;
  }
}

export interface NotificationRowProps {
  group: NotificationGroup;
  users: Record<string, Profile>;
  notes: Record<string, FeedNote>;
}

export const NotificationRow = memo(function NotificationRow({ group, users, notes }: NotificationRowProps) {
  const { t, i18n } = useTranslation('notifications');
  const now = useNow();
  const locale = i18n.resolvedLanguage ?? 'hu';
  const profiles = group.actors.map((pk) => users[pk] ?? emptyProfile(pk));
  const first = profiles[0];
  const name = first ? displayName(first) : t('someone');
  const others = Math.max(0, profiles.length - 1);
  const key = sentenceKey(group);
  const values = { name, count: others, sats: formatCount(group.sats, { locale }) };
  const { Icon, tone } = iconOf(group.type);
  const note = group.shownNote ? notes[group.shownNote] : undefined;
  const headingId = `notif-${group.key.replace(/[^a-zA-Z0-9_-]/g, '-')}`;

  return (
    <article className={`notif notif-${tone}`} aria-labelledby={headingId} data-notification-type={group.type}>
      <div className="notif-icon" aria-hidden="true">
        <Icon size={22} />
      </div>
      <div className="notif-main">
        {profiles.length > 0 && (
          <ul className="notif-avatars" aria-label={t('actorsLabel')}>
            {profiles.slice(0, MAX_AVATARS).map((p) => (
              <li key={p.pubkey}>
                <Link href={`/p/${p.npub || npubOf(p.pubkey)}`} className="notif-avatar" title={displayName(p)}>
                  <Avatar profile={p} name={displayName(p)} size={32} />
                  <span className="visually-hidden">{displayName(p)}</span>
                </Link>
              </li>
            ))}
            {profiles.length > MAX_AVATARS && (
              <li className="notif-more" aria-hidden="true">
                +{profiles.length - MAX_AVATARS}
              </li>
            )}
          </ul>
        )}
        <p className="notif-text" id={headingId}>
          <Trans t={t} i18nKey={others > 0 ? `${key}.many` : `${key}.one`} values={values} components={{ b: <strong className="notif-name" /> }} />
          {group.reactions.length > 0 && (
            <span className="notif-reactions" aria-label={t('reactionsLabel', { reactions: group.reactions.join(' ') })}>
              {group.reactions.slice(0, 6).map((r) => (
                <span key={r} className="notif-reaction" aria-hidden="true">
                  {r.startsWith(':') ? r : r.slice(0, 8)}
                </span>
              ))}
            </span>
          )}
          <span className="notif-when">
            <span className="notif-dot" aria-hidden="true">
              ·
            </span>
            <time className="notif-time" dateTime={new Date(group.createdAt * 1000).toISOString()} title={formatFullDate(group.createdAt, locale)}>
              {formatRelativeTime(group.createdAt, now, locale)}
            </time>
          </span>
        </p>
        {group.items.length === 1 && group.items[0].message && <p className="notif-message">{group.items[0].message}</p>}
        {note && (
          <div className="notif-note">
            <NoteCard note={note} />
          </div>
        )}
      </div>
    </article>
  );
});
