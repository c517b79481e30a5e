/**
 * URLs of the demo network's media. They point at the demo media domain, which the server
 * renders locally (media.ts), so a fresh install shows images without any internet access.
 */
export const DEMO_NIP05_DOMAIN = 'strucc.test';
export const DEMO_MEDIA_DOMAIN = 'media.strucc.test';

export const IMAGE_COUNT = 240;
export const BANNER_COUNT = 24;
export const COVER_COUNT = 96;

export interface Size {
  width: number;
  height: number;
}

/** Every fourth procedural photo is portrait, the rest landscape. */
export function imageSize(n: number): Size {
  return n % 4 === 3 ? { width: 800, height: 1200 } : { width: 1200, height: 800 };
}

export const BANNER_SIZE: Size = { width: 1500, height: 500 };
export const COVER_SIZE: Size = { width: 1200, height: 630 };
export const AVATAR_SIZE: Size = { width: 400, height: 400 };

export function avatarUrl(mediaDomain: string, pubkey: string): string {
  return `https://${mediaDomain}/avatar/${pubkey.slice(0, 8)}.svg`;
}

export function bannerUrl(mediaDomain: string, n: number): string {
  return `https://${mediaDomain}/banner/${n}.svg`;
}

export function imageUrl(mediaDomain: string, n: number): string {
  return `https://${mediaDomain}/img/${n}.svg`;
}

export function coverUrl(mediaDomain: string, n: number): string {
  return `https://${mediaDomain}/cover/${n}.svg`;
}
