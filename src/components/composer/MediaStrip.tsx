import { useTranslation } from 'react-i18next';
import type { UploadControls } from './useUploads';

/** Uploads on their way (progress bar and cancel) and the media already in the text (thumbnail, remove). */
export function MediaStrip({ uploads, text, onRemove }: { uploads: UploadControls; text: string; onRemove: (url: string) => void }) {
  const { t } = useTranslation('composer');
  // A URL the writer deleted from the text by hand is no longer attached.
  const attached = uploads.attached.filter((a) => text.includes(a.url));
  if (uploads.rows.length === 0 && attached.length === 0) return null;
  return (
    <div className="composer-media">
      {uploads.rows.map((row) => {
        const percent = Math.round(row.progress * 100);
        return (
          <div key={row.id} className="composer-upload" data-upload={row.name}>
            <span className="composer-upload-name">{t('media.uploading', { name: row.name })}</span>
            <progress max={100} value={percent} aria-label={t('media.progress', { name: row.name, percent })} />
            <button
              type="button"
              className="composer-icon-button"
              onClick={() => uploads.cancel(row.id)}
              aria-label={t('media.cancel', { name: row.name })}
              title={t('media.cancel', { name: row.name })}
            >
              <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true" focusable="false">
                <path d="M18 6 6 18M6 6l12 12" />
              </svg>
            </button>
          </div>
        );
      })}
      {attached.length > 0 && (
        <ul className="composer-thumbs" aria-label={t('media.attached')}>
          {attached.map((a) => (
            <li key={a.url} className="composer-thumb">
              {a.type.startsWith('video/') ? (
                <video src={a.url} muted playsInline preload="metadata" />
              ) : (
                <img src={a.url} alt={t('media.imageAlt')} />
              )}
              <button
                type="button"
                className="composer-thumb-remove"
                onClick={() => {
                  uploads.forget(a.url);
                  onRemove(a.url);
                }}
                aria-label={t('media.remove')}
                title={t('media.remove')}
              >
                <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" aria-hidden="true" focusable="false">
                  <path d="M18 6 6 18M6 6l12 12" />
                </svg>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
