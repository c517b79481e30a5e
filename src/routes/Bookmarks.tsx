import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TabStrip } from '../components/TabStrip';
import { BookmarkList } from '../components/bookmarks/BookmarkList';
import { bookmarkTags, type BookmarkTab } from '../components/bookmarks/useBookmarkItems';
import { FeedSkeleton } from '../components/NoteSkeleton';
import { SignInPrompt } from '../components/SignInPrompt';
import { registerNamespace } from '../i18n';
import { accountAction, useAccount } from '../lib/account';
import { usePageTitle } from '../lib/hooks';
import hu from '../../locales/hu/bookmarks.json';
import en from '../../locales/en/bookmarks.json';
import readsHu from '../../locales/hu/reads.json';
import readsEn from '../../locales/en/reads.json';
import '../styles/modal.css';
import '../styles/reads.css';
import '../styles/bookmarks.css';

registerNamespace('bookmarks', { hu, en });
// Article cards speak the reads namespace, which is otherwise registered only by the reads screens.
registerNamespace('reads', { hu: readsHu, en: readsEn });

const TABS: BookmarkTab[] = ['notes', 'articles'];

function Tabs({ selected, counts, onSelect }: { selected: BookmarkTab; counts: Record<BookmarkTab, number>; onSelect: (tab: BookmarkTab) => void }) {
  const { t } = useTranslation('bookmarks');
  return (
    <TabStrip
      tabs={TABS}
      selected={selected}
      onSelect={onSelect}
      label={t('tabsLabel')}
      className="bookmarks-tabs"
      tabClassName="tab bookmarks-tab"
      tabId={(tab) => `bookmarks-tab-${tab}`}
      panelId={() => 'bookmarks-panel'}
    >
      {(tab) => (
        <>
          {t(`tabs.${tab}`)}
          {counts[tab] > 0 && <span className="bookmarks-count">{counts[tab]}</span>}
        </>
      )}
    </TabStrip>
  );
}

function GuestPrompt() {
  const { t } = useTranslation('bookmarks');
  return <SignInPrompt title={t('guest.title')} text={t('guest.text')} login={t('guest.login')} />;
}

const isTab = (v: unknown): v is BookmarkTab => v === 'notes' || v === 'articles';

/** /bookmarks: the signed-in user's kind-10003 list, notes and articles in two tabs. */
export default function Bookmarks() {
  const { t } = useTranslation('bookmarks');
  usePageTitle(t('title'));
  const snapshot = useAccount();
  const login = snapshot?.login;
  const account = snapshot?.account;
  const pubkey = login?.pubkey;
  const remembered = account?.selectedFeeds.bookmarks;
  const [picked, setPicked] = useState<BookmarkTab | null>(null);
  const tab: BookmarkTab = picked ?? (isTab(remembered) ? remembered : 'notes');

  const select = (next: BookmarkTab) => {
    if (next === tab) return;
    setPicked(next);
    if (account) void accountAction({ type: 'setLocal', patch: { selectedFeeds: { ...account.selectedFeeds, bookmarks: next } } }).catch(() => undefined);
  };

  let body;
  if (!login || login.state === 'booting' || login.state === 'detecting' || ((login.state === 'busy' || login.state === 'unlocking') && !pubkey)) {
    body = <FeedSkeleton label={t('loading')} />;
  } else if (!pubkey || login.state === 'loggedOut') {
    body = <GuestPrompt />;
  } else if (!account || account.pubkey !== pubkey) {
    body = <FeedSkeleton label={t('loading')} />;
  } else {
    const counts = { notes: bookmarkTags(account.bookmarks, 'notes').length, articles: bookmarkTags(account.bookmarks, 'articles').length };
    body = (
      <>
        <Tabs selected={tab} counts={counts} onSelect={select} />
        <div role="tabpanel" id="bookmarks-panel" aria-labelledby={`bookmarks-tab-${tab}`} className="bookmarks-panel">
          <BookmarkList key={`${pubkey}:${tab}`} tags={account.bookmarks} tab={tab} viewer={pubkey} canAct={login.state === 'signedIn'} />
        </div>
      </>
    );
  }

  return (
    <div className="page page-bookmarks">
      <header className="page-header">
        <h1 className="page-title">{t('title')}</h1>
        <p className="bookmarks-intro">{t('intro')}</p>
      </header>
      {body}
    </div>
  );
}
