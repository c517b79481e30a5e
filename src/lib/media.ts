import { config } from '../worker-client';

/** Variants the media cache serves: small, medium, large or original. */
export type MediaSize = 's' | 'm' | 'l' | 'o';

// A feed asks for the same avatars and emoji on every card and every re-render; building a
// URLSearchParams for each showed in the first render's profile.
const built = new Map<string, string>();
const BUILT_MAX = 500;

/** Every image goes through the media cache so the page never talks to third-party hosts. */
export function mediaUrl(url: string, size: MediaSize = 'o', animated = true): string {
  const key = `${size}${animated ? 1 : 0}${url}`;
  let out = built.get(key);
  if (out === undefined) {
    out = `${config.mediaServer}/media-cache?s=${size}&a=${animated ? '1' : '0'}&u=${encodeURIComponent(url)}`;
    if (built.size >= BUILT_MAX) built.clear();
    built.set(key, out);
  }
  return out;
}
