/**
 * An image URL field with upload (progress and cancel, spec §4 Media upload) and a preview: the
 * profile editor's avatar and banner. The URL stays editable by hand; an upload fills it in.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../lib/toast';
import { PREMIUM_LIMIT, uploadFile, uploadLimit, UploadError, type UploadHandle } from '../../lib/upload';
import { SETTINGS_NS } from './i18n';

export interface ImageFieldProps {
  /** The text input's id (the form focuses it when the URL is invalid). */
  id: string;
  label: string;
  variant: 'avatar' | 'banner';
  value: string;
  error?: string;
  onChange: (url: string) => void;
  onBlur?: () => void;
  /** True while an upload runs, so the form can wait for it before saving. */
  onBusyChange?: (busy: boolean) => void;
}

type Status = { kind: 'idle' } | { kind: 'uploading'; fraction: number; name: string } | { kind: 'done' } | { kind: 'cancelled' };

const looksLikeUrl = (v: string) => /^https?:\/\/\S+$/i.test(v.trim());

export function ImageField({ id, label, variant, value, error, onChange, onBlur, onBusyChange }: ImageFieldProps) {
  const { t } = useTranslation(SETTINGS_NS);
  const fileRef = useRef<HTMLInputElement>(null);
  const handle = useRef<UploadHandle | null>(null);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [broken, setBroken] = useState(false);
  const errorId = useId();
  const statusId = useId();

  // A page left mid-upload must not keep sending the file.
  useEffect(() => () => handle.current?.cancel(), []);
  useEffect(() => setBroken(false), [value]);

  const busy = status.kind === 'uploading';
  useEffect(() => onBusyChange?.(busy), [busy, onBusyChange]);

  const start = (file: File) => {
    handle.current?.cancel();
    const upload = uploadFile(file, (fraction) => setStatus((s) => (s.kind === 'uploading' ? { ...s, fraction } : s)));
    handle.current = upload;
    setStatus({ kind: 'uploading', fraction: 0, name: file.name });
    upload.promise.then(
      (blob) => {
        if (handle.current !== upload) return;
        handle.current = null;
        setStatus({ kind: 'done' });
        onChange(blob.url);
      },
      (err: unknown) => {
        if (handle.current !== upload) return;
        handle.current = null;
        const code = err instanceof UploadError ? err.code : 'failed';
        if (code === 'cancelled') {
          setStatus({ kind: 'cancelled' });
          return;
        }
        setStatus({ kind: 'idle' });
        if (code === 'unsupported') toastError(t('upload.unsupported'));
        else if (code === 'too-big') toastError(t('upload.tooBig', { limit: uploadLimit() >= PREMIUM_LIMIT ? '1 GB' : '100 MB' }));
        else if (code === 'not-signed') toastError(t('upload.notSigned'));
        else toastError(t('upload.failed', { name: file.name }));
      },
    );
  };

  const cancel = () => {
    handle.current?.cancel();
  };

  const percent = status.kind === 'uploading' ? Math.round(status.fraction * 100) : 0;
  const describedBy = [error ? errorId : '', status.kind !== 'idle' ? statusId : ''].filter(Boolean).join(' ') || undefined;
  const showPreview = looksLikeUrl(value) && !broken;

  return (
    <div className={`form-field image-field image-field-${variant}`}>
      <label htmlFor={id}>{label}</label>
      <div className="image-field-body">
        <div className={`image-field-preview image-field-preview-${variant}`}>
          {showPreview ? (
            <img src={value.trim()} alt={t('upload.preview', { label })} onError={() => setBroken(true)} />
          ) : (
            <span className="image-field-empty" aria-hidden="true" />
          )}
        </div>
        <div className="image-field-controls">
          <input
            id={id}
            className="form-input"
            type="text"
            inputMode="url"
            autoComplete="url"
            placeholder="https://"
            value={value}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            onChange={(e) => onChange(e.currentTarget.value)}
            onBlur={onBlur}
          />
          <div className="image-field-actions">
            <input
              ref={fileRef}
              type="file"
              accept="image/*"
              hidden
              data-testid={`${variant}-file`}
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                // Choosing the same file again must fire change again.
                e.currentTarget.value = '';
                if (file) start(file);
              }}
            />
            <button type="button" className="button button-secondary" aria-label={t('upload.chooseLabel', { label })} disabled={busy} onClick={() => fileRef.current?.click()}>
              {t('upload.choose')}
            </button>
            {value && !busy && (
              <button type="button" className="button button-secondary" aria-label={t('upload.removeLabel', { label })} onClick={() => onChange('')}>
                {t('upload.remove')}
              </button>
            )}
            {busy && (
              <button type="button" className="button button-secondary" aria-label={t('upload.cancelLabel', { label })} onClick={cancel}>
                {t('upload.cancel')}
              </button>
            )}
          </div>
          {busy && (
            <progress className="image-field-progress" max={100} value={percent} aria-label={t('upload.progress', { percent })} />
          )}
          <p id={statusId} className="form-hint" role="status">
            {status.kind === 'uploading' ? t('upload.progress', { percent }) : status.kind === 'cancelled' ? t('upload.cancelled') : status.kind === 'done' ? t('upload.done') : ''}
          </p>
          {error && (
            <p id={errorId} className="form-error">
              {error}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
