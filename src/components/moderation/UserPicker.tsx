/**
 * Picks one account by npub (or nprofile, or hex) or by name: a key is taken at once, a name is
 * searched with user_search and the person chooses from the results. What was typed stays until
 * the pick succeeds.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { displayName, shortNpub } from '../../../core/profile';
import type { Profile } from '../../../core/types';
import { fullApi } from '../../lib/account';
import { Avatar } from '../Avatar';
import { looksLikeKey, pubkeyFromInput } from './muted';
import { profileOf, rememberProfile } from './useProfiles';

export interface UserPickerProps {
  label: string;
  actionLabel: string;
  hint?: string;
  disabled?: boolean;
  /** Resolves true when the picked account was taken (the field is then cleared). */
  onPick: (profile: Profile) => Promise<boolean>;
  /** A new search was asked for: an answer about the last pick no longer applies. */
  onSearch?: () => void;
}

export function UserPicker({ label, actionLabel, hint, disabled, onPick, onSearch }: UserPickerProps) {
  const { t } = useTranslation('moderation');
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [results, setResults] = useState<Profile[] | null>(null);
  const [busy, setBusy] = useState(false);

  const pick = async (profile: Profile) => {
    setBusy(true);
    try {
      if (await onPick(profile)) {
        setText('');
        setResults(null);
      }
    } finally {
      setBusy(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    onSearch?.();
    const query = text.trim();
    if (!query) {
      setError(t('input.empty'));
      return;
    }
    const pubkey = pubkeyFromInput(query);
    if (pubkey) {
      setResults(null);
      await pick(profileOf(pubkey));
      return;
    }
    if (looksLikeKey(query)) {
      setError(t('picker.invalidKey'));
      return;
    }
    setBusy(true);
    try {
      const found = await (await fullApi()).searchUsers(query, 10);
      for (const p of found) rememberProfile(p);
      setResults(found);
    } catch {
      setResults([]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mod-picker">
      <form className="mod-add" onSubmit={(e) => void submit(e)} noValidate>
        <label htmlFor={`${id}-input`} className="mod-add-label">
          {label}
        </label>
        <div className="mod-add-line">
          <input
            id={`${id}-input`}
            className="form-input"
            value={text}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
            onChange={(e) => {
              setText(e.target.value);
              setError('');
            }}
            disabled={disabled}
          />
          <button type="submit" className="button" disabled={disabled || busy}>
            {actionLabel}
          </button>
        </div>
        {error ? (
          <p id={`${id}-error`} className="form-error" role="alert">
            {error}
          </p>
        ) : (
          hint && (
            <p id={`${id}-hint`} className="form-hint">
              {hint}
            </p>
          )
        )}
      </form>
      {results && (
        <div className="mod-results" aria-live="polite">
          {results.length === 0 ? (
            <p className="mod-empty">{t('picker.noResults')}</p>
          ) : (
            <ul className="mod-result-list" aria-label={t('picker.results')}>
              {results.map((p) => {
                const name = displayName(p);
                return (
                  <li key={p.pubkey}>
                    <button
                      type="button"
                      className="mod-result"
                      disabled={busy}
                      aria-label={t('picker.choose', { name })}
                      onClick={() => void pick(p)}
                    >
                      <Avatar profile={p} name={name} size={32} />
                      <span className="mod-person-text">
                        <span className="mod-person-name">{name}</span>
                        <span className="mod-person-npub">{p.nip05 || shortNpub(p.npub)}</span>
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
