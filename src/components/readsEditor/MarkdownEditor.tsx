import { forwardRef, useImperativeHandle, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { applyFormat, insertImage, type Edit, type FormatAction } from './formatting';
import { UploadStatus } from './UploadStatus';
import { useImageUpload } from './useImageUpload';
import { ImageFileInput } from './ImageFileInput';

interface MarkdownEditorProps {
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

export interface MarkdownEditorHandle {
  focus(): void;
}

const svg = (d: string) => (
  <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
    <path d={d} />
  </svg>
);

const ACTIONS: { action: FormatAction; glyph: ReactNode; shortcut?: string }[] = [
  { action: 'heading', glyph: 'H' },
  { action: 'bold', glyph: 'B', shortcut: 'b' },
  { action: 'italic', glyph: 'I', shortcut: 'i' },
  { action: 'link', glyph: svg('M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1'), shortcut: 'k' },
  { action: 'quote', glyph: svg('M5 17h4v-4H6c0-3 1-4 3-5M15 17h4v-4h-3c0-3 1-4 3-5') },
  { action: 'list', glyph: svg('M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01') },
  { action: 'code', glyph: svg('m8 8-4 4 4 4M16 8l4 4-4 4M13.5 5l-3 14') },
];

/** The Markdown body: a plain textarea (native undo, spell check, mobile keyboards) with a small toolbar. */
export const MarkdownEditor = forwardRef<MarkdownEditorHandle, MarkdownEditorProps>(function MarkdownEditor({ value, onChange, error }, ref) {
  const { t } = useTranslation('editor');
  const area = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  useImperativeHandle(ref, () => ({ focus: () => area.current?.focus() }), []);

  /** Puts the edit in through the browser's editing so Ctrl+Z takes it back. */
  const apply = (edit: Edit) => {
    const el = area.current;
    if (!el) return onChange(edit.text);
    const scroll = el.scrollTop;
    el.focus();
    el.select();
    // execCommand is deprecated but still the only way to keep the browser's undo history.
    const native = document.execCommand?.('insertText', false, edit.text);
    if (!native || el.value !== edit.text) el.value = edit.text;
    onChange(edit.text);
    el.setSelectionRange(edit.start, edit.end);
    el.scrollTop = scroll;
  };

  const format = (action: FormatAction) => {
    const el = area.current;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    const placeholder = action === 'link' ? t('toolbar.placeholderLink') : action === 'code' ? t('toolbar.placeholderCode') : t('toolbar.placeholderText');
    apply(applyFormat(value, start, end, action, placeholder));
  };

  const { progress, start, cancel } = useImageUpload((url, file) => {
    const el = area.current;
    const current = el?.value ?? value;
    const at = el?.selectionEnd ?? current.length;
    const alt = file.name.replace(/\.[^.]+$/, '') || t('toolbar.imageAlt');
    apply(insertImage(current, at, at, url, alt));
  });

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const hit = ACTIONS.find((a) => a.shortcut === event.key.toLowerCase());
    if (!hit) return;
    event.preventDefault();
    format(hit.action);
  };

  const describedBy = error ? 'editor-body-error' : 'editor-body-hint';
  return (
    <div className="form-field editor-body-field">
      <label htmlFor="editor-body">{t('fields.body')}</label>
      <div className="editor-toolbar" role="toolbar" aria-label={t('toolbar.label')} aria-controls="editor-body">
        {ACTIONS.map(({ action, glyph, shortcut }) => (
          <button
            key={action}
            type="button"
            className={`editor-tool editor-tool-${action}`}
            title={shortcut ? `${t(`toolbar.${action}`)} (Ctrl+${shortcut.toUpperCase()})` : t(`toolbar.${action}`)}
            aria-label={t(`toolbar.${action}`)}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => format(action)}
          >
            {typeof glyph === 'string' ? <span aria-hidden="true">{glyph}</span> : glyph}
          </button>
        ))}
        <button
          type="button"
          className="editor-tool editor-tool-image"
          title={t('toolbar.image')}
          aria-label={t('toolbar.image')}
          disabled={progress !== null}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => fileInput.current?.click()}
        >
          <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true" focusable="false">
            <rect x="3.5" y="4.5" width="17" height="15" rx="2" />
            <circle cx="9" cy="10" r="1.8" />
            <path d="m4 18 5.5-5.5 4 4 2.5-2.5 4.5 4.5" />
          </svg>
        </button>
        <ImageFileInput ref={fileInput} onFile={start} />
      </div>
      {progress && <UploadStatus progress={progress} onCancel={cancel} />}
      <textarea
        ref={area}
        id="editor-body"
        className="form-textarea editor-body"
        value={value}
        placeholder={t('fields.bodyPlaceholder')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        spellCheck
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
      />
      {error ? (
        <p className="form-error" id="editor-body-error">
          {error}
        </p>
      ) : (
        <p className="form-hint" id="editor-body-hint">
          {t('fields.bodyHint')}
        </p>
      )}
    </div>
  );
});
