import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { SearchIcon } from './Icons';

// The trending block costs a request and some parsing; it must not delay the feed's first paint.
const Trending = lazy(() => import('./Trending'));

function SearchBox() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const [query, setQuery] = useState('');
  const [error, setError] = useState(false);
  const inputId = useId();
  const errorId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const term = query.trim();
    if (!term) {
      setError(true);
      return;
    }
    setError(false);
    navigate(`/search/${encodeURIComponent(term)}`);
  };
  return (
    <form role="search" className="search-box" onSubmit={submit} noValidate>
      <label htmlFor={inputId} className="visually-hidden">
        {t('search.label')}
      </label>
      <SearchIcon size={18} />
      <input
        id={inputId}
        type="search"
        value={query}
        placeholder={t('search.placeholder')}
        aria-invalid={error || undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => {
          setQuery(e.target.value);
          if (error) setError(false);
        }}
      />
      <button type="submit" className="visually-hidden">
        {t('search.submit')}
      </button>
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {t('search.empty')}
        </p>
      )}
    </form>
  );
}

export function Sidebar() {
  const { t } = useTranslation();
  return (
    <aside className="right-sidebar" aria-label={t('sidebar.label')}>
      <div className="sidebar-inner">
        <SearchBox />
        <Suspense fallback={null}>
          <Trending />
        </Suspense>
      </div>
    </aside>
  );
}
