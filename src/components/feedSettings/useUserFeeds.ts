/** The signed-in user's feed lists from the settings snapshot, and the add/remove actions with their toasts. */
import type { FeedDefinition, FeedList } from '../../../core/types';
import i18n from '../../i18n';
import { settingsAction, useAccount } from '../../lib/account';
import { openLogin } from '../../lib/overlays';
import { showToast, toastError, toastSuccess } from '../../lib/toast';
import { enabledFeeds, findFeed } from './feedModel';
import './i18n';

export interface UserFeeds {
  /** Signed in with a key that can sign: only then do changes save to the server. */
  canEdit: boolean;
  /** Known pubkey but no signing (npub login, locked PIN). */
  readOnly: boolean;
  /** The user's list once the settings are loaded; undefined for guests and while loading. */
  feeds: FeedDefinition[] | undefined;
  loading: boolean;
  warning?: string;
}

export function useUserFeeds(list: FeedList): UserFeeds {
  const account = useAccount();
  const state = account?.login.state;
  const canEdit = state === 'signedIn';
  const readOnly = state === 'readOnly' || state === 'locked';
  const settings = account?.settings;
  // Until the load finishes the snapshot may still hold the previous account's (or the guest's) list.
  const ready = canEdit && settings?.state === 'ready';
  return {
    canEdit,
    readOnly,
    feeds: ready ? (list === 'home' ? settings.homeFeeds : settings.readsFeeds) : undefined,
    loading: canEdit && !ready,
    warning: settings?.warning,
  };
}

/** What a feed switcher shows: the user's enabled feeds in their order, or undefined to use the defaults. */
export function useSwitcherFeeds(list: FeedList): FeedDefinition[] | undefined {
  const { feeds } = useUserFeeds(list);
  return feeds ? enabledFeeds(feeds) : undefined;
}

const t = (key: string) => i18n.t(key, { ns: 'feeds' });

/** Adds a feed to a list and says so; guests are asked to sign in first. */
export async function addFeedTo(list: FeedList, feed: FeedDefinition, canEdit: boolean): Promise<boolean> {
  if (!canEdit) {
    showToast(t('toast.signInFirst'), 'info');
    openLogin();
    return false;
  }
  const result = await settingsAction({ type: 'addFeed', list, feed: { ...feed, enabled: true } }).catch(() => ({ ok: false }));
  if (!result.ok) {
    toastError(t('toast.failed'));
    return false;
  }
  toastSuccess(t(list === 'home' ? 'toast.addedHome' : 'toast.addedReads'));
  return true;
}

/** Removes the stored entry matching `spec` (its exact spec string may differ from the catalogue's). */
export async function removeFeedFrom(list: FeedList, spec: string, current: readonly FeedDefinition[]): Promise<boolean> {
  const stored = findFeed(current, spec);
  if (!stored) return false;
  const result = await settingsAction({ type: 'removeFeed', list, spec: stored.spec }).catch(() => ({ ok: false }));
  if (!result.ok) {
    toastError(t('toast.failed'));
    return false;
  }
  toastSuccess(t(list === 'home' ? 'toast.removedHome' : 'toast.removedReads'));
  return true;
}
