/** The advanced-search grammar (S §3.7), its description for the form, and the term helpers. */
import { nip19 } from 'nostr-tools';
import { describe, expect, it } from 'vitest';
import { describeQuery } from '../../../../server/search/describe.ts';
import { GrammarError, leaves, parseQuery, type Node } from '../../../../server/search/grammar.ts';
import { buildSearch } from '../../../../server/search/sql.ts';
import { fold, hashtagsOf, mediaFlags, terms, tokenize } from '../../../../server/search/tokens.ts';

const NOW = 1_700_000_000;
const PK = 'a'.repeat(64);
const PK2 = 'b'.repeat(64);
const parse = (q: string) => parseQuery(q, NOW);
const expr = (q: string) => parse(q).expr;

describe('tokens', () => {
  it('folds Hungarian accents and case', () => {
    expect(fold('Gulyás ŐSZ Űrhajó')).toBe('gulyas osz urhajo');
    expect(terms('Árvíztűrő tükörfúrógép!')).toEqual(['arvizturo', 'tukorfurogep']);
  });

  it('keeps positions of over-long runs so phrases cannot jump them', () => {
    expect(tokenize(`a ${'x'.repeat(50)} b`)).toEqual(['a', null, 'b']);
  });

  it('collects hashtags from t tags and text, folded', () => {
    expect(hashtagsOf([['t', 'Főzés']], 'Ma #Gulyás volt, nem #123 és nem a#b')).toEqual(['fozes', 'gulyas']);
  });

  it('detects media by link type, kind and imeta', () => {
    expect(mediaFlags(1, [], 'nézd https://x.hu/a.mp4')).toMatchObject({ video: true, image: false, url: true });
    expect(mediaFlags(1, [['imeta', 'url https://x.hu/a', 'm image/png']], 'https://x.hu/a')).toMatchObject({ image: true });
    expect(mediaFlags(20, [], '')).toMatchObject({ image: true, url: false });
    expect(mediaFlags(1, [], 'https://x.hu/dal.mp3')).toMatchObject({ audio: true });
  });
});

describe('grammar', () => {
  it('ANDs words; long words match as prefixes, short ones exactly', () => {
    expect(expr('Gulyás a')).toEqual({
      type: 'and',
      items: [
        { type: 'word', term: 'gulyas', prefix: true, raw: 'Gulyás' },
        { type: 'word', term: 'a', prefix: false, raw: 'a' },
      ],
    });
  });

  it('reads phrases, hashtags and negations', () => {
    expect(expr('"gulyás leves" #Főzés -hal -"rossz idő" -#tura')).toEqual({
      type: 'and',
      items: [
        { type: 'phrase', terms: ['gulyas', 'leves'], raw: 'gulyás leves' },
        { type: 'hashtag', tag: 'fozes' },
        { type: 'not', item: { type: 'word', term: 'hal', prefix: true, raw: 'hal' } },
        { type: 'not', item: { type: 'phrase', terms: ['rossz', 'ido'], raw: 'rossz idő' } },
        { type: 'not', item: { type: 'hashtag', tag: 'tura' } },
      ],
    });
    // A one-word phrase is exact, not a prefix.
    expect(expr('"gulyás"')).toEqual({ type: 'word', term: 'gulyas', prefix: false, raw: 'gulyás' });
    // Punctuation inside a word makes it a phrase of its parts.
    expect(expr('e-mail')).toMatchObject({ type: 'phrase', terms: ['e', 'mail'] });
  });

  it('binds AND tighter than OR and honours parentheses', () => {
    const w = (term: string): Node => ({ type: 'word', term, prefix: true, raw: term });
    expect(expr('alma OR korte szilva')).toEqual({ type: 'or', items: [w('alma'), { type: 'and', items: [w('korte'), w('szilva')] }] });
    expect(expr('(alma OR korte) szilva')).toEqual({ type: 'and', items: [{ type: 'or', items: [w('alma'), w('korte')] }, w('szilva')] });
    expect(expr('-(alma OR korte)')).toEqual({ type: 'not', item: { type: 'or', items: [w('alma'), w('korte')] } });
    expect(expr('kind:20 OR kind:34236')).toEqual({ type: 'or', items: [{ type: 'kind', kind: 20 }, { type: 'kind', kind: 34236 }] });
  });

  it('reads people in hex, npub and nprofile', () => {
    const npub = nip19.npubEncode(PK);
    const nprofile = nip19.nprofileEncode({ pubkey: PK2, relays: [] });
    expect(leaves(expr(`from:${npub} to:${PK2} mention:${nprofile} zappedby:${PK} following:${npub}`)).map((l) => l.node)).toEqual([
      { type: 'person', role: 'from', pubkey: PK },
      { type: 'person', role: 'to', pubkey: PK2 },
      { type: 'person', role: 'mention', pubkey: PK2 },
      { type: 'person', role: 'zappedby', pubkey: PK },
      { type: 'person', role: 'following', pubkey: PK },
    ]);
  });

  it('reads kinds, media filters, urls and refs', () => {
    const note = nip19.noteEncode(PK);
    expect(leaves(expr(`kind:30023 filter:image filter:video filter:audio url:media.example ref:${note} repliestokind:1`)).map((l) => l.node)).toEqual([
      { type: 'kind', kind: 30023 },
      { type: 'media', media: 'image' },
      { type: 'media', media: 'video' },
      { type: 'media', media: 'audio' },
      { type: 'url', terms: ['media', 'example'] },
      { type: 'ref', ref: 'e', value: PK },
      { type: 'repliestokind', kind: 1 },
    ]);
  });

  it('reads time windows as dates and relative names', () => {
    expect(parse('since:2024-03-01 until:2024-03-02_12:30')).toMatchObject({
      since: Date.UTC(2024, 2, 1) / 1000,
      until: Date.UTC(2024, 2, 2, 12, 30) / 1000,
      expr: null,
    });
    expect(parse('since:lastweek')).toMatchObject({ since: NOW - 7 * 86400, relative: 'lastweek' });
    expect(parse('since:last1h').since).toBe(NOW - 3600);
    expect(parse('since:lastyear').since).toBe(NOW - 365 * 86400);
  });

  it('reads thresholds, scope, ordering and features', () => {
    const q = parse('minscore:50 maxlikes:3 mininteractions:2 minwords:100 maxchars:140 minlongreplies:5 scope:MyFollows orderby:satszapped features:summary,cdnmedia');
    expect(q).toMatchObject({
      min: { score: 50, interactions: 2, words: 100 },
      max: { likes: 3 },
      maxChars: 140,
      minLongReplies: 5,
      scope: 'myfollows',
      orderBy: 'satszapped',
      features: ['summary', 'cdnmedia'],
    });
    expect(parse('orderby:time').orderBy).toBe('created_at');
  });

  it('accepts operators it cannot honour without narrowing', () => {
    const q = parse('lang:hu orientation:vertical maxduration:90 filter:spam mintrustrank:3 alma');
    expect(q.expr).toEqual({ type: 'word', term: 'alma', prefix: true, raw: 'alma' });
    expect(q.ignored).toEqual(['lang:hu', 'orientation:vertical', 'maxduration:90', 'filter:spam', 'mintrustrank:3']);
    expect(q).toMatchObject({ orientation: 'vertical', maxDuration: 90 });
  });

  it('reads sentiment marks without mistaking them for parentheses', () => {
    expect(parse('alma :)')).toMatchObject({ sentiment: 'positive', expr: { type: 'word', term: 'alma' } });
    expect(parse(':( alma').sentiment).toBe('negative');
    expect(parse('alma ?').sentiment).toBe('question');
  });

  it('treats unknown name:value pairs and times as text', () => {
    expect(expr('12:30')).toMatchObject({ type: 'phrase', terms: ['12', '30'] });
    expect(expr('foo:bar')).toMatchObject({ type: 'phrase', terms: ['foo', 'bar'] });
  });

  it('treats an empty query and settings-only queries as match-all', () => {
    expect(parse('').expr).toBeNull();
    expect(parse('scope:myfollows kind:1').expr).toEqual({ type: 'kind', kind: 1 });
  });

  it.each([
    ['"alma', 'unbalanced quotes'],
    ['(alma OR korte', 'unbalanced parentheses'],
    ['alma)', 'unbalanced parentheses'],
    ['()', 'empty parentheses'],
    ['alma OR', 'OR needs a term on both sides'],
    ['OR alma', 'OR needs a term on both sides'],
    ['alma -OR korte', 'nothing to negate'],
    ['alma -(', 'unbalanced parentheses'],
    ['kind:abc', 'invalid number in kind:'],
    ['kind:70000', 'invalid kind:'],
    ['from:bob', 'invalid from:'],
    ['since:2024-02-30', 'invalid date in since:'],
    ['since:tegnap', 'invalid date in since:'],
    ['scope:everyone', 'unknown scope'],
    ['orderby:random', 'unknown orderby'],
    ['minlikes:-1', 'invalid number in minlikes: -1'],
    ['minlikes:sok', 'invalid number in minlikes:'],
    ['from:', 'missing value for from:'],
    ['x'.repeat(3000), 'query too long'],
    [Array.from({ length: 50 }, (_, i) => `szo${i}`).join(' '), 'too many search terms'],
    ['('.repeat(20) + 'a' + ')'.repeat(20), 'too deeply nested'],
  ])('refuses %j', (query, reason) => {
    expect(() => parse(query)).toThrow(GrammarError);
    expect(() => parse(query)).toThrow(reason);
  });
});

describe('describeQuery (parse_advanced_search_query)', () => {
  it('fills every form field', () => {
    const d = describeQuery(
      parse(`gulyás "halászlé jobb" -leves #Főzés from:${PK} to:${PK2} zappedby:${PK} mention:${PK2} following:${PK} kind:30023 since:lastweek scope:myfollows orderby:score minscore:10 mininteractions:2 minlikes:3 minzaps:4 minreplies:5 minreposts:6 minwords:476 maxwords:1000 orientation:vertical minduration:10 maxduration:90 :)`),
    );
    expect(d).toEqual({
      includes: 'gulyás "halászlé jobb"',
      excludes: 'leves',
      hashtags: '#fozes',
      kind: 'Reads',
      postedBy: [PK],
      replingTo: [PK2],
      zappedBy: [PK],
      userMentions: [PK2],
      following: [PK],
      timeframe: 'This Week',
      customTimeframe: { since: '', until: '' },
      scope: 'My Follows',
      sortBy: 'Score',
      orientation: 'Vertical',
      sentiment: 'Positive',
      minDuration: 10,
      maxDuration: 90,
      minWords: 2,
      maxWords: 4,
      minScore: 10,
      minInteractions: 2,
      minLikes: 3,
      minZaps: 4,
      minReplies: 5,
      minReposts: 6,
    });
  });

  it('describes defaults, custom windows and kind labels', () => {
    expect(describeQuery(parse(''))).toMatchObject({ kind: 'Notes', timeframe: 'Anytime', scope: 'Global', sortBy: 'Time', sentiment: 'Neutral', orientation: 'Any' });
    expect(describeQuery(parse('since:2024-03-01 until:2024-04-01'))).toMatchObject({
      timeframe: 'Custom',
      customTimeframe: { since: '2024-03-01', until: '2024-04-01' },
    });
    const kind = (q: string) => describeQuery(parse(q)).kind;
    expect(kind('kind:1 filter:image')).toBe('Images');
    expect(kind('kind:20')).toBe('Images');
    expect(kind('filter:video')).toBe('Video');
    expect(kind('filter:audio')).toBe('Audio');
    expect(kind('kind:1 repliestokind:1')).toBe('Note Replies');
    expect(kind('kind:1 repliestokind:30023')).toBe('Reads Comments');
  });
});

describe('buildSearch', () => {
  const opts = { dialect: 'sqlite' as const, defaultKinds: [1], page: { limit: 20, offset: 0 } };

  it('keeps placeholders and parameters in step', () => {
    const q = parse(`(alma OR "körte lé") -#tura from:${PK} minlikes:2 scope:mynetwork orderby:likes maxchars:100 since:lastweek`);
    const built = buildSearch(q, { ...opts, viewer: PK2, page: { limit: 10, offset: 5, until: 7 } });
    expect(built.sql.split('?').length - 1).toBe(built.params.length);
    expect(built.params.slice(-2)).toEqual([10, 5]);
  });

  it('starts from the full-text index with the query\'s text as one engine query, its parameters first', () => {
    const q = parse('gulyás "jó reggelt" -leves kind:1');
    const built = buildSearch(q, opts);
    expect(built.sql).toContain('search_fts CROSS JOIN search_docs d');
    expect(built.sql.split('?').length - 1).toBe(built.params.length);
    expect(built.params[0]).toBe('((body : "gulyas"* AND body : "jo reggelt") NOT (body : "leves"*))');
    const pg = buildSearch(q, { ...opts, dialect: 'postgres' });
    expect(pg.sql).toContain('d.fts @@ (to_tsquery(');
    expect(pg.sql.split('?').length - 1).toBe(pg.params.length);
    expect(pg.params.slice(0, 3)).toEqual(["'gulyas':*", "'jo' <-> 'reggelt'", "'leves':*"]);
  });

  it('keeps text under OR beside other conditions as its own engine lookups', () => {
    const built = buildSearch(parse(`halászlé OR from:${PK} OR #főzés`), opts);
    expect(built.sql).not.toContain('CROSS JOIN');
    expect(built.params.slice(0, 3)).toEqual(['body : "halaszle"*', PK, 'tags : "fozes"']);
  });

  it('narrows to notes unless the query names a kind', () => {
    expect(buildSearch(parse('alma'), opts).sql).toContain('d.kind IN (?)');
    expect(buildSearch(parse('alma kind:30023'), opts).sql).not.toContain('d.kind IN');
  });

  it('matches nothing for viewer scopes without a viewer', () => {
    expect(buildSearch(parse('scope:myfollows'), opts).sql).toContain('1 = 0');
    expect(buildSearch(parse('features:bookmarked-by-follows'), opts).sql).toContain('1 = 0');
  });
});
