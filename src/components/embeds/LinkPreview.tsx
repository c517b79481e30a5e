import { useLayoutEffect, useRef, useState } from 'react';
import { mediaUrl } from '../../lib/media';
import { NOTE_NS, useCardT } from '../../lib/noteI18n';
import { config } from '../../worker-client';
import { useRequest } from '../../lib/useWorkerRequest';

interface Preview {
  title: string;
  description: string;
  image: string;
}

/** Spec §9: a title taller than this (two lines or more) leaves room for less description. */
const TITLE_HEIGHT_LIMIT = 25;
const IMAGE_RETRIES = 3;
const LINK_TEXT_MAX = 42;

// One request per URL for the life of the tab, shared by every card that shows it.
const previews = new Map<string, Promise<Preview | null>>();

function text(value: unknown, max: number): string {
  return typeof value === 'string' ? value.trim().slice(0, max) : '';
}

function safeImage(value: unknown): string {
  if (typeof value !== 'string') return '';
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : '';
  } catch {
    return '';
  }
}

function loadPreview(url: string): Promise<Preview | null> {
  let pending = previews.get(url);
  if (!pending) {
    pending = fetch(`${config.mediaServer}/link-preview?u=${encodeURIComponent(url)}`)
      .then((res) => (res.ok ? (res.json() as Promise<Record<string, unknown>>) : null))
      .then((json) => {
        if (!json) return null;
        const preview = { title: text(json.title, 300), description: text(json.description, 600), image: safeImage(json.image) };
        return preview.title ? preview : null;
      })
      .catch(() => null);
    previews.set(url, pending);
  }
  return pending;
}

export function linkText(url: string): string {
  const bare = url.replace(/^https?:\/\//, '').replace(/\/$/, '');
  return bare.length > LINK_TEXT_MAX ? `${bare.slice(0, LINK_TEXT_MAX - 1)}…` : bare;
}

export function PlainLink({ url }: { url: string }) {
  return (
    <a className="note-link" href={url} target="_blank" rel="noopener noreferrer">
      {linkText(url)}
    </a>
  );
}

function PreviewImage({ src, alt }: { src: string; alt: string }) {
  const [attempt, setAttempt] = useState(0);
  if (attempt > IMAGE_RETRIES) return null;
  const url = mediaUrl(src, 'm') + (attempt ? `&retry=${attempt}` : '');
  return (
    <img
      key={attempt}
      className="link-preview-image"
      src={url}
      alt={alt}
      loading="lazy"
      decoding="async"
      onError={() => setAttempt((n) => n + 1)}
    />
  );
}

/** A link's preview card (title, description, origin) once the server has one; a plain link until then. */
export function LinkPreview({ url }: { url: string }) {
  const { t } = useCardT(NOTE_NS);
  const preview = useRequest(() => loadPreview(url), [url]).data ?? null;
  const [tallTitle, setTallTitle] = useState(false);
  const titleRef = useRef<HTMLSpanElement>(null);

  useLayoutEffect(() => {
    if (titleRef.current) setTallTitle(titleRef.current.offsetHeight > TITLE_HEIGHT_LIMIT);
  }, [preview]);

  if (!preview) return <PlainLink url={url} />;
  let origin = url;
  try {
    origin = new URL(url).hostname.replace(/^www\./, '');
  } catch {
    origin = url;
  }
  return (
    <a className={`link-preview${tallTitle ? ' link-preview-tall-title' : ''}`} href={url} target="_blank" rel="noopener noreferrer">
      {preview.image && <PreviewImage src={preview.image} alt={t('link.previewImage', { title: preview.title })} />}
      <span className="link-preview-text">
        <span className="link-preview-title" ref={titleRef}>
          {preview.title}
        </span>
        {preview.description && <span className="link-preview-description">{preview.description}</span>}
        <span className="link-preview-origin">
          {origin}
          <span className="visually-hidden"> {t('link.opensInNewTab')}</span>
        </span>
      </span>
    </a>
  );
}
