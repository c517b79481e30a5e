import { describe, expect, it } from 'vitest';
import { naddrEncode, npubEncode } from 'nostr-tools/nip19';
import {
  articleToInput,
  buildArticleEvent,
  draftKey,
  editTarget,
  emptyDraft,
  makeIdentifier,
  normalizeTopics,
  parseCoordinate,
  parseDraft,
  randomSuffix,
  serializeDraft,
  slugify,
  splitTopicInput,
  validateArticle,
} from '../../../../src/lib/article';
import { applyFormat, insertImage } from '../../../../src/components/readsEditor/formatting';

const PUBKEY = '3bf0c63fcb93463407af97a5e5ee64fa883d107ef9e558472c4eb9aaaefa459d';
const tag = (tags: string[][], name: string) => tags.filter((t) => t[0] === name).map((t) => t[1]);

describe('slug and identifier', () => {
  it('drops Hungarian accents, including ő and ű', () => {
    expect(slugify('Árvíztűrő tükörfúrógép')).toBe('arvizturo-tukorfurogep');
    expect(slugify('  Ősszel is ÜLÖK a kertben!  ')).toBe('osszel-is-ulok-a-kertben');
    expect(slugify('Mi az a Nostr? — 2. rész')).toBe('mi-az-a-nostr-2-resz');
  });

  it('keeps slugs short, cut at a word boundary', () => {
    const slug = slugify('Hosszú cím '.repeat(20));
    expect(slug.length).toBeLessThanOrEqual(60);
    expect(slug.endsWith('-')).toBe(false);
    expect(slug.startsWith('hosszu-cim-hosszu')).toBe(true);
  });

  it('adds a short random suffix, with a fallback for titles without letters', () => {
    const suffix = randomSuffix();
    expect(suffix).toMatch(/^[0-9a-z]{6}$/);
    expect(randomSuffix()).not.toBe(suffix);
    expect(makeIdentifier('Első cikkem', 'x1y2z3')).toBe('elso-cikkem-x1y2z3');
    expect(makeIdentifier('!!! 🦤', 'abc123')).toBe('cikk-abc123');
  });
});

describe('topics', () => {
  it('are lower-cased, stripped of #, deduplicated in first order', () => {
    expect(normalizeTopics(['Nostr', '#nostr', ' Bitcoin ', 'BITCOIN', '', '#', 'Magyar Nyelv'])).toEqual(['nostr', 'bitcoin', 'magyar-nyelv']);
  });

  it('split typed text at commas', () => {
    expect(splitTopicInput('első, Második,, harmadik ')).toEqual(['első', 'Második', 'harmadik']);
  });

  it('refuse overlong topics', () => {
    expect(normalizeTopics(['a'.repeat(65), 'ok'])).toEqual(['ok']);
  });
});

describe('the kind 30023 event', () => {
  const input = {
    identifier: 'elso-cikkem-abc123',
    title: ' Első cikkem ',
    summary: 'Rövid összefoglaló',
    image: 'https://example.com/borito.jpg',
    topics: ['Nostr', 'nostr', '#Írás'],
    content: '# Cím\n\nSzöveg',
  };

  it('carries d, title, summary, image, published_at and one t per topic', () => {
    const e = buildArticleEvent(input, 1_700_000_000);
    expect(e.kind).toBe(30023);
    expect(e.created_at).toBe(1_700_000_000);
    expect(e.content).toBe(input.content);
    expect(tag(e.tags, 'd')).toEqual(['elso-cikkem-abc123']);
    expect(tag(e.tags, 'title')).toEqual(['Első cikkem']);
    expect(tag(e.tags, 'summary')).toEqual(['Rövid összefoglaló']);
    expect(tag(e.tags, 'image')).toEqual(['https://example.com/borito.jpg']);
    expect(tag(e.tags, 'published_at')).toEqual(['1700000000']);
    expect(tag(e.tags, 't')).toEqual(['nostr', 'írás']);
  });

  it('leaves out empty summary and image', () => {
    const e = buildArticleEvent({ ...input, summary: ' ', image: '' }, 10);
    expect(tag(e.tags, 'summary')).toEqual([]);
    expect(tag(e.tags, 'image')).toEqual([]);
  });

  it('keeps published_at, d and foreign tags when an article is edited', () => {
    const first = { id: 'x', pubkey: PUBKEY, sig: 's', ...buildArticleEvent(input, 1_700_000_000) };
    first.tags.push(['client', 'valami'], ['a', `30023:${PUBKEY}:masik`]);
    const editing = articleToInput(first);
    expect(editing.identifier).toBe('elso-cikkem-abc123');
    expect(editing.publishedAt).toBe(1_700_000_000);
    expect(editing.topics).toEqual(['nostr', 'írás']);
    const second = buildArticleEvent({ ...editing, title: 'Új cím', content: 'Új szöveg' }, 1_800_000_000);
    expect(second.created_at).toBe(1_800_000_000);
    expect(tag(second.tags, 'd')).toEqual(['elso-cikkem-abc123']);
    expect(tag(second.tags, 'published_at')).toEqual(['1700000000']);
    expect(tag(second.tags, 'title')).toEqual(['Új cím']);
    expect(tag(second.tags, 'client')).toEqual(['valami']);
    expect(tag(second.tags, 'a')).toEqual([`30023:${PUBKEY}:masik`]);
    expect(second.tags.filter((t) => t[0] === 'd')).toHaveLength(1);
  });

  it('falls back to created_at for an article published without published_at', () => {
    expect(articleToInput({ tags: [['d', 'x']], content: '', created_at: 123 }).publishedAt).toBe(123);
  });

  it('tags the people the body mentions', () => {
    const npub = npubEncode(PUBKEY);
    const e = buildArticleEvent({ ...input, content: `Szia nostr:${npub} és nostr:${npub}! nostr:npub1rossz` }, 1);
    expect(tag(e.tags, 'p')).toEqual([PUBKEY]);
  });
});

describe('validation', () => {
  it('requires a title and a body', () => {
    expect(validateArticle({ title: ' ', content: '\n' })).toEqual({ title: 'required', content: 'required' });
    expect(validateArticle({ title: 'Cím', content: 'Szöveg' })).toEqual({});
  });

  it('refuses a cover that is not an http(s) address', () => {
    expect(validateArticle({ title: 'Cím', content: 'x', image: 'javascript:alert(1)' })).toEqual({ image: 'invalid' });
    expect(validateArticle({ title: 'Cím', content: 'x', image: 'kep.jpg' })).toEqual({ image: 'invalid' });
    expect(validateArticle({ title: 'Cím', content: 'x', image: 'https://example.com/k.jpg' })).toEqual({});
    expect(validateArticle({ title: 'Cím', content: 'x', image: ' ' })).toEqual({});
  });
});

describe('addresses', () => {
  it('reads the article to edit from naddr or a coordinate', () => {
    const naddr = naddrEncode({ kind: 30023, pubkey: PUBKEY, identifier: 'abc' });
    expect(editTarget(`?naddr=${naddr}`)).toEqual({ kind: 30023, pubkey: PUBKEY, identifier: 'abc' });
    expect(editTarget(`?a=${encodeURIComponent(`30023:${PUBKEY}:a:b`)}`)).toEqual({ kind: 30023, pubkey: PUBKEY, identifier: 'a:b' });
    expect(editTarget('?a=1:xyz:abc')).toBeNull();
    expect(editTarget(`?naddr=${naddrEncode({ kind: 30000, pubkey: PUBKEY, identifier: 'abc' })}`)).toBeNull();
    expect(editTarget('')).toBeNull();
    expect(parseCoordinate(`30023:${PUBKEY.toUpperCase()}:`)).toEqual({ kind: 30023, pubkey: PUBKEY, identifier: '' });
  });
});

describe('drafts', () => {
  it('round-trip and are keyed per identifier', () => {
    const d = { ...emptyDraft('abc123'), title: 'Cím', topics: ['a'], content: 'x', publishedAt: 5, identifier: 'cim-abc123', savedAt: 9 };
    expect(parseDraft(serializeDraft(d))).toEqual(d);
    expect(draftKey()).toBe('article:new');
    expect(draftKey('cim-abc123')).toBe('article:cim-abc123');
  });

  it('ignore text that is not a draft', () => {
    expect(parseDraft('sima jegyzet')).toBeNull();
    expect(parseDraft('{"title":"x"}')).toBeNull();
    expect(parseDraft(undefined)).toBeNull();
  });
});

describe('toolbar formatting', () => {
  it('wraps the selection and toggles it back', () => {
    const bold = applyFormat('egy kettő', 4, 9, 'bold', 'szöveg');
    expect(bold).toEqual({ text: 'egy **kettő**', start: 6, end: 11 });
    expect(applyFormat(bold.text, bold.start, bold.end, 'bold', 'szöveg')).toEqual({ text: 'egy kettő', start: 4, end: 9 });
    expect(applyFormat('', 0, 0, 'italic', 'szöveg')).toEqual({ text: '*szöveg*', start: 1, end: 7 });
  });

  it('prefixes whole lines for heading, quote and list', () => {
    expect(applyFormat('cím\nszöveg', 1, 1, 'heading', '').text).toBe('## cím\nszöveg');
    expect(applyFormat('egy\nkettő', 0, 9, 'list', '').text).toBe('- egy\n- kettő');
    expect(applyFormat('> egy\n> kettő', 0, 13, 'quote', '').text).toBe('egy\nkettő');
  });

  it('selects the URL of a new link and fences multi-line code', () => {
    const link = applyFormat('nézd', 0, 4, 'link', 'link');
    expect(link.text).toBe('[nézd](https://)');
    expect(link.text.slice(link.start, link.end)).toBe('https://');
    expect(applyFormat('a\nb', 0, 3, 'code', '').text).toBe('```\na\nb\n```\n');
  });

  it('puts an uploaded image on a line of its own', () => {
    expect(insertImage('előtte', 6, 6, 'https://x.hu/k.png', 'k[1]').text).toBe('előtte\n\n![k1](https://x.hu/k.png)\n\n');
  });
});
