import { config } from '../worker-client';

/** Variants the media cache serves: small, medium, large or original. */
export type MediaSize = 's' | 'm' | 'l' | 'o';

/** Every image goes through the media cache so the page never talks to third-party hosts. */
export function mediaUrl(url: string, size: MediaSize = 'o', animated = true): string {
  const params = new URLSearchParams({ s: size, a: animated ? '1' : '0', u: url });
  return `${config.mediaServer}/media-cache?${params.toString()}`;
}
