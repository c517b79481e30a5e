import { useState, type SyntheticEvent } from 'react';
import { useCardT } from '../lib/noteI18n';
import { mediaUrl } from '../lib/media';

const TALL_RATIO = 0.8;

/**
 * Spec §9: width 538 by default and never taller than 680. Portrait images up to a 0.8
 * width/height ratio get the full 680 px box; anything squarer keeps its natural height.
 */
export function NoteImage({ url }: { url: string }) {
  const { t } = useCardT();
  const [shape, setShape] = useState<'unknown' | 'tall' | 'natural'>('unknown');
  const [failed, setFailed] = useState(false);
  const onLoad = (event: SyntheticEvent<HTMLImageElement>) => {
    const { naturalWidth: w, naturalHeight: h } = event.currentTarget;
    setShape(h > 0 && w / h <= TALL_RATIO ? 'tall' : 'natural');
  };
  if (failed) {
    return (
      <a className="note-image-failed" href={url} target="_blank" rel="noopener noreferrer">
        {t('note.imageFailed')}
      </a>
    );
  }
  return (
    <a className={`note-image note-image-${shape}`} href={mediaUrl(url, 'o')} target="_blank" rel="noopener noreferrer">
      <img
        src={mediaUrl(url, 'm')}
        alt={t('note.imageAlt')}
        width={538}
        loading="lazy"
        decoding="async"
        onLoad={onLoad}
        onError={() => setFailed(true)}
      />
    </a>
  );
}
