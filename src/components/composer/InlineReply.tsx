/**
 * The reply box under a thread's focused note: a one-line prompt that opens into the same form as
 * the composer modal, in place. A saved draft for this note opens it straight away.
 */
import './ns';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeedNote } from '../../../worker/types';
import { displayName, emptyProfile } from '../../../worker/profile';
import { useAccount, useActingPubkey } from '../../lib/account';
import { openLogin } from '../../lib/overlays';
import { Avatar } from '../Avatar';
import { NoteForm } from './NoteForm';
import { useDraft } from './useDraft';

export default function InlineReply({ note, onPublished }: { note: FeedNote; onPublished?: () => void }) {
  const { t } = useTranslation('composer');
  const acting = useActingPubkey();
  const own = useAccount()?.account?.userProfile;
  const draft = useDraft(note.event.id);
  const [expanded, setExpanded] = useState(false);
  const open = acting !== undefined && (expanded || draft.text !== '');
  const me = own ?? (acting ? emptyProfile(acting) : undefined);

  if (!open) {
    return (
      <div className="composer-inline composer-inline-compact">
        {me && <Avatar profile={me} name={displayName(me)} size={36} />}
        <button type="button" className="composer-compact-button" aria-label={t('compactLabel')} onClick={() => (acting ? setExpanded(true) : openLogin())}>
          {t('compactPrompt')}
        </button>
      </div>
    );
  }

  return (
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
  );
}
