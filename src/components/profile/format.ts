/** Pure helpers of the profile page, kept apart from the components so they are unit-tested. */
import type { FeedNote } from '../../../core/types';

/** A website field as a link only when it is http(s); a bare domain gets https. */
export function websiteHref(raw: string): string | null {
  const text = raw.trim();
  if (!text) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  try {
    const url = new URL(withScheme);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

export function formatJoinDate(seconds: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long' }).format(new Date(seconds * 1000));
}

const VIDEO_EXT = /\.(?:mp4|webm|ogg|mov)(?:$|[?#])/i;
const IMAGE_EXT = /\.(?:jpe?g|png|gif|webp|avif|svg)(?:$|[?#])/i;

export interface MediaItem {
  url: string;
  video: boolean;
  note: FeedNote;
}

/** Images and videos of the notes: imeta urls first, then media links in the text, each once. */
export function mediaOf(notes: FeedNote[]): MediaItem[] {
  const seen = new Set<string>();
  const out: MediaItem[] = [];
  const add = (url: string, note: FeedNote, mime?: string) => {
    if (seen.has(url) || !/^https?:\/\//i.test(url)) return;
    const video = mime ? mime.startsWith('video/') : VIDEO_EXT.test(url);
    if (!video && !(mime?.startsWith('image/') || IMAGE_EXT.test(url))) return;
    seen.add(url);
    out.push({ url, video, note });
  };
  for (const note of notes) {
    for (const tag of note.event.tags) {
      if (tag[0] !== 'imeta') continue;
      const fields = new Map(tag.slice(1).map((f) => [f.split(' ')[0], f.slice(f.indexOf(' ') + 1)] as const));
      const url = fields.get('url');
      if (url) add(url, note, fields.get('m'));
    }
    for (const m of note.event.content.matchAll(/https?:\/\/[^\s<>"]+/g)) add(m[0].replace(/[.,;:!?)]+$/, ''), note);
  }
  return out;
}

