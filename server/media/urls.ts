/**
 * Which URLs of an event are media (shown as images or videos) and which are links (shown as
 * previews). Used at import by the media indexer, so the bundle and the media cache only read rows.
 */
import type { NostrEvent } from '../context.ts';
import { AVATAR_SIZE, BANNER_SIZE, COVER_SIZE, DEMO_MEDIA_DOMAIN, imageSize, type Size } from '../demo/media-urls.ts';

/** Longer URLs are junk or abuse; they are neither stored nor fetched. */
export const MAX_URL_LENGTH = 2000;
/** An event with hundreds of URLs is spam; the first ones are enough for rendering. */
const MAX_URLS_PER_EVENT = 20;

const IMAGE_EXT = /\.(jpe?g|png|gif|webp|avif|svg|bmp|heic)$/i;
const VIDEO_EXT = /\.(mp4|webm|mov|m4v|ogv)$/i;
const URL_IN_TEXT = /https?:\/\/[^\s<>"'`]+/gi;
/** Punctuation that usually ends the sentence around a URL rather than the URL itself. */
const TRAILING = /[.,;:!?)\]}]+$/;

/** A clean absolute http(s) URL, or null. */
export function normaliseUrl(raw: string): string | null {
  if (raw.length > MAX_URL_LENGTH) return null;
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if (!u.hostname) return null;
    return u.href;
  } catch {
    return null;
  }
}

export function isMediaUrl(url: string): boolean {
  try {
    const path = new URL(url).pathname;
    return IMAGE_EXT.test(path) || VIDEO_EXT.test(path);
  } catch {
    return false;
  }
}

export function urlsInText(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(URL_IN_TEXT)) {
    const url = normaliseUrl(m[0].replace(TRAILING, ''));
    if (url) out.push(url);
  }
  return out;
}

export interface EventUrls {
  media: string[];
  links: string[];
}

function profileUrls(content: string): string[] {
  try {
    const meta = JSON.parse(content) as Record<string, unknown>;
    const out: string[] = [];
    for (const key of ['picture', 'banner']) {
      const v = meta[key];
      const url = typeof v === 'string' ? normaliseUrl(v.trim()) : null;
      if (url) out.push(url);
    }
    return out;
  } catch {
    // A profile with broken JSON simply has no pictures.
    return [];
  }
}

/** NIP-92 imeta tags name media explicitly, whatever their extension. */
function imetaUrls(tags: string[][]): string[] {
  const out: string[] = [];
  for (const t of tags) {
    if (t[0] !== 'imeta') continue;
    for (const part of t.slice(1)) {
      if (!part.startsWith('url ')) continue;
      const url = normaliseUrl(part.slice(4).trim());
      if (url) out.push(url);
    }
  }
  return out;
}

/** Media and link URLs of kinds 0, 1 and 30023 (reposts carry theirs in the reposted event). */
export function eventUrls(ev: NostrEvent): EventUrls {
  const media = new Set<string>();
  const links = new Set<string>();
  if (ev.kind === 0) {
    for (const u of profileUrls(ev.content)) media.add(u);
  } else if (ev.kind === 1 || ev.kind === 30023) {
    for (const u of imetaUrls(ev.tags)) media.add(u);
    if (ev.kind === 30023) {
      const image = ev.tags.find((t) => t[0] === 'image')?.[1];
      const url = image ? normaliseUrl(image) : null;
      if (url) media.add(url);
    }
    for (const u of urlsInText(ev.content)) (isMediaUrl(u) ? media : links).add(u);
  }
  return { media: [...media].slice(0, MAX_URLS_PER_EVENT), links: [...links].filter((u) => !media.has(u)).slice(0, MAX_URLS_PER_EVENT) };
}

/**
 * Hosts whose images the server draws itself. Process-wide because the importer has no config;
 * each server adds its configured media domain when its HTTP handler is created.
 */
const demoHosts = new Set([DEMO_MEDIA_DOMAIN]);

export function addDemoMediaHost(host: string): void {
  demoHosts.add(host.toLowerCase());
}

export function isDemoMediaHost(host: string): boolean {
  return demoHosts.has(host.toLowerCase());
}

/** Natural size of a demo image URL, or null when the URL is not one. */
export function demoUrlSize(url: string): Size | null {
  try {
    const u = new URL(url);
    return isDemoMediaHost(u.hostname) ? demoMediaSize(u.pathname) : null;
  } catch {
    return null;
  }
}

/** Natural size of a demo-network image, known from its path alone (server/demo/media.ts draws it). */
export function demoMediaSize(pathname: string): Size | null {
  const m = /^\/(avatar|banner|img|cover)\/([0-9a-f]{1,64})\.svg$/.exec(pathname);
  if (!m) return null;
  switch (m[1]) {
    case 'avatar':
      return AVATAR_SIZE;
    case 'banner':
      return BANNER_SIZE;
    case 'cover':
      return COVER_SIZE;
    default: {
      const n = Number(m[2]);
      return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? imageSize(n) : null;
    }
  }
}
