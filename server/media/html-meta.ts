/**
 * A small, tolerant reader of the metadata a link preview needs: OpenGraph, Twitter cards,
 * <title>, the description meta tag and the icon link. It never builds a DOM; it scans tags
 * with regular expressions, so broken markup only loses fields and never throws.
 */
import { MAX_URL_LENGTH } from './urls.ts';

export interface PageMeta {
  title: string;
  description: string;
  image: string;
  icon_url: string;
}

const MAX_TITLE = 300;
const MAX_DESCRIPTION = 1000;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x') || lower.startsWith('#')) {
      const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[lower] ?? whole;
  });
}

function clean(text: string, max: number): string {
  const t = decodeEntities(text).replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

const ATTR = /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  // Skip the tag name itself.
  const body = tag.replace(/^<\s*[a-z]+/i, '').replace(/\/?>$/, '');
  for (const m of body.matchAll(ATTR)) {
    const name = m[1].toLowerCase();
    if (!out.has(name)) out.set(name, m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

/** The charset named by a Content-Type header or a <meta charset> / http-equiv tag. */
export function detectCharset(contentType: string, head: string): string {
  const fromHeader = /charset=["']?([\w-]+)/i.exec(contentType)?.[1];
  if (fromHeader) return fromHeader.toLowerCase();
  const fromMeta = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
  return (fromMeta ?? 'utf-8').toLowerCase();
}

/** Decodes the page with its declared charset (Hungarian sites still use latin2 / windows-1250), utf-8 when unknown. */
export function decodeHtml(body: Buffer, contentType: string): string {
  const ascii = body.subarray(0, 4096).toString('latin1');
  const charset = detectCharset(contentType, ascii);
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function absolute(href: string, base: string): string {
  if (!href) return '';
  try {
    const u = new URL(decodeEntities(href.trim()), base);
    // Longer URLs the media cache refuses anyway; the preview image index (PostgreSQL btree) cannot hold huge ones.
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.href.length <= MAX_URL_LENGTH ? u.href : '';
  } catch {
    return '';
  }
}

/** Extracts preview fields from an HTML page fetched from `baseUrl` (the URL after redirects). */
export function parseHtmlMeta(html: string, baseUrl: string): PageMeta {
  // Everything a preview needs sits in the head; stopping there keeps huge bodies cheap.
  const headEnd = html.search(/<\/head\s*>|<body[\s>]/i);
  const head = (headEnd >= 0 ? html.slice(0, headEnd) : html).replace(/<!--[\s\S]*?-->/g, '');
  const props = new Map<string, string>();
  for (const m of head.matchAll(/<meta\b[^>]*>/gi)) {
    const a = attributes(m[0]);
    const key = (a.get('property') ?? a.get('name') ?? a.get('itemprop') ?? '').toLowerCase();
    const content = a.get('content');
    if (key && content !== undefined && content.trim() && !props.has(key)) props.set(key, content);
  }
  let icon = '';
  for (const m of head.matchAll(/<link\b[^>]*>/gi)) {
    const a = attributes(m[0]);
    const rel = (a.get('rel') ?? '').toLowerCase().split(/\s+/);
    const href = a.get('href');
    if (!href || !(rel.includes('icon') || rel.includes('apple-touch-icon'))) continue;
    const url = absolute(href, baseUrl);
    // A plain "icon" beats apple-touch-icon: it is the small one browsers show in tabs.
    if (url && (!icon || rel.includes('icon'))) {
      icon = url;
      if (rel.includes('icon')) break;
    }
  }
  const titleTag = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(head)?.[1] ?? '';
  const first = (...keys: string[]) => keys.map((k) => props.get(k)).find((v) => v !== undefined) ?? '';
  let fallbackIcon = '';
  try {
    fallbackIcon = new URL('/favicon.ico', baseUrl).href;
  } catch {
    // An unusable base leaves the icon empty.
  }
  return {
    title: clean(first('og:title', 'twitter:title') || titleTag, MAX_TITLE),
    description: clean(first('og:description', 'twitter:description', 'description'), MAX_DESCRIPTION),
    image: absolute(first('og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src'), baseUrl),
    icon_url: icon || fallbackIcon,
  };
}
