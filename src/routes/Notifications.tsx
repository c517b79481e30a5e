import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TabStrip } from '../components/TabStrip';
import { Link } from 'wouter';
import type { NotificationsSnapshot, NotificationTypeGroup, StruccApi } from '../../core/types';
import { registerNamespace } from '../i18n';
import { Comlink, connect, tabId, type Api } from '../worker-client';
import { usePageTitle } from '../lib/hooks';
import { FeedSkeleton } from '../components/NoteSkeleton';
import { StatusMessage, RetryMessage } from '../components/StatusMessage';
import { useAccount } from '../components/notifications/badges';
import { belongsToTab, groupNotifications, NOTIFICATION_TABS } from '../components/notifications/group';
import { NotificationList } from '../components/notifications/NotificationList';
import hu from '../../locales/hu/notifications.json';
import en from '../../locales/en/notifications.json';
import '../styles/notifications.css';

registerNamespace('notifications', { hu, en });

type ListRemote = Required<
  Pick<StruccApi, 'openNotifications' | 'loadMoreNotifications' | 'selectNotificationGroup' | 'closeNotifications' | 'markNotificationsSeen'>
>;
const remote = (api: Api): ListRemote => api as unknown as ListRemote;

/** Login states in which the worker has not decided yet who is signed in. */
const PENDING = new Set(['booting', 'detecting', 'busy', 'unlocking']);

interface ListControls {
  snapshot: NotificationsSnapshot | null;
  loadMore: () => void;
  select: (group: NotificationTypeGroup) => void;
}

/** One open notification list per mounted page and signed-in user; marked seen once it has shown. */
function useNotificationList(pubkey: string | undefined, initial: NotificationTypeGroup): ListControls {
  const [snapshot, setSnapshot] = useState<NotificationsSnapshot | null>(null);
  const handle = useRef<number | null>(null);
  const initialGroup = useRef(initial);

  useEffect(() => {
    if (!pubkey) return;
    let live = true;
    setSnapshot(null);
    connect()
      .then((api) => remote(api).openNotifications(tabId, initialGroup.current, Comlink.proxy((s: NotificationsSnapshot) => void (live && setSnapshot(s)))))
      .then((h) => {
        if (live) handle.current = h;
        else void connect().then((api) => remote(api).closeNotifications(h));
      })
      .catch(() => live && setSnapshot({ typeGroup: initialGroup.current, status: 'error', notifications: [], notes: {}, users: {}, hasMore: false, error: 'no_socket' }));
    return () => {
      live = false;
      const h = handle.current;
      handle.current = null;
      if (h !== null) void connect().then((api) => remote(api).closeNotifications(h));
    };
  }, [pubkey]);

  // Viewing the list is what resets the unread count (spec §4), once per visit.
  const marked = useRef(false);
  useEffect(() => {
    if (marked.current || snapshot?.status !== 'ready') return;
    marked.current = true;
    void connect().then((api) => remote(api).markNotificationsSeen()).catch(() => undefined);
  }, [snapshot?.status]);

  const loadMore = useCallback(() => {
    const h = handle.current;
    if (h !== null) void connect().then((api) => remote(api).loadMoreNotifications(h));
  }, []);
  const select = useCallback((group: NotificationTypeGroup) => {
    initialGroup.current = group;
    const h = handle.current;
    if (h !== null) void connect().then((api) => remote(api).selectNotificationGroup(h, group));
  }, []);
  return { snapshot, loadMore, select };
}

function Tabs({ selected, onSelect }: { selected: NotificationTypeGroup; onSelect: (g: NotificationTypeGroup) => void }) {
  const { t } = useTranslation('notifications');
  return (
    <TabStrip
      tabs={NOTIFICATION_TABS}
      selected={selected}
      onSelect={onSelect}
      label={t('tabsLabel')}
      className="notif-tabs"
      tabClassName="tab notif-tab"
      tabId={(group) => `notif-tab-${group}`}
      panelId={() => 'notif-panel'}
    >
      {(group) => t(`tabs.${group}`)}
    </TabStrip>
  );
}

function GuestPrompt() {
  const { t } = useTranslation('notifications');
  return (
    <div className="notif-guest">
      <StatusMessage title={t('guest.title')} action={<Link href="/help#bejelentkezes">{t('guest.help')}</Link>}>
        {t('guest.text')}
      </StatusMessage>
    </div>
  );
}

function SignedInList({ pubkey }: { pubkey: string }) {
  const { t } = useTranslation('notifications');
  const [tab, setTab] = useState<NotificationTypeGroup>('all');
  const { snapshot, loadMore, select } = useNotificationList(pubkey, 'all');
  const onSelect = (group: NotificationTypeGroup) => {
    if (group === tab) return;
    setTab(group);
    select(group);
  };
  // A snapshot of the previous tab can arrive after the switch; it never shows under the new one.
  const current = snapshot && snapshot.typeGroup === tab ? snapshot : null;
  const groups = useMemo(
    () => (current ? groupNotifications(current.notifications.filter((n) => belongsToTab(n, tab))) : []),
    [current, tab],
  );

  let body;
  if (!current || current.status === 'loading' || current.status === 'idle') body = <FeedSkeleton label={t('loading')} />;
  else if (current.status === 'error' && current.notifications.length === 0)
    body = (
      <RetryMessage title={t('error')} retryLabel={t('retry')} onRetry={() => select(tab)}>
        {t('errorHint')}
      </RetryMessage>
    );
  else if (groups.length === 0) body = <StatusMessage title={t(`empty.${tab}`)}>{t('emptyHint')}</StatusMessage>;
  else body = <NotificationList groups={groups} users={current.users} notes={current.notes} status={current.status} hasMore={current.hasMore} onLoadMore={loadMore} />;

  return (
    <>
      <Tabs selected={tab} onSelect={onSelect} />
      <div
        id="notif-panel"
        role="tabpanel"
        aria-labelledby={`notif-tab-${tab}`}
        className="notif-panel"
        data-status={current?.status ?? 'loading'}
        data-notification-count={current?.notifications.length ?? 0}
      >
        {body}
      </div>
    </>
  );
}

/** /notifications. */
export default function NotificationsRoute() {
  const { t } = useTranslation('notifications');
  usePageTitle(t('title'));
  const account = useAccount();
  const pubkey = account?.login.pubkey;
  const pending = !account || (PENDING.has(account.login.state) && !pubkey);
  return (
    <div className="page notif-page">
      <header className="page-header">
        <h1 className="page-title">{t('title')}</h1>
      </header>
      {pending ? <FeedSkeleton label={t('checking')} /> : pubkey ? <SignedInList key={pubkey} pubkey={pubkey} /> : <GuestPrompt />}
    </div>
  );
}
