import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast, toastError } from '../../lib/toast';
import { UploadError, uploadFile, type UploadHandle } from '../../lib/upload';

export interface UploadProgress {
  name: string;
  /** 0..1 */
  fraction: number;
}

/**
 * One image upload at a time (the cover, or an image in the body) with progress and cancel.
 * Failures become the Hungarian toasts of spec §8; what the person typed is never touched.
 */
export function useImageUpload(onUploaded: (url: string, file: File) => void) {
  const { t } = useTranslation('editor');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const handle = useRef<UploadHandle | null>(null);
  const done = useRef(onUploaded);
  done.current = onUploaded;

  // Leaving the page stops the transfer instead of finishing it for nobody.
  useEffect(() => () => handle.current?.cancel(), []);

  const start = useCallback(
    (file: File) => {
      if (handle.current) return;
      // The body and the cover show pictures; a video would be a broken image.
      if (!file.type.startsWith('image/')) {
        toastError(t('upload.unsupported'));
        return;
      }
      setProgress({ name: file.name, fraction: 0 });
      const upload = uploadFile(file, (fraction) => setProgress({ name: file.name, fraction }));
      handle.current = upload;
      upload.promise
        .then((blob) => done.current(blob.url, file))
        .catch((err: unknown) => {
          const code = err instanceof UploadError ? err.code : 'failed';
          const reason = err instanceof UploadError ? err.reason : undefined;
          if (code === 'cancelled') showToast(t('upload.cancelled'));
          else if (code === 'unsupported') toastError(t('upload.unsupported'));
          else if (code === 'too-big') toastError(t('upload.tooBig'));
          else if (code === 'not-signed') toastError(t('upload.notSigned'));
          else toastError(reason ? t('upload.failedReason', { name: file.name, reason }) : t('upload.failed', { name: file.name }));
        })
        .finally(() => {
          if (handle.current === upload) handle.current = null;
          setProgress(null);
        });
    },
    [t],
  );

  const cancel = useCallback(() => handle.current?.cancel(), []);
  return { progress, start, cancel };
}
