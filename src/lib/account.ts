/**
 * The signed-in account as every component sees it: one watchAccount subscription per tab,
 * shared by all hooks, so twenty note cards do not open twenty subscriptions.
 */
import { useSyncExternalStore } from 'react';
import { Comlink, connect, tabId, type Api } from '../worker-client';
import { checkFirstScreenViewer } from './firstScreen';
import type { AccountAction, AccountSnapshot, ActionResult, SettingsAction, StruccApi } from '../../core/types';

/** The worker implements every optional method; Comlink's Remote cannot call an optional one. */
export type FullApi = Comlink.Remote<Required<StruccApi>>;

export async function fullApi(): Promise<FullApi> {
  return (await connect()) as unknown as FullApi;
}

/** The plain Api type, for code that only needs request(). */
export type { Api };

let snapshot: AccountSnapshot | null = null;
/** States in which the worker does not know yet who is signed in. */
const PENDING_LOGIN = new Set<AccountSnapshot['login']['state']>(['booting', 'detecting', 'busy', 'unlocking', 'pinPrompt']);
const listeners = new Set<() => void>();
let started = false;

/** Starts following the account (main.tsx does, so a logout clears the kept first screen even before any hook asks). */
export function startAccountWatch(): void {
  if (started) return;
  started = true;
  fullApi()
    .then((api) =>
      api.watchAccount(
        tabId,
        Comlink.proxy((s: AccountSnapshot) => {
          snapshot = s;
          if (!PENDING_LOGIN.has(s.login.state)) checkFirstScreenViewer(s.login.pubkey ?? '');
          for (const listener of listeners) listener();
        }),
      ),
    )
    .catch(() => {
      // Without a worker there is no account: the UI stays in the guest state.
      started = false;
    });
}

function subscribe(listener: () => void): () => void {
  startAccountWatch();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const current = () => snapshot;

/** The worker's account snapshot (null until the first one arrives). */
export function useAccount(): AccountSnapshot | null {
  return useSyncExternalStore(subscribe, current, current);
}

/** The first snapshot in which the worker knows who is signed in (a PIN prompt waits for the PIN). */
export function settledAccount(): Promise<AccountSnapshot> {
  return new Promise((resolve) => {
    const check = () => {
      if (!snapshot || PENDING_LOGIN.has(snapshot.login.state)) return;
      unsubscribe();
      resolve(snapshot);
    };
    const unsubscribe = subscribe(check);
    check();
  });
}

/** The snapshot outside React (null before the first one). */
export function accountSnapshot(): AccountSnapshot | null {
  return snapshot;
}

/** The signed-in user's pubkey, when one can act (not read-only, not locked). */
export function useActingPubkey(): string | undefined {
  const s = useAccount();
  return s?.login.state === 'signedIn' ? s.login.pubkey : undefined;
}

export async function accountAction(action: AccountAction): Promise<ActionResult> {
  return (await fullApi()).accountAction(action);
}

export async function settingsAction(action: SettingsAction): Promise<ActionResult> {
  return (await fullApi()).settingsAction(action);
}
