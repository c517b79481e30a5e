/**
 * Media uploads of one form: each file gets a progress row with its own cancel button; a finished
 * upload hands its URL to the form (appended to the text) and becomes a thumbnail. Refusals and
 * failures are the spec §8 toasts, naming the file.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../../lib/toast';
import { UploadError, uploadFile, type UploadHandle } from '../../lib/upload';

export interface UploadRow {
  id: number;
  name: string;
  /** 0..1 */
  progress: number;
}

export interface Attached {
  url: string;
  type: string;
}

export interface UploadControls {
  rows: UploadRow[];
  attached: Attached[];
  busy: boolean;
  add: (files: Iterable<File>) => void;
  cancel: (id: number) => void;
  forget: (url: string) => void;
}

let nextId = 1;

export function useUploads(onUploaded: (url: string) => void): UploadControls {
  const { t } = useTranslation('composer');
  const [rows, setRows] = useState<UploadRow[]>([]);
  const [attached, setAttached] = useState<Attached[]>([]);
  const handles = useRef(new Map<number, UploadHandle>());
  const uploaded = useRef(onUploaded);
  uploaded.current = onUploaded;

  // Closing the form stops what is still on its way.
  useEffect(() => {
    const live = handles.current;
    return () => {
      for (const handle of live.values()) handle.cancel();
      live.clear();
    };
  }, []);

  const add = useCallback(
    (files: Iterable<File>) => {
      for (const file of files) {
        const id = nextId++;
        const handle = uploadFile(file, (progress) => setRows((all) => all.map((r) => (r.id === id ? { ...r, progress } : r))));
        handles.current.set(id, handle);
        setRows((all) => [...all, { id, name: file.name, progress: 0 }]);
        handle.promise
          .then((blob) => {
            setAttached((all) => [...all, { url: blob.url, type: blob.type || file.type }]);
            uploaded.current(blob.url);
          })
          .catch((err: unknown) => {
            const code = err instanceof UploadError ? err.code : 'failed';
            const reason = err instanceof UploadError ? err.reason : undefined;
            if (code === 'cancelled') return;
            if (code === 'unsupported') toastError(t('toast.unsupported'));
            else if (code === 'too-big') toastError(t('toast.tooBig'));
            else if (code === 'not-signed') toastError(t('toast.uploadNotSigned', { name: file.name }));
            else toastError(reason ? t('toast.uploadFailedReason', { name: file.name, reason }) : t('toast.uploadFailed', { name: file.name }));
          })
          .finally(() => {
            handles.current.delete(id);
            setRows((all) => all.filter((r) => r.id !== id));
          });
      }
    },
    [t],
  );

  const cancel = useCallback((id: number) => handles.current.get(id)?.cancel(), []);
  const forget = useCallback((url: string) => setAttached((all) => all.filter((a) => a.url !== url)), []);

  return { rows, attached, busy: rows.length > 0, add, cancel, forget };
}
