/** One profile page: header, tabs, sidebar blocks, the QR dialog, and every empty or error state. */
import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileTab } from '../../../core/types';
import { displayName, emptyProfile } from '../../../core/profile';
import { usePageTitle } from '../../lib/hooks';
import { FeedSkeleton } from '../NoteSkeleton';
import { StatusMessage } from '../StatusMessage';
import { useBlocked, useProfilePage, useViewer } from './hooks';
import { ProfileHeader } from './ProfileHeader';
import { ProfileSidebar } from './ProfileSidebar';
import { ProfileTabs } from './ProfileTabs';

// The QR encoder is only needed once someone opens the dialog.
const QrModal = lazy(() => import('./QrModal').then((m) => ({ default: m.QrModal })));

function HeaderSkeleton() {
  const { t } = useTranslation('profile');
  return (
    <div className="profile-header profile-header-skeleton" aria-busy="true">
      <div className="profile-banner sk" />
      <div className="profile-top">
        <div className="profile-avatar">
          <div className="sk sk-avatar profile-sk-avatar" />
        </div>
      </div>
      <div className="profile-identity">
        <div className="sk sk-line sk-mid" />
        <div className="sk sk-line sk-short" />
      </div>
      <FeedSkeleton label={t('loading')} />
    </div>
  );
}

function PlainPage({ children }: { children: ReactNode }) {
  const { t } = useTranslation('profile');
  return (
    <>
      <header className="page-header">
        <h1 className="page-title">{t('title')}</h1>
      </header>
      {children}
    </>
  );
}

export function ProfileView({ pubkey }: { pubkey: string }) {
  const { t } = useTranslation('profile');
  const viewer = useViewer();
  const { snapshot, failure, loadTab, loadMore } = useProfilePage(pubkey);
  const blocked = useBlocked(pubkey, viewer.status === 'user' ? viewer.pubkey : undefined);
  const [shownAnyway, setShownAnyway] = useState<string | null>(null);
  const [tab, setTab] = useState<ProfileTab>('notes');
  const [qrOpen, setQrOpen] = useState(false);
  const closeQr = useCallback(() => setQrOpen(false), []);

  const profile = snapshot?.profile;
  const stats = snapshot?.stats;
  const loadingProfile = !snapshot || snapshot.loading.profile;
  const active = stats !== undefined && stats.note_count + stats.reply_count + stats.long_form_note_count + stats.followers_count > 0;
  // A key with activity but no kind 0 is still somebody: the npub names them.
  const shown = profile ?? (active ? emptyProfile(pubkey) : undefined);
  usePageTitle(shown ? displayName(shown) : t('title'));

  if (failure || (!loadingProfile && !shown && snapshot?.error)) {
    return (
      <PlainPage>
        <StatusMessage tone="error" title={t('error.title')}>
          {t('error.text')}
        </StatusMessage>
      </PlainPage>
    );
  }
  if (loadingProfile && !shown) return <HeaderSkeleton />;
  if (!shown || !snapshot) {
    return (
      <PlainPage>
        <StatusMessage title={t('missing.title')}>{t('missing.text')}</StatusMessage>
      </PlainPage>
    );
  }
  if (blocked && shownAnyway !== pubkey) {
    return (
      <PlainPage>
        <div className="profile-hidden">
          <StatusMessage
            title={t('hidden.title')}
            action={
              <button type="button" className="button" onClick={() => setShownAnyway(pubkey)}>
                {t('hidden.show')}
              </button>
            }
          >
            {t('hidden.text')}
          </StatusMessage>
        </div>
      </PlainPage>
    );
  }

  return (
    <>
      <ProfileHeader profile={shown} stats={stats} joinDate={snapshot.joinDate} followsYou={snapshot.followsYou} onTab={setTab} onQr={() => setQrOpen(true)} />
      <ProfileTabs key={pubkey} snapshot={snapshot} tab={tab} onTab={setTab} loadTab={loadTab} loadMore={loadMore} />
      <ProfileSidebar
        notes={snapshot.sidebarNotes}
        articles={snapshot.sidebarArticles}
        loadingNotes={snapshot.loading.sidebarNotes}
        loadingArticles={snapshot.loading.sidebarArticles}
      />
      {qrOpen && (
        <Suspense fallback={null}>
          <QrModal npub={shown.npub} lud16={shown.lud16} name={displayName(shown)} onClose={closeQr} />
        </Suspense>
      )}
    </>
  );
}
