/**
 * The account chip at the bottom of the left navigation (and in the phone top bar): a guest gets
 * 'Bejelentkezés', a signed-in user their avatar, name and 'Kijelentkezés'. It draws the worker's
 * account snapshot, so a login or logout in any tab shows here at once.
 */
import { useEffect, useId, useState } from 'react';
import { useFixedT } from '../i18n';
import { connect, type Api } from '../worker-client';
import { useAccount } from '../lib/account';
import { displayName, emptyProfile, parseProfile } from '../../core/profile';
import type { AccountSnapshot, ActionResult, NostrEvent, Profile } from '../../core/types';
import { Avatar } from './Avatar';
import { openLogin, openOverlay } from '../lib/overlays';
import { stopPushBeforeLogout } from '../lib/push';
import { useWorkerRequest } from '../lib/useWorkerRequest';
import '../styles/account.css';

/** States in which the worker is still finding out who is signed in, or is signing in right now. */
const PENDING = new Set<AccountSnapshot['login']['state']>(['booting', 'detecting', 'busy', 'unlocking']);

/** The user's kind-0 profile from the cache server; the account record's copy when it has one. */
function useProfile(pubkey: string | undefined, stored: Profile | undefined): Profile | null {
  // Without the cache server the npub still names the user.
  const { data: fetched } = useWorkerRequest(
    pubkey && !stored
      ? (api) =>
          api.request('user_infos', { pubkeys: [pubkey] }).then((reply) => {
            const meta = reply.events.find((e) => e.kind === 0 && e.pubkey === pubkey) as NostrEvent | undefined;
            return meta ? parseProfile(meta) : emptyProfile(pubkey);
          })
      : null,
    [pubkey, stored],
  );
  if (!pubkey) return null;
  return stored ?? fetched ?? emptyProfile(pubkey);
}

const LoginIcon = () => (
  <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <path d="M15 3h4a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-4M10 17l5-5-5-5M15 12H3" />
  </svg>
);

const LogoutIcon = () => (
  <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />
  </svg>
);

export function AccountChip({ compact = false }: { compact?: boolean }) {
  const { t } = useFixedT();
  const snapshot = useAccount();
  const login = snapshot?.login;
  const profile = useProfile(login?.pubkey, snapshot?.account?.userProfile);
  const [note, setNote] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const noteId = useId();

  // A note about the last attempt no longer applies once someone signed in (here or in another tab).
  useEffect(() => {
    if (login?.pubkey) setNote(null);
  }, [login?.pubkey]);

  const run = (action: (api: Api) => Promise<ActionResult | void>) => {
    setWorking(true);
    connect()
      .then((api) => action(api))
      .then((result) => {
        if (result && !result.ok) setNote(result.message ?? t('account.loginFailed'));
      })
      .catch(() => setNote(t('account.loginFailed')))
      .finally(() => setWorking(false));
  };

  // The modal offers the extension (when this tab has one) and the private key, with a PIN.
  const signIn = () => {
    setNote(null);
    openLogin();
  };

  const className = `account-chip${compact ? ' account-chip-compact' : ''}`;

  if (login?.pubkey && profile) {
    const name = displayName(profile);
    return (
      <div className={className} data-account-state={login.state}>
        <span className="account-user" title={name}>
          <Avatar profile={profile} name={name} size={compact ? 32 : 40} />
          <span className="account-name">{name}</span>
        </span>
        <button
          type="button"
          className="account-logout"
          onClick={() => run(async (api) => {
            await stopPushBeforeLogout({ sign: login.state === 'signedIn' });
            return api.logout();
          })}
          disabled={working}
          aria-label={t('account.logout')}
          title={t('account.logout')}
        >
          <LogoutIcon />
          <span className="account-action-text">{t('account.logout')}</span>
        </button>
      </div>
    );
  }

  const pending = !snapshot || (login !== undefined && PENDING.has(login.state));
  return (
    <div className={className} data-account-state={login?.state ?? 'booting'}>
      <button
        type="button"
        className="button account-login"
        onClick={signIn}
        disabled={working || pending}
        aria-busy={working || pending}
        aria-describedby={note ? noteId : undefined}
        aria-label={t('account.login')}
        title={t('account.login')}
      >
        <LoginIcon />
        <span className="account-action-text">{t('account.login')}</span>
      </button>
      {!compact && (
        <button type="button" className="account-welcome" onClick={() => openOverlay({ kind: 'gettingStarted' })}>
          {t('account.gettingStarted')}
        </button>
      )}
      {note && (
        <p id={noteId} className="account-note" role="status">
          {note}
        </p>
      )}
    </div>
  );
}
