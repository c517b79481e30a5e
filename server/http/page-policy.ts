/**
 * The Content-Security-Policy of the app's own pages. The key lives in our origin's shared worker,
 * so no script may run on our pages but our built bundle and index.html's own inline scripts,
 * which are allowed by hash, computed from the built file each time it is loaded: a rebuild that
 * changes them needs no edit here.
 */
import { createHash } from 'node:crypto';

/** The click-to-load players (src/lib/embeds.ts): the only pages we ever frame. */
const PLAYER_ORIGINS = [
  'https://www.youtube-nocookie.com',
  'https://open.spotify.com',
  'https://player.twitch.tv',
  'https://www.mixcloud.com',
  'https://w.soundcloud.com',
  'https://embed.music.apple.com',
  'https://embed.wavlake.com',
];

/** Inline scripts: a <script> without src whose type runs (none, JavaScript or module). */
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const RUNNABLE_TYPE = /^(|text\/javascript|application\/javascript|module)$/i;

/** 'sha256-…' sources for the inline scripts of an HTML document, as the browser hashes them. */
export function inlineScriptHashes(html: string): string[] {
  const out: string[] = [];
  for (const [, attrs, body] of html.matchAll(SCRIPT)) {
    if (/\bsrc\s*=/i.test(attrs)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]*)/i.exec(attrs)?.[1] ?? '';
    if (!RUNNABLE_TYPE.test(type.trim())) continue;
    // The HTML parser turns CR LF and lone CR into LF before the script text exists.
    const text = body.replace(/\r\n?/g, '\n');
    out.push(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  }
  return out;
}

/**
 * style-src: our stylesheets only, and no style attributes in parsed HTML either. The app sets
 * styles through CSSOM (React's style props), which CSP does not govern, and the painted
 * first-screen copy carries its rows' styles as data-painted-style for index.html to set the same way.
 * img/media/connect take http: and https: because media servers, relays, NWC wallets, LNURL and
 * NIP-05 hosts are whatever people configure; they fetch data, never code.
 */
export function pagePolicy(html: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${inlineScriptHashes(html).join(' ')}`.trimEnd(),
    "style-src 'self'",
    "img-src 'self' https: http: data: blob:",
    "media-src 'self' https: http: data: blob:",
    "connect-src 'self' https: http: wss: ws:",
    "font-src 'self' data:",
    `frame-src ${PLAYER_ORIGINS.join(' ')}`,
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers for every HTML page of ours. */
export function pageHeaders(html: string): Record<string, string> {
  return {
    'Content-Security-Policy': pagePolicy(html),
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Content-Type-Options': 'nosniff',
    // Older browsers that ignore frame-ancestors.
    'X-Frame-Options': 'DENY',
  };
}
