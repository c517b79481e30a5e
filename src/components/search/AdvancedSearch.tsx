/**
 * The advanced search form: every field writes a term of the query grammar (S §3.7), the query
 * text is shown as it grows, and submitting opens /search/{query}. An existing query fills the
 * form through parse_advanced_search_query.
 */
import { useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { useWorkerRequest } from '../../lib/useWorkerRequest';
import { buildQuery, EMPTY_FORM, formFromDescription, KINDS, ORDERS, SCOPES, userRefs, type SearchForm } from './query';
import { CacheKind } from '../../../core/kinds';

function Field({ label, hint, children }: { label: string; hint?: string; children: (id: string, hintId?: string) => ReactNode }) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="adv-field">
      <label htmlFor={id}>{label}</label>
      {children(id, hint ? hintId : undefined)}
      {hint && (
        <span id={hintId} className="adv-hint">
          {hint}
        </span>
      )}
    </div>
  );
}

export function AdvancedSearch({ query, open: initiallyOpen }: { query: string; open: boolean }) {
  const { t } = useTranslation('search');
  const [, navigate] = useLocation();
  const [form, setForm] = useState<SearchForm>(EMPTY_FORM);
  const [error, setError] = useState(false);
  const built = useMemo(() => buildQuery(form), [form]);

  // The form follows the page's query; a query the grammar rejects leaves the form empty.
  const { data: parsed } = useWorkerRequest(
    query
      ? (api) =>
          api.request('parse_advanced_search_query', { query }).then((reply) => {
            const obj = reply.events.find((e) => e.kind === CacheKind.PARSED_SEARCH_QUERY);
            return obj?.content ? formFromDescription(JSON.parse(obj.content) as Record<string, unknown>) : null;
          })
      : null,
    [query],
  );
  useEffect(() => setForm(parsed ?? EMPTY_FORM), [parsed]);

  const set = <K extends keyof SearchForm>(key: K, value: SearchForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setError(false);
  };

  const text = (key: 'words' | 'phrase' | 'excluded' | 'hashtags', hint?: string) => (
    <Field label={t(`advanced.${key}`)} hint={hint}>
      {(id, hintId) => <input id={id} type="text" value={form[key]} aria-describedby={hintId} onChange={(e) => set(key, e.target.value)} />}
    </Field>
  );

  const people = (key: 'from' | 'to' | 'mention') => {
    const typed = form[key].trim();
    const invalid = typed !== '' && userRefs(typed).length === 0;
    return (
      <Field label={t(`advanced.${key}`)} hint={invalid ? t('advanced.userInvalid') : t('advanced.userHint')}>
        {(id, hintId) => (
          <input
            id={id}
            type="text"
            value={form[key]}
            spellCheck={false}
            aria-invalid={invalid || undefined}
            aria-describedby={hintId}
            placeholder="npub1…"
            onChange={(e) => set(key, e.target.value)}
          />
        )}
      </Field>
    );
  };

  const minimum = (key: 'minLikes' | 'minZaps' | 'minReplies') => (
    <Field label={t(`advanced.${key}`)}>
      {(id) => <input id={id} type="number" min={0} inputMode="numeric" value={form[key]} onChange={(e) => set(key, e.target.value)} />}
    </Field>
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!built) {
      setError(true);
      return;
    }
    navigate(`/search/${encodeURIComponent(built)}`);
  };

  return (
    <details className="adv-search" open={initiallyOpen}>
      <summary>{t('advanced.title')}</summary>
      <form className="adv-form" onSubmit={submit} noValidate aria-label={t('advanced.title')}>
        <fieldset>
          <legend>{t('advanced.textGroup')}</legend>
          {text('words')}
          {text('phrase')}
          {text('excluded', t('advanced.excludedHint'))}
          {text('hashtags', t('advanced.hashtagsHint'))}
        </fieldset>
        <fieldset>
          <legend>{t('advanced.peopleGroup')}</legend>
          {people('from')}
          {people('to')}
          {people('mention')}
        </fieldset>
        <fieldset>
          <legend>{t('advanced.filterGroup')}</legend>
          <Field label={t('advanced.kind')}>
            {(id) => (
              <select id={id} value={form.kind} onChange={(e) => set('kind', e.target.value as SearchForm['kind'])}>
                {KINDS.map((k) => (
                  <option key={k} value={k}>
                    {t(`kinds.${k}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('advanced.since')}>{(id) => <input id={id} type="date" value={form.since} onChange={(e) => set('since', e.target.value)} />}</Field>
          <Field label={t('advanced.until')}>{(id) => <input id={id} type="date" value={form.until} onChange={(e) => set('until', e.target.value)} />}</Field>
          {minimum('minLikes')}
          {minimum('minZaps')}
          {minimum('minReplies')}
          <Field label={t('advanced.scope')}>
            {(id) => (
              <select id={id} value={form.scope} onChange={(e) => set('scope', e.target.value as SearchForm['scope'])}>
                {SCOPES.map((s) => (
                  <option key={s} value={s}>
                    {t(`scopes.${s}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('advanced.order')}>
            {(id) => (
              <select id={id} value={form.order} onChange={(e) => set('order', e.target.value as SearchForm['order'])}>
                {ORDERS.map((o) => (
                  <option key={o} value={o}>
                    {t(`orders.${o}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </fieldset>
        <div className="adv-preview">
          <span className="adv-preview-label">{t('advanced.preview')}</span>
          <output className="adv-query" aria-live="polite" data-testid="advanced-query">
            {built || t('advanced.previewEmpty')}
          </output>
        </div>
        {error && (
          <p className="field-error" role="alert">
            {t('empty')}
          </p>
        )}
        <div className="adv-actions">
          <button type="button" className="button button-secondary" onClick={() => setForm(EMPTY_FORM)}>
            {t('advanced.clear')}
          </button>
          <button type="submit" className="button">
            {t('advanced.submit')}
          </button>
        </div>
      </form>
    </details>
  );
}
