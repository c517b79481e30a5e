/** The top of a profile: banner, avatar, names, about, the details line and the stats. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Profile, ProfileTab, UserStats } from '../../../core/types';
import { displayName, toNpub } from '../../../core/profile';
import { formatCount } from '../../lib/format';
import { mediaUrl } from '../../lib/media';
import { useNip05Verified } from '../../lib/nip05';
import { Avatar } from '../Avatar';
import { VerifiedIcon, ZapIcon } from '../Icons';
import { NoteContent } from '../NoteContent';
import { FollowButton } from '../actions/FollowButton';
import { profileZapTarget, useZapPending } from '../actions/state';
import { ZapButton } from '../actions/ZapButton';
import { Link } from 'wouter';
import { useAccount } from '../../lib/account';
import { formatJoinDate, websiteHref } from './format';
import { legendClass, MemberBadge } from '../MemberBadge';
import { SubscribeTiers } from './SubscribeTiers';

const AVATAR_SIZE = 116;

function BigAvatar({ profile, name }: { profile: Profile; name: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const picture = profile.picture.trim();
  if (!picture || failed === picture) return <Avatar profile={profile} name={name} size={AVATAR_SIZE} />;
  const m = profile.membership;
  return (
    <img
      className={m?.tier === 'premium-legend' && m.glow ? `avatar legend-glow ${legendClass(profile)}` : 'avatar'}
      src={mediaUrl(picture, 'm')}
      alt=""
      width={AVATAR_SIZE}
      height={AVATAR_SIZE}
      decoding="async"
      onError={() => setFailed(picture)}
    />
  );
}

function Banner({ url }: { url: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const src = url.trim();
  return (
    <div className="profile-banner">
      {src && failed !== src && <img src={mediaUrl(src, 'l')} alt="" decoding="async" onError={() => setFailed(src)} />}
    </div>
  );
}

interface StatDef {
  key: string;
  value: number;
  tab?: ProfileTab;
}

function Stats({ stats, pubkey, onTab }: { stats: UserStats | undefined; pubkey: string; onTab: (tab: ProfileTab) => void }) {
  const { t, i18n } = useTranslation('profile');
  const locale = i18n.resolvedLanguage ?? 'hu';
  // Zaps sent to this profile from this tab show at once, until the server counts their receipts.
  const zap = useZapPending(`p:${pubkey}`, stats?.total_satszapped ?? 0);
  const s = stats && zap.zapping ? { ...stats, total_satszapped: zap.sats, total_zap_count: (stats.total_zap_count ?? 0) + zap.count } : stats;
  const defs: StatDef[] = [
    { key: 'followers', value: s?.followers_count ?? 0, tab: 'followers' },
    { key: 'follows', value: s?.follows_count ?? 0, tab: 'follows' },
    { key: 'notes', value: s?.note_count ?? 0, tab: 'notes' },
    { key: 'replies', value: s?.reply_count ?? 0, tab: 'replies' },
    { key: 'reads', value: s?.long_form_note_count ?? 0, tab: 'reads' },
    { key: 'zaps', value: s?.total_zap_count ?? 0, tab: 'zaps' },
    { key: 'sats', value: s?.total_satszapped ?? 0, tab: 'zaps' },
  ];
  return (
    <ul className="profile-stats" aria-label={t('stats.label')} aria-busy={!stats}>
      {defs.map((d) => (
        <li key={d.key}>
          <button type="button" className="profile-stat" data-stat={d.key} onClick={() => d.tab && onTab(d.tab)}>
            <span className="profile-stat-value">{stats ? formatCount(d.value, { locale }) : '–'}</span>
            <span className="profile-stat-label">{t(`stats.${d.key}`)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export interface ProfileHeaderProps {
  profile: Profile;
  stats?: UserStats;
  joinDate?: number;
  followsYou: boolean;
  onTab: (tab: ProfileTab) => void;
  onQr: () => void;
}

/** "Üzenet": opens the conversation with this person, for a signed-in viewer of someone else's profile. */
function MessageButton({ pubkey, name }: { pubkey: string; name: string }) {
  const { t } = useTranslation('profile');
  const login = useAccount()?.login;
  if (!login?.pubkey || login.pubkey === pubkey || (login.state !== 'signedIn' && login.state !== 'readOnly')) return null;
  return (
    <Link href={`/dms/${toNpub(pubkey)}`} className="button profile-message-button" aria-label={t('messageLabel', { name })}>
      {t('message')}
    </Link>
  );
}

/** Zaps the person (a zap request with only their p tag); not offered on one's own profile. */
function ProfileZap({ profile, stats, name }: { profile: Profile; stats: UserStats | undefined; name: string }) {
  const own = useAccount()?.login.pubkey === profile.pubkey;
  if (own) return null;
  return (
    <span className="profile-zap-actions">
      <ZapButton target={profileZapTarget(profile, stats?.total_satszapped ?? 0)} name={name} className="button button-secondary profile-zap-button" />
    </span>
  );
}

export function ProfileHeader({ profile, stats, joinDate, followsYou, onTab, onQr }: ProfileHeaderProps) {
  const { t, i18n } = useTranslation('profile');
  const locale = i18n.resolvedLanguage ?? 'hu';
  const name = displayName(profile);
  const verified = useNip05Verified(profile.pubkey, profile.nip05 || undefined);
  const website = websiteHref(profile.website);
  const handle = profile.name && profile.name !== name ? profile.name : '';

  return (
    <section className="profile-header" aria-labelledby="profile-name">
      <Banner url={profile.banner} />
      <div className="profile-top">
        <div className="profile-avatar">
          <BigAvatar profile={profile} name={name} />
        </div>
        <div className="profile-actions">
          <button type="button" className="button profile-qr-button" onClick={onQr}>
            <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true" focusable="false">
              <path d="M3 3h7v7H3zM14 3h7v7h-7zM3 14h7v7H3zM14 14h3v3h-3zM20 14v.01M14 20h.01M17 20h4v-3" />
            </svg>
            {t('qr.open')}
          </button>
          <ProfileZap profile={profile} stats={stats} name={name} />
          <MessageButton pubkey={profile.pubkey} name={name} />
          <SubscribeTiers profile={profile} />
          <FollowButton pubkey={profile.pubkey} name={name} className="profile-follow" />
        </div>
      </div>
      <div className="profile-identity">
        <div className="profile-name-row">
          <h1 id="profile-name" className="profile-name">
            {name}
          </h1>
          <MemberBadge profile={profile} />
          {verified && (
            <span className="profile-verified" title={t('verified', { nip05: profile.nip05 })}>
              <VerifiedIcon size={20} />
              <span className="visually-hidden">{t('verified', { nip05: profile.nip05 })}</span>
            </span>
          )}
        </div>
        <p className="profile-handles">
          {handle && <span className="profile-handle">@{handle}</span>}
          {profile.nip05 && <span className={verified ? 'profile-nip05 is-verified' : 'profile-nip05'}>{profile.nip05.replace(/^_@/, '')}</span>}
          {followsYou && <span className="profile-follows-you">{t('followsYou')}</span>}
        </p>
      </div>
      {profile.about && (
        <div className="profile-about">
          <NoteContent content={profile.about} profiles={{}} />
        </div>
      )}
      <ul className="profile-details">
        {website && (
          <li>
            <span className="visually-hidden">{t('details.website')}: </span>
            <a href={website} target="_blank" rel="noopener noreferrer nofollow ugc" className="profile-website">
              {profile.website.replace(/^https?:\/\//, '').replace(/\/$/, '')}
            </a>
          </li>
        )}
        {profile.lud16 && (
          <li className="profile-lightning">
            <ZapIcon size={16} />
            <span className="visually-hidden">{t('details.lightning')}: </span>
            {profile.lud16}
          </li>
        )}
        {profile.location && (
          <li className="profile-location">
            <span className="visually-hidden">{t('details.location')}: </span>
            {profile.location}
          </li>
        )}
        {joinDate !== undefined && <li className="profile-joined">{t('details.joined', { date: formatJoinDate(joinDate, locale) })}</li>}
      </ul>
      <Stats stats={stats} pubkey={profile.pubkey} onTab={onTab} />
    </section>
  );
}
