import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import hu from '../../locales/hu/profile.json';
import en from '../../locales/en/profile.json';
import { registerNamespace } from '../i18n';
import { usePageTitle } from '../lib/hooks';
import { RESERVED_SEGMENTS } from '../lib/routes';
import { FeedSkeleton } from '../components/NoteSkeleton';
import { StatusMessage } from '../components/StatusMessage';
import { useViewer } from '../components/profile/hooks';
import { ProfileView } from '../components/profile/ProfileView';
import { useVanityName } from '../components/profile/vanity';
import { parseProfileKey } from '../components/thread/ids';
import { NotFound } from './PageIntro';
import '../styles/profile.css';
import '../styles/profile-sidebar.css';

registerNamespace('profile', { hu, en });

function ProfilePage({ children }: { children: ReactNode }) {
  return <div className="page page-profile">{children}</div>;
}

function Message({ title, text, tone = 'info' }: { title: string; text: string; tone?: 'info' | 'error' }) {
  const { t } = useTranslation('profile');
  usePageTitle(t('title'));
  return (
    <ProfilePage>
      <header className="page-header">
        <h1 className="page-title">{t('title')}</h1>
      </header>
      <StatusMessage tone={tone} title={title}>
        {text}
      </StatusMessage>
    </ProfilePage>
  );
}

function Loading() {
  const { t } = useTranslation('profile');
  return (
    <ProfilePage>
      <FeedSkeleton label={t('loading')} />
    </ProfilePage>
  );
}

/** No key in the URL: the signed-in user's own profile, or an invitation for a guest. */
function OwnProfile() {
  const { t } = useTranslation('profile');
  const viewer = useViewer();
  if (viewer.status === 'loading') return <Loading />;
  if (viewer.status === 'guest') return <Message title={t('guestTitle')} text={t('guest')} />;
  return (
    <ProfilePage>
      <ProfileView pubkey={viewer.pubkey} />
    </ProfilePage>
  );
}

/** /profile/{npub?}, /p/{npub?}, /p/{nprofile}. */
export default function ProfileRoute() {
  const { npub } = useParams<{ npub?: string }>();
  const { t } = useTranslation('profile');
  if (!npub) return <OwnProfile />;
  const key = parseProfileKey(decodeURIComponent(npub));
  if (key.type === 'invalid') return <Message tone="error" title={t('invalid.title')} text={t('invalid.text')} />;
  return (
    <ProfilePage>
      <ProfileView pubkey={key.pubkey} />
    </ProfilePage>
  );
}

function VanityLookup({ name }: { name: string }) {
  const { t } = useTranslation('profile');
  const vanity = useVanityName(name);
  if (vanity.status === 'loading') return <Loading />;
  if (vanity.status === 'missing') return <Message title={t('vanity.missingTitle')} text={t('vanity.missing', { name })} />;
  if (vanity.status === 'error') return <Message tone="error" title={t('vanity.errorTitle')} text={t('vanity.error')} />;
  return (
    <ProfilePage>
      <ProfileView pubkey={vanity.pubkey} />
    </ProfilePage>
  );
}

/** /{vanityName}. */
export function VanityProfile() {
  const { vanityName } = useParams<{ vanityName: string }>();
  if (RESERVED_SEGMENTS.has(vanityName)) return <NotFound />;
  return <VanityLookup name={decodeURIComponent(vanityName)} />;
}
