/** Publishing the relay list (kind 10002) and applying it to the worker's pool, with the page's toasts. */
import i18n from '../../i18n';
import { accountAction, accountSnapshot, fullApi } from '../../lib/account';
import { toastError } from '../../lib/toast';
import type { NostrEvent, RelayFlags } from '../../../core/types';
import { relayTags } from './relayList';

/** Only a signed-in account has a relay list to publish; a guest's pool is local. */
export function canPublishRelays(): boolean {
  return accountSnapshot()?.login.state === 'signedIn';
}

/** Publishes the list; false (with a toast) when it did not go out. */
export async function publishRelayList(map: Record<string, RelayFlags>): Promise<boolean> {
  if (!canPublishRelays()) return true;
  try {
    const result = await accountAction({ type: 'publishRelays', relays: map });
    if (result.ok) return true;
  } catch {
    // Falls through to the toast.
  }
  toastError(i18n.t('saveFailed', { ns: 'network' }));
  return false;
}

/** The pool takes the list's flags (same relays, new read/write). */
export async function applyToPool(map: Record<string, RelayFlags>): Promise<void> {
  const api = await fullApi();
  await api.setRelays({ tags: relayTags(map) } as unknown as NostrEvent);
}
