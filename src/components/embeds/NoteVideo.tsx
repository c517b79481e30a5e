import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mediaUrl } from '../../lib/media';
import { NOTE_NS } from '../../lib/noteI18n';

/** Half the video on screen counts as watching it. */
const VISIBLE = 0.5;

/** A muted inline video that plays while visible and pauses once scrolled away. */
export function NoteVideo({ url }: { url: string }) {
  const { t } = useTranslation(NOTE_NS);
  const ref = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const video = ref.current;
    if (!video || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry.isIntersecting && entry.intersectionRatio >= VISIBLE) {
          // Autoplay can be refused (battery saver, policy); the controls stay usable.
          video.play().catch(() => undefined);
        } else if (!video.paused) {
          video.pause();
        }
      },
      { threshold: [0, VISIBLE, 1] },
    );
    observer.observe(video);
    return () => observer.disconnect();
  }, [failed]);

  if (failed) {
    return (
      <a className="note-image-failed" href={url} target="_blank" rel="noopener noreferrer">
        {t('video.failed')}
      </a>
    );
  }
  return (
    <video
      ref={ref}
      className="note-video"
      src={mediaUrl(url, 'o')}
      aria-label={t('video.label')}
      muted
      playsInline
      loop
      controls
      preload="metadata"
      onError={() => setFailed(true)}
    />
  );
}
