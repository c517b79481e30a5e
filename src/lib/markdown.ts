/**
 * Long-form article Markdown to HTML that is safe to put in the page. Two layers:
 * the marked renderer below never emits raw HTML (it is shown as text), links only with
 * vetted schemes and images only through the media cache; then DOMPurify, with a short
 * allow-list, checks the result again in the browser. Pure apart from DOMPurify, so the
 * first layer is unit-tested in Node, where DOMPurify has no DOM and is skipped.
 */
import DOMPurify from 'dompurify';
import { Marked, type Tokens, type TokenizerAndRendererExtension } from 'marked';
import { decode } from 'nostr-tools/nip19';

/** Longer bodies are cut: nobody reads past this, and the parser's time stays bounded. */
export const MAX_MARKDOWN_CHARS = 200_000;
/** Deeper blockquote nesting is flattened so a hostile body cannot exhaust the parser's stack. */
const MAX_QUOTE_DEPTH = 8;

export interface MarkdownOptions {
  /** The media-cache URL for an image URL (src/lib/media.ts mediaUrl in the app). */
  media: (url: string) => string;
  /** Display names by hex pubkey, for nostr:npub and nostr:nprofile mentions. */
  names?: Record<string, string>;
}

const BECH32 = /^(npub|nprofile|note|nevent|naddr)1[02-9ac-hj-np-z]+$/;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** The in-app route for a NIP-19 entity, or null when it does not decode. */
export function nostrRoute(bech32: string): string | null {
  if (!BECH32.test(bech32)) return null;
  try {
    const d = decode(bech32);
    if (d.type === 'npub' || d.type === 'nprofile') return `/p/${bech32}`;
    if (d.type === 'note' || d.type === 'nevent') return `/e/${bech32}`;
    if (d.type === 'naddr') return `/a/${bech32}`;
  } catch {
    // Invalid checksum: not a mention.
  }
  return null;
}

function mentionLabel(bech32: string, names: Record<string, string> | undefined): string {
  try {
    const d = decode(bech32);
    const pubkey = d.type === 'npub' ? d.data : d.type === 'nprofile' ? d.data.pubkey : undefined;
    if (pubkey && names?.[pubkey]) return `@${names[pubkey]}`;
  } catch {
    // Falls through to the shortened code.
  }
  return bech32.length > 24 ? `${bech32.slice(0, 12)}…${bech32.slice(-6)}` : bech32;
}

export type SafeLink = { kind: 'external'; href: string } | { kind: 'internal'; href: string };

/** http(s) and mailto stay links; nostr: becomes an in-app route; anything else (javascript:, data:, relative paths) is not a link. */
export function safeLink(raw: string): SafeLink | null {
  const href = raw.trim();
  if (href.startsWith('nostr:')) {
    const route = nostrRoute(href.slice(6));
    return route ? { kind: 'internal', href: route } : null;
  }
  if (href.startsWith('#') && /^#[\w-]+$/.test(href)) return { kind: 'internal', href };
  try {
    const url = new URL(href);
    if (url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:') return { kind: 'external', href: url.href };
  } catch {
    // Not an absolute URL.
  }
  return null;
}

/** Only http(s) images, and only through the media cache; data: and other schemes are dropped. */
export function safeImage(raw: string, media: (url: string) => string): string | null {
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? media(url.href) : null;
  } catch {
    return null;
  }
}

function anchor(link: SafeLink, inner: string, title?: string | null): string {
  const t = title ? ` title="${escapeHtml(title)}"` : '';
  if (link.kind === 'internal') return `<a href="${escapeHtml(link.href)}" data-route="1"${t}>${inner}</a>`;
  return `<a href="${escapeHtml(link.href)}" target="_blank" rel="noopener noreferrer nofollow"${t}>${inner}</a>`;
}

function nostrExtension(names: () => Record<string, string> | undefined): TokenizerAndRendererExtension {
  return {
    name: 'nostrMention',
    level: 'inline',
    start(src: string) {
      const i = src.indexOf('nostr:');
      return i < 0 ? undefined : i;
    },
    tokenizer(src: string) {
      const m = /^nostr:((?:npub|nprofile|note|nevent|naddr)1[02-9ac-hj-np-z]+)/.exec(src);
      if (!m || !nostrRoute(m[1])) return undefined;
      return { type: 'nostrMention', raw: m[0], bech32: m[1] };
    },
    renderer(token) {
      const bech32 = String(token.bech32);
      const route = nostrRoute(bech32);
      if (!route) return escapeHtml(token.raw);
      return anchor({ kind: 'internal', href: route }, escapeHtml(mentionLabel(bech32, names())));
    },
  };
}

let current: MarkdownOptions = { media: (u) => u };

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    // Raw HTML in an article is shown as the text it is; the spec wants hostile markup visible, never run.
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      const link = safeLink(href);
      return link ? anchor(link, inner, title) : inner;
    },
    image({ href, title, text }: Tokens.Image) {
      const src = safeImage(href, current.media);
      if (!src) return escapeHtml(text);
      const t = title ? ` title="${escapeHtml(title)}"` : '';
      return `<img src="${escapeHtml(src)}" alt="${escapeHtml(text)}"${t} loading="lazy" decoding="async">`;
    },
  },
  extensions: [nostrExtension(() => current.names)],
});

function limitQuoteDepth(md: string): string {
  const deep = new RegExp(String.raw`^((?:[ \t]*>){${MAX_QUOTE_DEPTH}})(?:[ \t]*>)+`, 'gm');
  return md.replace(deep, '$1');
}

/** Markdown to HTML with the renderer's rules only (no DOM needed). */
export function markdownToHtml(markdown: string, options: MarkdownOptions): string {
  const source = limitQuoteDepth(String(markdown ?? '').slice(0, MAX_MARKDOWN_CHARS));
  current = options;
  try {
    return marked.parse(source) as string;
  } catch {
    // Whatever the parser chokes on is still readable as plain paragraphs.
    return source
      .split(/\n{2,}/)
      .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
      .join('');
  } finally {
    current = { media: (u) => u };
  }
}

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'b', 'em', 'i', 'del', 's', 'code', 'pre', 'blockquote',
  'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'sup', 'sub',
];
const ALLOWED_ATTR = ['href', 'title', 'alt', 'src', 'target', 'rel', 'loading', 'decoding', 'start', 'align', 'data-route'];

/** Second layer: DOMPurify's allow-list, plus our own rules for link targets and image sources. */
export function sanitizeHtml(html: string, mediaPrefix: string): string {
  if (!DOMPurify.isSupported) return html;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'IMG') {
      const src = node.getAttribute('src') ?? '';
      if (!src.startsWith(mediaPrefix)) node.removeAttribute('src');
    } else if (node.nodeName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (node.getAttribute('data-route') === '1' && (href.startsWith('/') || href.startsWith('#')) && !href.startsWith('//')) {
        node.removeAttribute('target');
        node.removeAttribute('rel');
      } else if (/^(https?:|mailto:)/i.test(href)) {
        node.removeAttribute('data-route');
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      } else {
        node.removeAttribute('href');
        node.removeAttribute('data-route');
      }
    }
  });
  try {
    return DOMPurify.sanitize(html, {
      ALLOWED_TAGS,
      ALLOWED_ATTR,
      ALLOW_DATA_ATTR: false,
      ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|\/(?!\/)|#)/i,
    });
  } finally {
    DOMPurify.removeHook('afterSanitizeAttributes');
  }
}

/** The article body as safe HTML. */
export function renderMarkdown(markdown: string, options: MarkdownOptions & { mediaPrefix: string }): string {
  return sanitizeHtml(markdownToHtml(markdown, options), options.mediaPrefix);
}

/**
 * Wraps each highlighted passage found inside one text node in a <mark>. Passages that span
 * formatting are left unmarked rather than breaking the structure.
 */
/** Takes away the marks markHighlights put in, leaving the rest of the body (its images too) in place. */
export function unmarkHighlights(root: HTMLElement): void {
  const marks = root.querySelectorAll('mark.article-highlight');
  if (marks.length === 0) return;
  for (const mark of marks) mark.replaceWith(...mark.childNodes);
  root.normalize();
}

export function markHighlights(root: HTMLElement, passages: { text: string; count: number }[], label: (count: number) => string): number {
  let marked = 0;
  for (const { text, count } of passages) {
    const needle = text.trim();
    if (needle.length < 3) continue;
    const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      if (node.parentElement?.closest('mark')) continue;
      const at = node.data.indexOf(needle);
      if (at < 0) continue;
      const match = node.splitText(at);
      match.splitText(needle.length);
      const mark = root.ownerDocument.createElement('mark');
      mark.className = 'article-highlight';
      mark.title = label(count);
      mark.dataset.count = String(count);
      match.replaceWith(mark);
      mark.appendChild(match);
      marked++;
      break;
    }
  }
  return marked;
}
