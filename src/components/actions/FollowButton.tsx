/**
 * Follow / unfollow one person. The state comes from the account's contact list, so every tab
 * shows the same; a click shows the new state at once and rolls back when the publish fails or
 * the follow-list repair dialog is cancelled.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { npubEncode } from 'nostr-tools/nip19';
import { shortNpub } from '../../../core/profile';
import { accountAction, useAccount } from '../../lib/account';
import { openLogin } from '../../lib/overlays';
import { remoteSignerError } from '../../lib/remoteSigner';
import { toastError } from '../../lib/toast';
import { ACTIONS_NS } from './state';
import '../../styles/actions.css';

export interface FollowButtonProps {
  pubkey: string;
  /** The person's name, added to the accessible name where many buttons sit in one list. */
  name?: string;
  className?: string;
}

interface Pending {
  want: boolean;
  done: boolean;
}

export function FollowButton({ pubkey, name, className }: FollowButtonProps) {
  const { t } = useTranslation(ACTIONS_NS);
  const snapshot = useAccount();
  const [pending, setPending] = useState<Pending | null>(null);
  const signedIn = snapshot?.login.state === 'signedIn';
  const following = !!snapshot?.account?.following.includes(pubkey);
  const shown = pending?.want ?? following;

  // The published list reaches this tab a moment after the action answers; until then the wanted state stays.
  useEffect(() => {
    if (pending?.done && following === pending.want) setPending(null);
  }, [pending, following]);

  if (snapshot?.login.pubkey === pubkey) return null;

  const toggle = async () => {
    if (!signedIn) {
      openLogin();
      return;
    }
    if (pending && !pending.done) return;
    const want = !shown;
    setPending({ want, done: false });
    const result = await accountAction({ type: want ? 'follow' : 'unfollow', pubkey }).catch(() => ({ ok: false, code: 'failed' }));
    if (result.ok) {
      setPending({ want, done: true });
      return;
    }
    setPending(null);
    // Cancelling the repair dialog is the person's own choice, not an error.
    if (result.code !== 'follow-repair-cancelled') {
      const who = name || shortNpub(npubEncode(pubkey));
      // A remote signer's refusal or silence says so, rather than a generic failure.
      toastError(remoteSignerError(result.code) ?? t(want ? 'toast.followFailed' : 'toast.unfollowFailed', { name: who }));
    }
  };

  const busy = !!pending && !pending.done;
  const suffix = name ? `: ${name}` : '';
  return (
    <button
      type="button"
      className={`button follow-button${shown ? ' is-following' : ''}${className ? ` ${className}` : ''}`}
      aria-label={shown ? `${t('follow.followingLabel')}${suffix}` : name ? `${t('follow.follow')}${suffix}` : undefined}
      aria-busy={busy}
      data-following={shown}
      onClick={() => void toggle()}
    >
      {shown ? (
        <>
          <span className="follow-label-rest">{t('follow.following')}</span>
          <span className="follow-label-hover" aria-hidden="true">
            {t('follow.unfollow')}
          </span>
        </>
      ) : (
        t('follow.follow')
      )}
    </button>
  );
}
