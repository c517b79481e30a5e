/**
 * /new: account creation in four steps (spec §2): username and values, optional profile,
 * suggested follows, the private key. The key is made when step 1 is passed and handed to the
 * worker's login at once, so uploads can be signed; progress (never the key) survives a reload
 * in sessionStorage. Finishing publishes kind 0, kind 3 and kind 10002 and lands on /home.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { npubEncode, nsecEncode } from 'nostr-tools/nip19';
import { generateSecretKey, getPublicKey } from 'nostr-tools/pure';
import { fullApi, useAccount, type FullApi } from '../lib/account';
import { usePageTitle } from '../lib/hooks';
import { toastSuccess } from '../lib/toast';
import {
  contactListEvent,
  initialWizard,
  parseWizard,
  profileEvent,
  relayListEvent,
  type ProfileFields,
  type WizardState,
  type WizardStep,
} from '../lib/newAccount';
import { parseProfile } from '../../core/profile';
import type { AccountSnapshot, NostrEvent } from '../../core/types';
import { StepIndicator } from '../components/newAccount/StepIndicator';
import { UsernameStep } from '../components/newAccount/UsernameStep';
import { ProfileStep } from '../components/newAccount/ProfileStep';
import { FollowStep } from '../components/newAccount/FollowStep';
import { KeyStep } from '../components/newAccount/KeyStep';
import '../components/login/i18n';
import '../styles/modal.css';
import '../styles/login.css';
import '../styles/newAccount.css';

const STORAGE_KEY = 'strucc:newAccount';
const PENDING = new Set<AccountSnapshot['login']['state']>(['booting', 'detecting', 'busy', 'unlocking']);

function loadWizard(): WizardState {
  try {
    return parseWizard(sessionStorage.getItem(STORAGE_KEY));
  } catch {
    return initialWizard();
  }
}

function saveWizard(state: WizardState | null): void {
  try {
    if (state) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(state));
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Without sessionStorage a reload starts over; nothing else depends on it.
  }
}

/**
 * The account record learns the new contact list only at its next sync. A follow of an account
 * already on the list fetches the newest list and is then ignored, signing nothing — but only
 * once the cache server really has our list, or it would start a one-entry list instead.
 */
async function refreshFollowing(api: FullApi, pubkey: string, contacts: NostrEvent | undefined): Promise<void> {
  const first = contacts?.tags.find((t) => t[0] === 'p')?.[1];
  if (!contacts || !first) return;
  try {
    const reply = await api.request('contact_list', { pubkey });
    if (reply.events.some((e) => e.kind === 3 && e.id === contacts.id)) await api.accountAction({ type: 'follow', pubkey: first });
  } catch {
    // The next sync picks the list up anyway.
  }
}

export default function NewAccount() {
  const { t } = useTranslation('login');
  usePageTitle(t('wizard.title'));
  const [, navigate] = useLocation();
  const account = useAccount();
  const [state, setState] = useState<WizardState>(loadWizard);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The key just created, until the account snapshot catches up with it. */
  const [created, setCreated] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const firstStep = useRef(state.step);

  useEffect(() => saveWizard(state), [state]);

  useEffect(() => {
    if (state.step === firstStep.current) return;
    firstStep.current = state.step;
    heading.current?.focus();
  }, [state.step]);

  const update = useCallback((patch: Partial<WizardState>) => setState((s) => ({ ...s, ...patch })), []);
  const updateProfile = useCallback((patch: Partial<ProfileFields>) => setState((s) => ({ ...s, profile: { ...s.profile, ...patch } })), []);
  const setFollows = useCallback((follows: string[]) => setState((s) => ({ ...s, follows })), []);
  const go = (step: WizardStep) => {
    setError(null);
    update({ step });
  };

  const login = account?.login;
  const settled = login !== undefined && !PENDING.has(login.state);
  const ownsKey = !!state.pubkey && login?.pubkey === state.pubkey && login.method === 'local' && login.state === 'signedIn';
  const keyLost = state.step > 1 && settled && !ownsKey && created !== state.pubkey;
  if (created && login?.pubkey === created) setCreated(null);

  const createKey = async () => {
    setError(null);
    if (ownsKey) return go(2);
    setBusy(true);
    const secret = generateSecretKey();
    try {
      const pubkey = getPublicKey(secret);
      const result = await (await fullApi()).login({ method: 'nsec', nsec: nsecEncode(secret) });
      if (!result.ok) throw new Error(result.code);
      setCreated(pubkey);
      update({ pubkey, step: 2, follows: undefined });
    } catch {
      setError(t('wizard.generateFailed'));
    } finally {
      secret.fill(0);
      setBusy(false);
    }
  };

  const finish = async () => {
    const pubkey = state.pubkey;
    if (!pubkey) return;
    setBusy(true);
    setError(null);
    try {
      const api = await fullApi();
      const relays = account?.account?.relaySettings ?? {};
      const [profile, contacts, relayList] = await Promise.all([
        api.publish(profileEvent(state.username, state.profile)),
        api.publish(contactListEvent(state.follows ?? [], pubkey)),
        api.publish(relayListEvent(relays)),
      ]);
      const failed = (
        [
          ['profile', profile],
          ['contacts', contacts],
          ['relays', relayList],
        ] as const
      ).filter(([, r]) => !r.success);
      if (failed.length) {
        setError(t('wizard.publishFailed', { what: failed.map(([what]) => t(`wizard.what.${what}`)).join(', ') }));
        return;
      }
      // The chip and the profile show the new name at once, without waiting for the cache.
      if (profile.event) await api.accountAction({ type: 'setLocal', patch: { userProfile: parseProfile(profile.event) } });
      await refreshFollowing(api, pubkey, contacts.event);
      saveWizard(null);
      toastSuccess(t('wizard.published'));
      navigate('/home');
    } catch {
      setError(t('wizard.publishFailed', { what: t('wizard.what.profile') }));
    } finally {
      setBusy(false);
    }
  };

  const restart = () => {
    setError(null);
    // What was typed stays; only the lost key is forgotten.
    update({ step: 1, pubkey: undefined, follows: undefined });
  };

  let body;
  if (state.step > 1 && !settled) body = <div className="settings-loading" aria-busy="true" />;
  else if (keyLost)
    body = (
      <div className="wizard-form" role="alert">
        <p className="form-error">{t('wizard.keyLost')}</p>
        <button type="button" className="button" onClick={restart}>
          {t('wizard.restart')}
        </button>
      </div>
    );
  else if (state.step === 1)
    body = (
      <UsernameStep
        username={state.username}
        accepted={state.acceptedValues}
        replacesLogin={!!login?.pubkey && login.pubkey !== state.pubkey}
        busy={busy}
        error={error}
        onChange={update}
        onNext={() => void createKey()}
      />
    );
  else if (state.step === 2) body = <ProfileStep profile={state.profile} onChange={updateProfile} onBack={() => go(1)} onNext={() => go(3)} />;
  else if (state.step === 3) body = <FollowStep follows={state.follows} onChange={setFollows} onBack={() => go(2)} onNext={() => go(4)} />;
  else
    body = (
      <KeyStep
        npub={npubEncode(state.pubkey ?? '')}
        username={state.username}
        busy={busy}
        error={error}
        onBack={() => go(3)}
        onFinish={() => void finish()}
      />
    );

  const headings: Record<WizardStep, string> = {
    1: t('username.heading'),
    2: t('profile.heading'),
    3: t('follow.heading'),
    4: t('key.heading'),
  };

  return (
    <div className="page new-account">
      <header className="page-header">
        <h1 className="page-title">{t('wizard.title')}</h1>
      </header>
      <div className="wizard">
        <StepIndicator step={state.step} />
        <p className="form-hint wizard-step-of">{t('wizard.stepOf', { step: state.step })}</p>
        <h2 ref={heading} tabIndex={-1} className="wizard-heading">
          {headings[state.step]}
        </h2>
        {body}
      </div>
    </div>
  );
}
