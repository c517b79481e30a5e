/**
 * The search box with name suggestions as you type (sidebar and search page): an ARIA combobox
 * whose first option searches notes for the term and whose other options open a profile.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { Profile } from '../../../core/types';
import { displayName } from '../../../core/profile';
import { formatCount } from '../../lib/format';
import { Avatar } from '../Avatar';
import { SearchIcon } from '../Icons';
import { profileTarget } from './query';
import { useUserSearch } from './useUserSearch';
import '../../styles/search.css';

interface Props {
  /** The term the box starts with (the search page passes its query). */
  initial?: string;
  className?: string;
  /** Shown as the input's accessible name. */
  label?: string;
}

export function profileHref(profile: Profile): string {
  return `/p/${profile.npub || profile.pubkey}`;
}

export function SearchCombobox({ initial = '', className = '', label }: Props) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [query, setQuery] = useState(initial);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [error, setError] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const listId = useId();
  const errorId = useId();
  const term = query.trim();
  const search = useUserSearch(query, open && !profileTarget(term));
  const users = search.term === term ? search.users : [];
  const optionCount = term ? 1 + users.length : 0;
  const expanded = open && optionCount > 0;

  useEffect(() => setQuery(initial), [initial]);
  useEffect(() => setActive(0), [term, users.length]);

  const close = () => {
    setOpen(false);
    setActive(0);
  };

  const go = (href: string) => {
    close();
    inputRef.current?.blur();
    navigate(href);
  };

  const submitTerm = () => {
    if (!term) {
      setError(true);
      return;
    }
    setError(false);
    const target = profileTarget(term);
    go(target ? `/p/${target}` : `/search/${encodeURIComponent(term)}`);
  };

  const choose = (index: number) => {
    const user = index > 0 ? users[index - 1] : undefined;
    if (user) go(profileHref(user));
    else submitTerm();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    choose(expanded ? active : 0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      if (optionCount === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => (a + step + optionCount) % optionCount);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      close();
    }
  };

  const optionId = (i: number) => `${listId}-o${i}`;

  return (
    <form role="search" className={`search-box search-combobox ${className}`} onSubmit={onSubmit} noValidate>
      <label htmlFor={inputId} className="visually-hidden">
        {label ?? t('search.label')}
      </label>
      <SearchIcon size={18} />
      <input
        ref={inputRef}
        id={inputId}
        type="search"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        value={query}
        placeholder={t('search.placeholder')}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded ? optionId(active) : undefined}
        aria-invalid={error || undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
          if (error) setError(false);
        }}
        onFocus={() => setOpen(true)}
        onBlur={close}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="visually-hidden">
        {t('search.submit')}
      </button>
      <ul id={listId} role="listbox" aria-label={t('search.suggestions')} className="search-suggestions" hidden={!expanded}>
        {expanded && (
          <li
            id={optionId(0)}
            role="option"
            aria-selected={active === 0}
            className="search-option search-option-term"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(0)}
            onMouseEnter={() => setActive(0)}
          >
            <SearchIcon size={18} />
            <span>{t('search.searchFor', { query: term })}</span>
          </li>
        )}
        {expanded &&
          users.map((user, i) => {
            const name = displayName(user);
            return (
              <li
                key={user.pubkey}
                id={optionId(i + 1)}
                role="option"
                aria-selected={active === i + 1}
                className="search-option"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(i + 1)}
                onMouseEnter={() => setActive(i + 1)}
              >
                <Avatar profile={user} name={name} size={36} />
                <span className="search-option-text">
                  <span className="search-option-name">{name}</span>
                  <span className="search-option-meta">
                    {user.nip05 || (user.name && user.name !== name ? `@${user.name}` : '')}
                    {user.followers !== undefined && <> · {t('search.followers', { count: user.followers, formatted: formatCount(user.followers) })}</>}
                  </span>
                </span>
              </li>
            );
          })}
      </ul>
      {open && term && search.loading && users.length === 0 && (
        <span className="visually-hidden" role="status">
          {t('search.searching')}
        </span>
      )}
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {t('search.empty')}
        </p>
      )}
    </form>
  );
}
