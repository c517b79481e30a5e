import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { MembershipError, NAME_MIN, contentOf, publicRequest } from './membership';
import { serverInfo, setChoice, useChoice } from './purchase';
import { useRequest } from '../../lib/useWorkerRequest';

const NAME_MAX = 32;
const ALLOWED = /^[a-z0-9._-]*$/;
const EDGES = /^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/;
const CHECK_DELAY_MS = 300;

/** The first rule the name breaks (the server checks the same), or null. */
export function nameProblem(name: string): 'tooShort' | 'tooLong' | 'badChars' | 'edges' | null {
  if (!ALLOWED.test(name)) return 'badChars';
  if ([...name].length < NAME_MIN) return 'tooShort';
  if (name.length > NAME_MAX) return 'tooLong';
  if (!EDGES.test(name)) return 'edges';
  return null;
}

export type Check = { state: 'idle' } | { state: 'checking' } | { state: 'available' } | { state: 'unavailable' } | { state: 'error'; text: string };

/** As-you-type availability (membership_name_available with the pubkey: a member's own name counts as free). */
export function useAvailability(name: string, pubkey: string | undefined): Check {
  const wanted = !nameProblem(name);
  const { data, error, loading } = useRequest(
    wanted
      ? () =>
          publicRequest('membership_name_available', { name, ...(pubkey ? { pubkey } : {}) }).then((reply) => {
            const c = contentOf<{ available?: unknown; name?: unknown }>(reply.events[0]);
            return c?.available === true;
          })
      : null,
    [name, pubkey],
    { delayMs: CHECK_DELAY_MS },
  );
  const check = useMemo((): Check => {
    if (!wanted) return { state: 'idle' };
    if (loading) return { state: 'checking' };
    if (error !== undefined) return { state: 'error', text: error instanceof MembershipError ? error.message : '' };
    return data === undefined ? { state: 'checking' } : { state: data ? 'available' : 'unavailable' };
  }, [wanted, loading, error, data]);
  return check;
}

/** A name field with the spec's rules and the live check; used by the find-name step and by rename. */
export function NameField({ check, value, onChange, label }: { check: Check; value: string; onChange: (v: string) => void; label: string }) {
  const { t } = useTranslation('premium');
  const id = useId();
  const problem = value ? nameProblem(value) : null;
  let message = '';
  let tone: 'ok' | 'bad' | 'info' = 'info';
  if (problem) [message, tone] = [t(`name.${problem}`), 'bad'];
  else if (check.state === 'checking') message = t('name.checking');
  else if (check.state === 'available') [message, tone] = [t('name.available', { name: value }), 'ok'];
  else if (check.state === 'unavailable') [message, tone] = [t('name.unavailable'), 'bad'];
  else if (check.state === 'error') [message, tone] = [check.text || t('name.checkFailed'), 'bad'];
  return (
    <div className="premium-name-field">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <input
        id={id}
        className="form-input"
        value={value}
        autoComplete="off"
        spellCheck={false}
        maxLength={64}
        aria-describedby={`${id}-msg`}
        aria-invalid={tone === 'bad'}
        onChange={(e) => onChange(e.target.value.trim().toLowerCase())}
      />
      <p id={`${id}-msg`} className={`premium-name-msg is-${tone}`} role="status" data-testid="premium-name-status">
        {message}
      </p>
    </div>
  );
}

export default function NameStep({ pubkey }: { pubkey: string }) {
  const { t } = useTranslation('premium');
  const [, navigate] = useLocation();
  const choice = useChoice();
  const [name, setName] = useState(choice.name);
  const [domain, setDomain] = useState('');
  const check = useAvailability(name, pubkey);
  useEffect(() => {
    void serverInfo().then((i) => setDomain(i.nip05Domain));
  }, []);
  const ready = !nameProblem(name) && check.state === 'available';
  return (
    <section className="premium-step" aria-labelledby="premium-name-heading">
      <h2 id="premium-name-heading">{t('name.heading')}</h2>
      <p>{t('name.text', { domain })}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!ready) return;
          setChoice({ name });
          navigate('/premium/subscription');
        }}
      >
        <NameField check={check} value={name} onChange={setName} label={t('name.label')} />
        <button type="submit" className="button" disabled={!ready}>
          {t('name.next')}
        </button>
      </form>
    </section>
  );
}
