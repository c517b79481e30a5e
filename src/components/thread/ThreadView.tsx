/**
 * One thread: the parent chain (compact, oldest first, joined by a line), the focused note (larger,
 * with its full date) and the direct replies, each a NoteCard that links to its own thread.
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFullDate } from '../../lib/format';
import type { FeedNote } from '../../../core/types';
import { useVisibleNotes } from '../actions/state';
import { FeedList } from '../FeedList';
import { NoteCard } from '../NoteCard';
import { FeedSkeleton } from '../NoteSkeleton';
import { RetryMessage } from '../StatusMessage';
import { byEngagement, newestFirst, type ReplyOrder } from './order';
import { useThread } from './useThread';

// The reply box (and the composer's strings) load with the thread, not with the first screen.
const InlineReply = lazy(() => import('../composer/InlineReply'));
const NO_NOTES: FeedNote[] = [];

export function MissingNote() {
  const { t } = useTranslation('thread');
  return (
    <div className="missing-note" role="status">
      <p className="missing-note-title">{t('missing.title')}</p>
      <p className="missing-note-text">{t('missing.text')}</p>
    </div>
  );
}

function ReplyOrderSwitch({ order, onChange }: { order: ReplyOrder; onChange: (o: ReplyOrder) => void }) {
  const { t } = useTranslation('thread');
  return (
    <div className="thread-order" role="group" aria-label={t('order.label')}>
      {(['newest', 'engagement'] as const).map((o) => (
        <button key={o} type="button" className="chip" aria-pressed={order === o} onClick={() => onChange(o)}>
          {t(`order.${o}`)}
        </button>
      ))}
    </div>
  );
}

/** How long the focused note is held at the top while the parents above it are still laying out. */
const HOLD_MS = 3000;

/**
 * The parents' images and embeds may load after the scroll and push the focused note down; until the
 * person scrolls or types themselves, each growth above it brings it back to the top. Returns the cleanup.
 */
function keepInPlace(target: HTMLElement, above: HTMLElement | null): () => void {
  if (!above || typeof ResizeObserver === 'undefined') return () => undefined;
  let first = true;
  const observer = new ResizeObserver(() => {
    // The first call only reports the size the parents had when watching began.
    if (first) {
      first = false;
      return;
    }
    target.scrollIntoView({ block: 'start' });
  });
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
    for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) window.removeEventListener(type, stop);
  };
  for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown'] as const) window.addEventListener(type, stop, { passive: true });
  const timer = setTimeout(stop, HOLD_MS);
  observer.observe(above);
  return stop;
}

export function ThreadView({ id }: { id: string }) {
  const { t, i18n } = useTranslation('thread');
  const { snapshot, failure, reload } = useThread(id);
  const [order, setOrder] = useState<ReplyOrder>('newest');
  const focusRef = useRef<HTMLElement>(null);
  const parentsRef = useRef<HTMLElement>(null);
  const hold = useRef<(() => void) | null>(null);
  const scrolledFor = useRef<string | null>(null);

  const status = failure ? 'error' : (snapshot?.status ?? 'loading');
  const note = snapshot?.note;
  const parents = snapshot?.parents ?? [];
  // Deleted replies leave the count as well as the list (muted ones never arrive: worker/threads.ts).
  const shown = useVisibleNotes(snapshot?.replies ?? NO_NOTES);
  const replies = useMemo(() => (order === 'newest' ? newestFirst(shown) : byEngagement(shown)), [shown, order]);

  // With parents above it the focused note would start off screen; bring it to the top once per thread.
  useEffect(() => {
    if (status !== 'ready' || !note || scrolledFor.current === id) return;
    scrolledFor.current = id;
    const target = focusRef.current;
    if (parents.length === 0 || !target) return;
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    target.scrollIntoView({ block: 'start', behavior: reduce ? 'auto' : 'smooth' });
    hold.current = keepInPlace(target, parentsRef.current);
  }, [status, note, parents.length, id]);
  // Snapshot updates re-run the effect above without ending the hold; another thread or leaving does.
  useEffect(() => () => hold.current?.(), [id]);

  if (status === 'loading' || status === 'resolving') {
    if (!note) return <FeedSkeleton label={t('loading')} />;
  }
  if (status === 'error') {
    return (
      <RetryMessage title={t('error.title')} retryLabel={t('error.retry')} onRetry={reload}>
        {t('error.text')}
      </RetryMessage>
    );
  }
  if (status === 'notFound' || !note) return <MissingNote />;

  const locale = i18n.resolvedLanguage ?? 'hu';
  return (
    <>
      {parents.length > 0 && (
        <section ref={parentsRef} aria-label={t('parents', { count: parents.length })}>
          <ol className="thread-parents">
            {parents.map((p) => (
              <li key={p.key} className="thread-parent">
                <NoteCard note={p} />
              </li>
            ))}
          </ol>
        </section>
      )}
      <section ref={focusRef} className="thread-focus" aria-label={t('focused')} data-focused-note={note.event.id}>
        <NoteCard note={note} />
        <p className="thread-focus-date">
          <time dateTime={new Date(note.event.created_at * 1000).toISOString()}>{formatFullDate(note.event.created_at, locale)}</time>
        </p>
      </section>
      <Suspense fallback={null}>
        <InlineReply key={note.event.id} note={note} onPublished={reload} />
      </Suspense>
      <section className={`thread-replies${parents.length > 0 ? ' thread-replies-tall' : ''}`} aria-labelledby="thread-replies-title">
        <div className="thread-replies-head">
          <h2 id="thread-replies-title" className="thread-replies-title">
            {t('replies.title', { count: replies.length })}
          </h2>
          {replies.length > 1 && <ReplyOrderSwitch order={order} onChange={setOrder} />}
        </div>
        {replies.length > 0 ? (
          <FeedList key={order} notes={replies} status="ready" hasMore={false} onLoadMore={() => undefined} />
        ) : (
          <p className="thread-no-replies">{t('replies.none')}</p>
        )}
      </section>
    </>
  );
}
