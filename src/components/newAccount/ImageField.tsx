/**
 * One image of the profile (avatar or banner): choose a file, watch the upload's progress,
 * cancel it, replace or remove the result. Errors say what went wrong in Hungarian.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isMediaFile, uploadFile, UploadError, type UploadHandle } from '../../lib/upload';

interface Props {
  label: string;
  value: string;
  kind: 'avatar' | 'banner';
  onChange: (url: string) => void;
}

export function ImageField({ label, value, kind, onChange }: Props) {
  const { t } = useTranslation('login');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const handle = useRef<UploadHandle | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  // Leaving the step (or the page) stops an upload nobody will see finish.
  useEffect(() => () => handle.current?.cancel(), []);

  const start = (file: File) => {
    setError(null);
    // The profile takes images only, although the server would also take videos.
    if (!isMediaFile(file) || !file.type.startsWith('image/')) return setError(t('profile.unsupported'));
    handle.current?.cancel();
    const upload = uploadFile(file, (f) => setProgress(f));
    handle.current = upload;
    setProgress(0);
    upload.promise
      .then((blob) => onChange(blob.url))
      .catch((err: unknown) => {
        const code = err instanceof UploadError ? err.code : 'failed';
        if (code === 'cancelled') setError(t('profile.uploadCancelled'));
        else if (code === 'unsupported') setError(t('profile.unsupported'));
        else if (code === 'too-big') setError(t('profile.tooBig'));
        else if (code === 'not-signed') setError(t('profile.notSigned'));
        else setError(err instanceof UploadError && err.reason ? err.reason : t('profile.uploadFailed', { name: file.name }));
      })
      .finally(() => {
        if (handle.current === upload) handle.current = null;
        setProgress(null);
        if (input.current) input.current.value = '';
      });
  };

  const uploading = progress !== null;
  const percent = Math.round((progress ?? 0) * 100);

  return (
    <div className={`form-field image-field image-field-${kind}`}>
      <span id={`${id}-label`}>{label}</span>
      <div className="image-field-row">
        <div className="image-field-preview" aria-hidden={value ? undefined : true}>
          {value && <img src={value} alt={`${label} – ${t('profile.preview')}`} />}
        </div>
        <div className="image-field-actions">
          <input
            ref={input}
            id={`${id}-file`}
            hidden
            type="file"
            accept="image/*"
            aria-labelledby={`${id}-label`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) start(file);
            }}
            disabled={uploading}
          />
          {!uploading && (
            <button type="button" className="button button-secondary" aria-describedby={`${id}-label`} onClick={() => input.current?.click()}>
              {value ? t('profile.replace') : t('profile.choose')}
            </button>
          )}
          {!uploading && value && (
            <button type="button" className="button button-secondary" onClick={() => onChange('')}>
              {t('profile.remove')}
            </button>
          )}
          {uploading && (
            <>
              <progress className="image-field-progress" max={100} value={percent} aria-labelledby={`${id}-label`} />
              <span className="form-hint" role="status">
                {t('profile.uploading', { percent })}
              </span>
              <button type="button" className="button button-secondary" onClick={() => handle.current?.cancel()}>
                {t('profile.cancelUpload')}
              </button>
            </>
          )}
        </div>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
