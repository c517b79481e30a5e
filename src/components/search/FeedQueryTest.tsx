/**
 * /feeds and /feeds/{query}: the feed query test. A spec JSON (or a ["command", {args}] call) or
 * an advanced-search query runs as a feed; the raw RANGE of its first page is shown with the notes.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { reasonOf, useWorkerRequest } from '../../lib/useWorkerRequest';
import { useFeed } from '../../lib/useFeed';
import { FeedList } from '../FeedList';
import { FeedSkeleton } from '../NoteSkeleton';
import { StatusMessage } from '../StatusMessage';
import { CacheKind } from '../../../core/kinds';

/** The spec a typed query stands for: JSON as written (normalised), anything else an advanced search. */
export function specOf(input: string): string {
  const text = input.trim();
  if (text.startsWith('{') || text.startsWith('[')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed === 'object' && parsed !== null) return JSON.stringify(parsed);
    } catch {
      // Not JSON after all: the grammar gets it as typed.
    }
  }
  return JSON.stringify({ id: 'advsearch', query: text });
}

interface RangeInfo {
  status: 'loading' | 'ready' | 'error';
  range?: string;
  objects?: number;
  notice?: string;
}

function useRangeInfo(spec: string | undefined): RangeInfo | undefined {
  const { data, error, loading } = useWorkerRequest(
    spec
      ? (api) => {
          const call = spec.startsWith('[');
          return api.request(call ? 'advanced_feed' : 'mega_feed_directive', call ? { specification: JSON.parse(spec), limit: 20 } : { spec, limit: 20 }).then((reply): RangeInfo => {
            const range = reply.events.find((e) => e.kind === CacheKind.RANGE);
            let pretty: string | undefined;
            if (range?.content) {
              try {
                pretty = JSON.stringify(JSON.parse(range.content), null, 2);
              } catch {
                pretty = range.content;
              }
            }
            return { status: 'ready', range: pretty, objects: reply.events.length, notice: reply.notice };
          });
        }
      : null,
    [spec],
  );
  if (!spec) return undefined;
  if (loading) return { status: 'loading' };
  if (error !== undefined) return { status: 'error', notice: reasonOf(error) };
  return data;
}

export function FeedQueryTest({ query }: { query: string }) {
  const { t } = useTranslation('search');
  const [, navigate] = useLocation();
  const [input, setInput] = useState(query);
  const [error, setError] = useState(false);
  const inputId = useId();
  const hintId = useId();
  useEffect(() => setInput(query), [query]);

  const spec = query ? specOf(query) : undefined;
  const info = useRangeInfo(spec);
  const { snapshot, loadMore } = useFeed(spec);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = input.trim();
    if (!text) {
      setError(true);
      return;
    }
    setError(false);
    navigate(`/feeds/${encodeURIComponent(text)}`);
  };

  const notes = snapshot?.notes ?? [];
  return (
    <>
      <form className="feed-test-form" onSubmit={submit} noValidate>
        <label htmlFor={inputId}>{t('feedTest.label')}</label>
        <textarea
          id={inputId}
          rows={3}
          spellCheck={false}
          value={input}
          aria-describedby={hintId}
          aria-invalid={error || undefined}
          placeholder='{"id":"advsearch","query":"kind:1 #balaton"}'
          onChange={(e) => setInput(e.target.value)}
        />
        <span id={hintId} className="adv-hint">
          {t('feedTest.hint')}
        </span>
        {error && (
          <p className="field-error" role="alert">
            {t('feedTest.empty')}
          </p>
        )}
        <button type="submit" className="button">
          {t('feedTest.run')}
        </button>
      </form>
      {spec && (
        <section className="feed-test-result" aria-labelledby="feed-test-spec">
          <h2 id="feed-test-spec" className="section-title">
            {t('feedTest.spec')}
          </h2>
          <pre className="feed-test-code" data-testid="feed-spec" tabIndex={0}>{spec}</pre>
          <h2 className="section-title">{t('feedTest.range')}</h2>
          {info?.status === 'loading' && <p className="feed-test-muted">{t('feedTest.rangeLoading')}</p>}
          {info?.status === 'error' && <p className="field-error">{t('feedTest.rangeError', { message: info.notice })}</p>}
          {info?.status === 'ready' && (
            <>
              <p className="feed-test-muted">{t('feedTest.objects', { count: info.objects })}</p>
              {info.notice && <p className="field-error">{t('feedTest.notice', { message: info.notice })}</p>}
              <pre className="feed-test-code" data-testid="feed-range" tabIndex={0}>
                {info.range ?? t('feedTest.noRange')}
              </pre>
            </>
          )}
          <h2 className="section-title">{t('notes')}</h2>
          {notes.length > 0 ? (
            <FeedList notes={notes} status={snapshot!.status} hasMore={snapshot!.hasMore} onLoadMore={loadMore} />
          ) : snapshot?.status === 'ready' || snapshot?.status === 'error' ? (
            <StatusMessage title={t('feedTest.noNotes')}>{t('feedTest.noNotesHint')}</StatusMessage>
          ) : (
            <FeedSkeleton label={t('loading')} />
          )}
        </section>
      )}
    </>
  );
}
