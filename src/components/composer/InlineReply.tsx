/**
 * The reply box under a thread's focused note: a one-line prompt that opens into the same form as
 * the composer modal, in place. A saved draft for this note opens it straight away.
 */
import './ns';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeedNote } from '../../../core/types';
import { displayName, emptyProfile } from '../../../core/profile';
import { useAccount, useActingPubkey } from '../../lib/account';
import { openLogin } from '../../lib/overlays';
import { Avatar } from '../Avatar';
import { useDraft } from './useDraft';

// The form (mentions, emoji, uploads) loads when the box opens, not with the thread's first paint.
const NoteForm = lazy(() => import('./NoteForm').then((m) => ({ default: m.NoteForm })));
const preloadForm = () => void import('./NoteForm');

export default function InlineReply({ note, onPublished }: { note: FeedNote; onPublished?: () => void }) {
  const { t } = useTranslation('composer');
  const acting = useActingPubkey();
  const own = useAccount()?.account?.userProfile;
  const draft = useDraft(note.event.id);
  const [expanded, setExpanded] = useState(false);
  const open = acting !== undefined && (expanded || draft.text !== '');
  const me = own ?? (acting ? emptyProfile(acting) : undefined);

  const compact = (
    <div className="composer-inline composer-inline-compact">
      {me && <Avatar profile={me} name={displayName(me)} size={36} />}
      <button
        type="button"
        className="composer-compact-button"
        aria-label={t('compactLabel')}
        onPointerEnter={acting ? preloadForm : undefined}
        onFocus={acting ? preloadForm : undefined}
        onClick={() => (acting ? setExpanded(true) : openLogin())}
      >
        {t('compactPrompt')}
      </button>
    </div>
  );
  if (!open) return compact;

  // While the form's code arrives the prompt stays where it was.
  return (
    <Suspense fallback={compact}>
      <section className="composer-inline" aria-label={t('compactLabel')}>
        {me && <Avatar profile={me} name={displayName(me)} size={36} />}
        <div className="composer-inline-body">
          <NoteForm
            draft={draft}
            replyTo={note}
            variant="inline"
            autoFocus={expanded}
            onPublished={() => {
              setExpanded(false);
              onPublished?.();
            }}
          />
          {draft.text === '' && (
            <button type="button" className="composer-text-button composer-collapse" onClick={() => setExpanded(false)}>
              {t('collapse')}
            </button>
          )}
        </div>
      </section>
    </Suspense>
  );
}
