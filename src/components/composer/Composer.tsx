/**
 * The new-note modal (openComposer): a new note, a reply (the parent shown small above the form)
 * or a quote (the quoted note embedded below). Closing with unpublished text asks whether to keep
 * the draft. Guests are sent to the login modal instead.
 */
import './ns';
import { useEffect, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { displayName } from '../../../core/profile';
import { useAccount } from '../../lib/account';
import { quoteReference } from '../../lib/noteTags';
import { openLogin, type ComposerRequest } from '../../lib/overlays';
import { Modal } from '../Modal';
import { NoteForm } from './NoteForm';
import { NotePreview } from './NotePreview';
import { useDraft } from './useDraft';

/** The draft key: the note answered, the note quoted, or none (spec: noteDraft keyed by parent id, 'root' by default). */
export function draftParent(request: ComposerRequest): string | undefined {
  if (request.replyTo) return request.replyTo.event.id;
  if (request.quote) return `quote:${request.quote.event.id}`;
  return undefined;
}

function startingText(request: ComposerRequest): string {
  if (request.text) return request.text;
  if (request.quote) return `\n\n${quoteReference({ event: request.quote.event, relay: request.quote.relayHint })}`;
  return '';
}

function DraftDialog({ onSave, onDiscard, onCancel }: { onSave: () => void; onDiscard: () => void; onCancel: () => void }) {
  const { t } = useTranslation('composer');
  return (
    <Modal
      title={t('draft.title')}
      className="modal-narrow composer-draft-dialog"
      onClose={onCancel}
      initialFocus="[data-draft='save']"
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onCancel}>
            {t('draft.cancel')}
          </button>
          <button type="button" className="button button-secondary" data-draft="discard" onClick={onDiscard}>
            {t('draft.discard')}
          </button>
          <button type="button" className="button" data-draft="save" onClick={onSave}>
            {t('draft.save')}
          </button>
        </>
      }
    >
      <p className="confirm-message">{t('draft.message')}</p>
    </Modal>
  );
}

export default function Composer({ request, onClose }: { request: ComposerRequest; onClose: () => void }) {
  const { t } = useTranslation('composer');
  const snapshot = useAccount();
  // Still starting up or mid-login is not a guest yet; these states cannot write.
  const guest = snapshot !== null && ['loggedOut', 'readOnly', 'locked', 'pinPrompt'].includes(snapshot.login.state);
  const initial = startingText(request);
  const draft = useDraft(draftParent(request), initial);
  const [asking, setAsking] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const { replyTo, quote } = request;

  useEffect(() => {
    if (guest) openLogin();
  }, [guest]);

  // A quote starts with the reference below an empty first line: the caret waits above it.
  useEffect(() => {
    const el = textarea.current;
    if (el && quote && draft.text === initial) el.setSelectionRange(0, 0);
    // Only when the modal opens, not each time the text changes.
  }, []);

  if (guest) return null;

  const requestClose = () => {
    if (draft.dirty) setAsking(true);
    else {
      // Nothing worth keeping: the untouched starting text of a quote is not a draft.
      if (draft.text.trim() === '' || draft.text === initial) void draft.discard().catch(() => undefined);
      onClose();
    }
  };

  const title = replyTo ? t('title.reply') : quote ? t('title.quote') : t('title.new');
  return (
    <>
      <Modal title={title} className="composer-modal" onClose={onClose} onRequestClose={requestClose} initialFocus=".composer-textarea">
        {replyTo && (
          <div className="composer-reply-context">
            <NotePreview note={replyTo} label={t('replyContext')} clamp />
            <p className="composer-replying-to">
              <Trans t={t} i18nKey="replyingTo" values={{ name: displayName(replyTo.author) }} components={{ 1: <strong /> }} />
            </p>
          </div>
        )}
        <NoteForm draft={draft} replyTo={replyTo} quote={quote} variant="modal" textareaRef={textarea} onPublished={onClose} />
        {quote && <NotePreview note={quote} label={t('quoteContext')} />}
      </Modal>
      {asking && (
        <DraftDialog
          onCancel={() => setAsking(false)}
          onSave={() => {
            void draft.save().catch(() => undefined);
            onClose();
          }}
          onDiscard={() => {
            void draft.discard().catch(() => undefined);
            onClose();
          }}
        />
      )}
    </>
  );
}
