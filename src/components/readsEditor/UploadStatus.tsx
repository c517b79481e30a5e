import { useTranslation } from 'react-i18next';
import type { UploadProgress } from './useImageUpload';

/** A running upload: its progress bar and the cancel button. */
export function UploadStatus({ progress, onCancel }: { progress: UploadProgress; onCancel: () => void }) {
  const { t } = useTranslation('editor');
  const percent = Math.round(progress.fraction * 100);
  const label = t('upload.progress', { name: progress.name, percent });
  return (
    <div className="editor-upload" role="status">
      <progress max={100} value={percent} aria-label={label} />
      <span className="editor-upload-text">{label}</span>
      <button type="button" className="button button-secondary editor-upload-cancel" onClick={onCancel}>
        {t('upload.cancel')}
      </button>
    </div>
  );
}
