import { describe, expect, it } from 'vitest';
import { npubEncode, naddrEncode, noteEncode } from 'nostr-tools/nip19';
import { markdownToHtml, MAX_MARKDOWN_CHARS, nostrRoute, renderMarkdown, safeImage, safeLink } from '../../../../src/lib/markdown';

const MEDIA = 'https://strucc.test/media-cache';
const media = (u: string) => `${MEDIA}?u=${encodeURIComponent(u)}`;
const opts = { media };
const PUBKEY = '3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d';
const NPUB = npubEncode(PUBKEY);

/** Every tag the output opens, lower-cased. */
function tags(html: string): string[] {
  return [...html.matchAll(/<([a-z][a-z0-9]*)/gi)].map((m) => m[1].toLowerCase());
}

/** Attribute names of every tag; quoted values are removed first, so text inside them never counts. */
function attributeNames(html: string): string[] {
  return [...html.matchAll(/<[a-z][^>]*>/gi)].flatMap((m) =>
    [...m[0].replace(/"[^"]*"/g, '""').matchAll(/\s([a-z-]+)=/gi)].map((a) => a[1].toLowerCase()),
  );
}

describe('markdownToHtml', () => {
  it('renders headings, lists, emphasis and code', () => {
    const html = markdownToHtml('## Cím\n\n- egy\n- kettő\n\n**vastag** és *dőlt* `kód`', opts);
    expect(html).toContain('<h2>Cím</h2>');
    expect(html).toContain('<li>egy</li>');
    expect(html).toContain('<strong>vastag</strong>');
    expect(html).toContain('<em>dőlt</em>');
    expect(html).toContain('<code>kód</code>');
  });

  it('shows script tags as text, never as markup', () => {
    const html = markdownToHtml('Szia <script>alert(1)</script> világ\n\n<script>\nalert(2)\n</script>', opts);
    expect(tags(html)).not.toContain('script');
    expect(html).toContain('&lt;script&gt;');
  });

  it('never emits event-handler attributes', () => {
    const html = markdownToHtml('<img src=x onerror="alert(1)">\n\n![kép" onerror="alert(2)](https://pelda.hu/a.png)', opts);
    expect(tags(html).filter((t) => t === 'img')).toHaveLength(1);
    expect(attributeNames(html).filter((a) => a.startsWith('on'))).toEqual([]);
    expect(attributeNames(html)).toContain('alt');
  });

  it('drops javascript:, data: and vbscript: links, keeping their text', () => {
    const html = markdownToHtml('[katt](javascript:alert(1)) [adat](data:text/html;base64,PHNjcmlwdD4=) [vb](vbscript:x) [JS](JaVaScRiPt:alert(1))', opts);
    expect(html).not.toMatch(/href=/);
    expect(html).toContain('katt');
    expect(html).toContain('adat');
  });

  it('opens external links in a new tab with rel noopener', () => {
    const html = markdownToHtml('[Strucc](https://strucc.test/cikk)', opts);
    expect(html).toContain('<a href="https://strucc.test/cikk" target="_blank" rel="noopener noreferrer nofollow">Strucc</a>');
  });

  it('shows nested and unbalanced HTML as text', () => {
    const html = markdownToHtml('<div><p onclick="x()"><a href="javascript:y()"><iframe src="https://rossz.hu"></iframe></a></p></div>\n\n<svg><script>z()</script></svg>', opts);
    for (const tag of ['div', 'iframe', 'svg', 'script']) expect(tags(html)).not.toContain(tag);
    expect(tags(html).filter((t) => t === 'a')).toHaveLength(0);
  });

  it('rewrites images through the media cache and refuses data: images', () => {
    const html = markdownToHtml('![Lecsó](https://media.strucc.test/img/1.svg)\n\n![rossz](data:image/png;base64,AAAA)', opts);
    expect(html).toContain(`src="${media('https://media.strucc.test/img/1.svg').replace(/&/g, '&amp;')}"`);
    expect(html).toContain('alt="Lecsó"');
    expect(html).not.toContain('data:image');
    expect(html).toContain('rossz');
  });

  it('maps nostr: links and bare mentions to in-app routes', () => {
    const note = noteEncode('a'.repeat(64));
    const naddr = naddrEncode({ kind: 30023, pubkey: PUBKEY, identifier: 'cikk' });
    const html = markdownToHtml(`Szia nostr:${NPUB}! [cikk](nostr:${naddr}) és nostr:${note}`, { media, names: { [PUBKEY]: 'Kovács Anna' } });
    expect(html).toContain(`<a href="/p/${NPUB}" data-route="1">@Kovács Anna</a>`);
    expect(html).toContain(`<a href="/a/${naddr}" data-route="1">cikk</a>`);
    expect(html).toContain(`href="/e/${note}"`);
  });

  it('leaves an invalid nostr mention as text', () => {
    const html = markdownToHtml('nostr:npub1hibas [x](nostr:npub1qqqq)', opts);
    expect(html).not.toContain('href');
    expect(html).toContain('nostr:npub1hibas');
  });

  it('cuts huge inputs and survives pathological nesting', () => {
    const huge = 'szó '.repeat(MAX_MARKDOWN_CHARS);
    const start = Date.now();
    const html = markdownToHtml(huge, opts);
    expect(html.length).toBeLessThan(MAX_MARKDOWN_CHARS + 100);
    const deep = markdownToHtml(`${'>'.repeat(5000)} mély\n\n${'['.repeat(5000)}x${']'.repeat(5000)}`, opts);
    expect(deep).toContain('mély');
    expect((deep.match(/<blockquote>/g) ?? []).length).toBeLessThanOrEqual(8);
    expect(Date.now() - start).toBeLessThan(10_000);
  });

  it('keeps malformed Markdown readable', () => {
    const html = markdownToHtml('## \n\n```\nnyitott kód\n\n| a | b\n|---\n**félkövér [link](', opts);
    expect(html).toContain('nyitott kód');
  });

  it('renderMarkdown falls back to the renderer output where there is no DOM', () => {
    expect(renderMarkdown('*x* <b>y</b>', { media, mediaPrefix: MEDIA })).toBe(markdownToHtml('*x* <b>y</b>', opts));
  });
});

describe('link and image rules', () => {
  it('safeLink', () => {
    expect(safeLink('https://pelda.hu')).toEqual({ kind: 'external', href: 'https://pelda.hu/' });
    expect(safeLink(' javascript:alert(1)')).toBeNull();
    expect(safeLink('/relativ')).toBeNull();
    expect(safeLink(`nostr:${NPUB}`)).toEqual({ kind: 'internal', href: `/p/${NPUB}` });
  });

  it('safeImage', () => {
    expect(safeImage('https://pelda.hu/a.png', media)).toBe(media('https://pelda.hu/a.png'));
    expect(safeImage('data:image/svg+xml,<svg onload=alert(1)>', media)).toBeNull();
    expect(safeImage('javascript:alert(1)', media)).toBeNull();
  });

  it('nostrRoute', () => {
    expect(nostrRoute(NPUB)).toBe(`/p/${NPUB}`);
    expect(nostrRoute('npub1xyz')).toBeNull();
  });
});
