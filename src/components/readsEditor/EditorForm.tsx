import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TabStrip } from '../TabStrip';
import { useLocation } from 'wouter';
import { naddrEncode } from 'nostr-tools/nip19';
import type { PublishOutcome } from '../../../core/types';
import { fullApi } from '../../lib/account';
import {
  buildArticleEvent,
  emptyDraft,
  LONG_FORM_KIND,
  makeIdentifier,
  randomSuffix,
  validateArticle,
  type ArticleDraft,
  type ArticleErrors,
} from '../../lib/article';
import { confirmDialog } from '../../lib/overlays';
import { toastError, toastSuccess } from '../../lib/toast';
import { countWords } from '../reads/articleMeta';
import { ArticlePreview } from './ArticlePreview';
import { CoverField } from './CoverField';
import { MarkdownEditor, type MarkdownEditorHandle } from './MarkdownEditor';
import { TopicInput } from './TopicInput';
import { useDraftSaver } from './useDraftSaver';

type View = 'write' | 'preview';
const VIEWS: View[] = ['write', 'preview'];

const FAILURE: Record<Exclude<PublishOutcome, 'published'>, string> = {
  'no-confirmation': 'publish.noConfirmation',
  failed: 'publish.failed',
  'no-relays': 'publish.noRelays',
  'not-signed': 'publish.notSigned',
};

export interface EditorFormProps {
  pubkey: string;
  draftKey: string;
  initial: ArticleDraft;
  /** The published version when editing; null for a new article. */
  base: ArticleDraft | null;
  restored: boolean;
}

/** The editor proper: fields, Markdown body, live preview, draft keeping and publishing. */
export function EditorForm({ pubkey, draftKey, initial, base, restored }: EditorFormProps) {
  const { t } = useTranslation('editor');
  const [, navigate] = useLocation();
  const [draft, setDraft] = useState<ArticleDraft>(initial);
  const [showRestored, setShowRestored] = useState(restored);
  const [attempted, setAttempted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [view, setView] = useState<View>('write');
  const saver = useDraftSaver(draftKey, draft, base, restored);
  const titleInput = useRef<HTMLInputElement>(null);
  const coverInput = useRef<HTMLDivElement>(null);
  const body = useRef<MarkdownEditorHandle>(null);

  const editing = base !== null;
  const errors: ArticleErrors = attempted ? validateArticle(draft) : {};
  const errorCount = Object.keys(errors).length;
  const update = (patch: Partial<ArticleDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const message = (field: keyof ArticleErrors) => {
    const e = errors[field];
    if (!e) return undefined;
    return t(field === 'title' ? 'errors.titleRequired' : field === 'content' ? 'errors.bodyRequired' : 'errors.imageInvalid');
  };

  const focusFirstError = (found: ArticleErrors) => {
    // The fields live in the write pane, hidden behind the preview tab on phones.
    setView('write');
    requestAnimationFrame(() => {
      if (found.title) titleInput.current?.focus();
      else if (found.image) coverInput.current?.querySelector('input')?.focus();
      else if (found.content) body.current?.focus();
    });
  };

  const publish = async () => {
    setAttempted(true);
    const found = validateArticle(draft);
    if (Object.keys(found).length > 0) return focusFirstError(found);
    setBusy(true);
    // The identifier is fixed before the first attempt, so a retry after an unclear failure
    // (no confirmation, yet a relay may have it) replaces the same article instead of adding one.
    const identifier = draft.identifier || makeIdentifier(draft.title, draft.suffix);
    const fixed = { ...draft, identifier };
    if (!draft.identifier) setDraft(fixed);
    await saver.flush();
    let outcome: PublishOutcome = 'failed';
    try {
      const api = await fullApi();
      const result = await api.publish(buildArticleEvent(fixed, Math.floor(Date.now() / 1000)));
      outcome = result.success ? 'published' : result.outcome;
    } catch {
      outcome = 'failed';
    }
    if (outcome !== 'published') {
      setBusy(false);
      toastError(t(FAILURE[outcome]));
      return;
    }
    await saver.finish();
    toastSuccess(t(editing ? 'publish.updated' : 'publish.published'));
    navigate(`/a/${naddrEncode({ kind: LONG_FORM_KIND, pubkey, identifier })}`);
  };

  const discard = async () => {
    const ok = await confirmDialog({
      title: t('draft.discardTitle'),
      message: t(editing ? 'draft.discardEdit' : 'draft.discardNew'),
      confirmLabel: t('draft.discardConfirm'),
      danger: true,
    });
    if (!ok) return;
    setShowRestored(false);
    setAttempted(false);
    setDraft(base ? { ...base } : emptyDraft(randomSuffix()));
  };

  const canDiscard = editing ? showRestored || saver.state !== 'idle' : saver.state !== 'idle';
  const words = countWords(draft.content);
  return (
    <div className="reads-editor">
      {showRestored && <p className="editor-restored">{t('draft.restored')}</p>}

      <TabStrip
        tabs={VIEWS}
        selected={view}
        onSelect={setView}
        label={t('view.label')}
        className="editor-view-tabs"
        tabClassName="tab editor-view-tab"
        tabId={(v) => `editor-tab-${v}`}
        panelId={(v) => `editor-pane-${v}`}
      >
        {(v) => t(`view.${v}`)}
      </TabStrip>

      <div className="editor-panes" data-view={view}>
        <div className="editor-pane editor-pane-write" id="editor-pane-write" role="tabpanel" aria-labelledby="editor-tab-write">
          <div className="form-field">
            <label htmlFor="editor-title">{t('fields.title')}</label>
            <input
              ref={titleInput}
              id="editor-title"
              className="form-input editor-title-input"
              value={draft.title}
              placeholder={t('fields.titlePlaceholder')}
              aria-invalid={errors.title ? true : undefined}
              aria-describedby={errors.title ? 'editor-title-error' : undefined}
              aria-required="true"
              onChange={(e) => update({ title: e.target.value })}
            />
            {errors.title && (
              <p className="form-error" id="editor-title-error">
                {message('title')}
              </p>
            )}
          </div>
          <div className="form-field">
            <label htmlFor="editor-summary">{t('fields.summary')}</label>
            <textarea
              id="editor-summary"
              className="form-textarea editor-summary"
              rows={2}
              value={draft.summary}
              placeholder={t('fields.summaryPlaceholder')}
              aria-describedby="editor-summary-hint"
              onChange={(e) => update({ summary: e.target.value })}
            />
            <p className="form-hint" id="editor-summary-hint">
              {t('fields.summaryHint')}
            </p>
          </div>
          <div ref={coverInput}>
            <CoverField value={draft.image} onChange={(image) => update({ image })} error={message('image')} />
          </div>
          <TopicInput topics={draft.topics} onChange={(topics) => update({ topics })} />
          <MarkdownEditor ref={body} value={draft.content} onChange={(content) => update({ content })} error={message('content')} />
        </div>
        <div className="editor-pane editor-pane-preview" id="editor-pane-preview" role="tabpanel" aria-labelledby="editor-tab-preview">
          {/* Beside the form the tabs are gone; this says what the right column is. */}
          <p className="editor-preview-caption" aria-hidden="true">
            {t('view.preview')}
          </p>
          <ArticlePreview fields={draft} />
        </div>
      </div>
      <div className="editor-bar">
        <p className="editor-save-state" role="status">
          {saver.state === 'saving' ? t('draft.saving') : saver.state === 'saved' ? t('draft.saved') : ''}
        </p>
        {errorCount > 0 && (
          <p className="form-error editor-error-summary" role="alert">
            {t('errors.summary', { count: errorCount })}
          </p>
        )}
        <span className="editor-words">{t('words', { count: words })}</span>
        {canDiscard && (
          <button type="button" className="button button-secondary editor-discard" onClick={discard} disabled={busy} title={t('draft.discard')}>
            <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true" focusable="false">
              <path d="M4 7h16M9 7V4.5h6V7M6.5 7l1 13h9l1-13M10 11v6M14 11v6" />
            </svg>
            <span className="editor-discard-text">{t('draft.discard')}</span>
          </button>
        )}
        <button type="button" className="button editor-publish" onClick={publish} disabled={busy}>
          {busy ? t('publish.publishing') : t(editing ? 'publish.update' : 'publish.publish')}
        </button>
      </div>
    </div>
  );
}
