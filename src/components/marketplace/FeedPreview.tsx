/** The first notes of a feed, opened through the worker like any feed and closed with the pane. */
import { useTranslation } from 'react-i18next';
import { useFeed } from '../../lib/useFeed';
import { NoteCard } from '../NoteCard';
import { FeedSkeleton } from '../NoteSkeleton';
import { ArticleCard } from '../reads/ArticleCard';
import { StatusMessage, RetryMessage } from '../StatusMessage';
import { registerNamespace } from '../../i18n';
import readsHu from '../../../locales/hu/reads.json';
import readsEn from '../../../locales/en/reads.json';
import '../../styles/reads.css';

// Article cards speak the reads namespace, which is otherwise registered only by the reads pages.
registerNamespace('reads', { hu: readsHu, en: readsEn });

const PREVIEW_NOTES = 6;

export function FeedPreview({ id, name, spec }: { id: string; name: string; spec: string }) {
  const { t } = useTranslation('feeds');
  const { snapshot, retry } = useFeed(spec);
  const notes = (snapshot?.notes ?? []).slice(0, PREVIEW_NOTES);

  let body;
  if (notes.length > 0) {
    body = notes.map((note, i) =>
      note.event.kind === 30023 ? (
        <ArticleCard key={note.key} note={note} position={i + 1} setSize={notes.length} />
      ) : (
        <NoteCard key={note.key} note={note} position={i + 1} setSize={notes.length} />
      ),
    );
  } else if (snapshot?.status === 'error') {
    body = (
      <RetryMessage title={t('market.previewError')} retryLabel={t('market.retry')} onRetry={retry} />
    );
  } else if (snapshot?.status === 'ready') {
    body = <StatusMessage title={t('market.previewEmpty')} />;
  } else {
    body = <FeedSkeleton label={t('market.previewLoading')} />;
  }

  return (
    <section id={id} className="market-preview" aria-label={t('market.previewLabel', { name })} aria-busy={!snapshot || snapshot.status === 'loading'}>
      <h4 className="market-preview-title">{t('market.previewLabel', { name })}</h4>
      <div className="market-preview-notes">{body}</div>
    </section>
  );
}
