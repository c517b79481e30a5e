/**
 * The new-note form shared by the composer modal and the thread page's inline reply: the text with
 * mention autocomplete, emoji, media upload (button, paste, drop), a preview, and publishing through
 * the worker with the spec §8 toast for each outcome. The draft itself lives in useDraft.
 */
import { useEffect, useId, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { EmojiUse, FeedNote, NostrEvent, Profile, PublishResult } from '../../../core/types';
import { accountAction, fullApi, useActingPubkey } from '../../lib/account';
import { buildNoteEvent } from '../../lib/noteTags';
import { openLogin } from '../../lib/overlays';
import { remoteSignerError } from '../../lib/remoteSigner';
import { toastError, toastSuccess } from '../../lib/toast';
import { NoteContent } from '../NoteContent';
import { EmojiPicker } from './EmojiPicker';
import { useAutoGrow } from './useAutoGrow';
import { MediaStrip } from './MediaStrip';
import { MentionList, mentionOptionId } from './MentionList';
import type { DraftControls } from './useDraft';
import { insertMention, useMention, type MentionMatch } from './useMention';
import { useUploads } from './useUploads';

/** Signing failed because nothing can sign: the "an extension is required" toast, not a generic failure. */
const NO_SIGNER = new Set(['no_nostr_extension', 'sign-no-nsec', 'pubkey-no-nsec', 'event_not_signed']);

export interface NoteFormProps {
  draft: DraftControls;
  replyTo?: FeedNote;
  quote?: FeedNote;
  variant: 'modal' | 'inline';
  onPublished: (event: NostrEvent | undefined) => void;
  textareaRef?: RefObject<HTMLTextAreaElement | null>;
  autoFocus?: boolean;
}

export function NoteForm({ draft, replyTo, quote, variant, onPublished, textareaRef, autoFocus }: NoteFormProps) {
  const { t } = useTranslation('composer');
  const acting = useActingPubkey();
  const ownRef = useRef<HTMLTextAreaElement>(null);
  const area = textareaRef ?? ownRef;
  const fileInput = useRef<HTMLInputElement>(null);
  const pendingCaret = useRef<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [customEmoji, setCustomEmoji] = useState<Record<string, string>>({});
  const alive = useRef(true);
  const id = useId();
  const listId = `${id}-mentions`;
  const hintId = `${id}-hint`;
  const { text, setText } = draft;

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const mention = useMention(text, (profile: Profile, match: MentionMatch) => {
    const next = insertMention(text, match, profile);
    draft.addRef(profile);
    pendingCaret.current = next.caret;
    setText(next.text);
  });

  const uploads = useUploads((url) => {
    setText((previous) => `${previous}${previous === '' || /\s$/.test(previous) ? '' : '\n'}${url}`);
  });

  useAutoGrow(area, pendingCaret, mention.track);

  const insertAtCaret = (snippet: string) => {
    const el = area.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? start;
    pendingCaret.current = start + snippet.length;
    setText(text.slice(0, start) + snippet + text.slice(end));
  };

  const pickEmoji = (emoji: EmojiUse) => {
    if (emoji.url) setCustomEmoji((all) => ({ ...all, [emoji.name]: emoji.url as string }));
    insertAtCaret(emoji.url ? `:${emoji.name}:` : emoji.name);
    void accountAction({ type: 'addEmoji', emoji }).catch(() => undefined);
  };

  const content = text.trim();
  const canPublish = content !== '' && !busy && !uploads.busy;

  const publish = async () => {
    if (!canPublish) return;
    if (!acting) {
      openLogin();
      return;
    }
    setBusy(true);
    const event = buildNoteEvent(content, {
      replyTo: replyTo && { event: replyTo.event, relay: replyTo.relayHint },
      quote: quote && { event: quote.event, relay: quote.relayHint },
      author: acting,
      emojis: customEmoji,
    });
    let result: PublishResult;
    try {
      result = await (await fullApi()).publish(event);
    } catch {
      result = { success: false, reasons: {}, outcome: 'failed' };
    }
    if (alive.current) setBusy(false);
    if (result.success) {
      toastSuccess(t('toast.published'));
      await draft.discard().catch(() => undefined);
      onPublished(result.event);
      return;
    }
    const reason = result.reasons['*'] ?? '';
    if (result.outcome === 'no-confirmation') toastError(t('toast.noConfirmation'));
    else if (result.outcome === 'no-relays') toastError(t('toast.noRelays'));
    else if (result.outcome === 'not-signed' && NO_SIGNER.has(reason)) toastError(t('toast.noExtension'));
    else if (result.outcome === 'not-signed' && remoteSignerError(reason)) toastError(remoteSignerError(reason) as string);
    else toastError(t('toast.failed'));
    // The text stays in the form, and the draft is written now rather than after the debounce.
    void draft.save().catch(() => undefined);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void publish();
      return;
    }
    if (mention.onKeyDown(e)) {
      // Escape closes only the list, not the dialog around the form.
      e.preventDefault();
      e.stopPropagation();
    }
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(e.clipboardData.files);
    if (files.length === 0) return;
    e.preventDefault();
    uploads.add(files);
  };

  const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer.types).includes('Files');
  const onDragOver = (e: DragEvent<HTMLDivElement>) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    setDragging(false);
    uploads.add(Array.from(e.dataTransfer.files));
  };

  const previewProfiles = useMemo(
    () => ({ ...replyTo?.profiles, ...quote?.profiles, ...(quote ? { [quote.author.pubkey]: quote.author } : {}), ...draft.refs }),
    [replyTo, quote, draft.refs],
  );
  const previewEvents = useMemo(() => (quote ? { ...quote.referencedEvents, [quote.event.id]: quote.event } : undefined), [quote]);
  const count = Array.from(content).length;
  const activeOption = mention.open && mention.search.users.length > 0 ? mentionOptionId(listId, mention.active) : undefined;

  return (
    <div
      className={`composer-form composer-form-${variant}`}
      data-dragging={dragging || undefined}
      onDragOver={onDragOver}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <label className="visually-hidden" htmlFor={`${id}-text`}>
        {t('label')}
      </label>
      <div className="composer-field">
        <textarea
          ref={area}
          id={`${id}-text`}
          className="form-textarea composer-textarea"
          value={text}
          placeholder={replyTo ? t('replyPlaceholder') : t('placeholder')}
          autoFocus={autoFocus}
          aria-describedby={hintId}
          aria-autocomplete="list"
          aria-controls={mention.open ? listId : undefined}
          aria-activedescendant={activeOption}
          onChange={(e) => {
            setText(e.target.value);
            mention.track(e.target.selectionStart);
          }}
          onSelect={(e) => mention.track(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {mention.open && <MentionList id={listId} mention={mention} />}
        {dragging && (
          <p className="composer-drop-hint" aria-hidden="true">
            {t('media.dropHint')}
          </p>
        )}
      </div>
      {preview && (
        <section className="composer-preview" aria-label={t('previewLabel')}>
          {content ? (
            <NoteContent content={content} profiles={previewProfiles} tags={[]} referencedEvents={previewEvents} depth={1} />
          ) : (
            <p className="form-hint">{t('previewEmpty')}</p>
          )}
        </section>
      )}
      <MediaStrip uploads={uploads} text={text} onRemove={(url) => setText((previous) => previous.replace(url, '').replace(/\n{3,}/g, '\n\n').trimEnd())} />
      <p id={hintId} className="form-hint composer-hint">
        {t('hint')}
      </p>
      <div className="composer-toolbar">
        <EmojiPicker onPick={pickEmoji} />
        <button type="button" className="composer-icon-button" onClick={() => fileInput.current?.click()} aria-label={t('media.button')} title={t('media.button')}>
          <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
            <rect x="3" y="4.5" width="18" height="15" rx="2.5" />
            <circle cx="8.5" cy="9.5" r="1.6" />
            <path d="m21 15.5-5-5-9 9" />
          </svg>
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="image/*,video/*"
          multiple
          hidden
          data-composer-file=""
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            e.target.value = '';
            if (files.length > 0) uploads.add(files);
          }}
        />
        <button type="button" className="composer-text-button" aria-pressed={preview} onClick={() => setPreview((p) => !p)}>
          {t('preview')}
        </button>
        <span className="composer-count">{t('characters', { count })}</span>
        <button type="button" className="button composer-publish" disabled={!canPublish} onClick={() => void publish()} aria-busy={busy || undefined}>
          {busy ? t('publishing') : t('publish')}
        </button>
      </div>
    </div>
  );
}
