import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { safeImage } from '../../lib/markdown';
import { mediaUrl } from '../../lib/media';
import { UploadStatus } from './UploadStatus';
import { useImageUpload } from './useImageUpload';
import { ImageFileInput } from './ImageFileInput';

interface CoverFieldProps {
  value: string;
  onChange: (url: string) => void;
  error?: string;
}

/** The cover image: an address typed in, or an uploaded image, with a small preview. */
export function CoverField({ value, onChange, error }: CoverFieldProps) {
  const { t } = useTranslation('editor');
  const fileInput = useRef<HTMLInputElement>(null);
  const { progress, start, cancel } = useImageUpload((url) => onChange(url));
  const preview = value.trim() ? safeImage(value, (u) => mediaUrl(u, 'm')) : null;
  const [broken, setBroken] = useState<string | null>(null);
  const describedBy = error ? 'editor-cover-error' : 'editor-cover-hint';

  return (
    <div className="form-field editor-cover">
      <label htmlFor="editor-cover">{t('fields.cover')}</label>
      <div className="editor-cover-row">
        <input
          id="editor-cover"
          className="form-input"
          type="url"
          inputMode="url"
          value={value}
          placeholder={t('fields.coverPlaceholder')}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value)}
        />
        <button type="button" className="button button-secondary" onClick={() => fileInput.current?.click()} disabled={progress !== null}>
          {t('fields.coverUpload')}
        </button>
        <ImageFileInput ref={fileInput} onFile={start} />
      </div>
      {progress && <UploadStatus progress={progress} onCancel={cancel} />}
      {error ? (
        <p className="form-error" id="editor-cover-error">
          {error}
        </p>
      ) : (
        <p className="form-hint" id="editor-cover-hint">
          {t('fields.coverHint')}
        </p>
      )}
      {preview && broken !== preview && (
        <div className="editor-cover-preview">
          <img src={preview} alt={t('fields.coverAlt')} onError={() => setBroken(preview)} />
          <button type="button" className="button button-secondary" onClick={() => onChange('')}>
            {t('fields.coverRemove')}
          </button>
        </div>
      )}
    </div>
  );
}
