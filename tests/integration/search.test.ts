/**
 * Search over a real websocket on both stores (S §3.3 user_search, §3.7, §3.1 search-backed
 * feed specs, §1.1 plain search filters), against the fixture network plus search fixtures.
 */
import { nip19 } from 'nostr-tools';
import { finalizeEvent } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { content, ofKind, rangeOf, type CacheClient, type Reply } from './cache-client.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import { buildSearchNetwork, type SearchNetwork } from './search-fixtures.ts';

type Obj = Record<string, unknown>;
/** A search reply carries exactly one RANGE. */
const onlyRangeOf = (r: Reply) => {
  expect(ofKind(r.events, 10000113)).toHaveLength(1);
  return rangeOf(r);
};
const users = (r: Reply) => ofKind(r.events, 0).map((e) => e.pubkey);

describe.each(['sqlite', 'postgres'] as const)('search on %s', (store) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  let s: SearchNetwork;
  let n = 0;
  const sub = () => `s${++n}`;
  const adv = async (query: string, extra: Obj = {}) => {
    const r = await c.req(sub(), 'advanced_search', { query, ...extra });
    expect(r.notices).toEqual([]);
    return onlyRangeOf(r).elements;
  };
  const notice = async (command: string, kwargs: Obj) => {
    const r = await c.req(sub(), command, kwargs);
    expect(r.frames[r.frames.length - 1].msg[0]).toBe('EOSE');
    expect(r.events).toEqual([]);
    return r.notices;
  };

  beforeAll(async () => {
    srv = await startCacheServer(store);
    s = buildSearchNetwork(srv.net);
    const results = await srv.ctx.importer.importEvents(s.all);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    c = await srv.connect();
  });

  afterAll(async () => {
    await srv?.stop();
  });

  describe('user_search', () => {
    it('matches name prefixes with accents folded, most-followed first', async () => {
      for (const query of ['gulya', 'Gulyás', 'gulyas', 'GULYÁ']) {
        const r = await c.req(sub(), 'user_search', { query });
        expect(users(r)).toEqual([s.erin.pk, s.dave.pk]);
        expect(content(ofKind(r.events, 10000108)[0])).toEqual({ [s.erin.pk]: 2, [s.dave.pk]: 1 });
        expect(content(ofKind(r.events, 10000133)[0])).toEqual({ [s.erin.pk]: 2, [s.dave.pk]: 1 });
      }
      expect(users(await c.req(sub(), 'user_search', { query: 'dávid gul' }))).toEqual([s.dave.pk]);
      expect(users(await c.req(sub(), 'user_search', { query: 'erika@pelda' }))).toEqual([s.erin.pk]);
      // about is not a name field.
      expect(users(await c.req(sub(), 'user_search', { query: 'szakacs' }))).toEqual([]);
    });

    it('decodes npub and nprofile queries', async () => {
      expect(users(await c.req(sub(), 'user_search', { query: nip19.npubEncode(s.dave.pk) }))).toEqual([s.dave.pk]);
      const nprofile = nip19.nprofileEncode({ pubkey: s.frank.pk, relays: ['wss://egy.example'] });
      expect(users(await c.req(sub(), 'user_search', { query: nprofile }))).toEqual([s.frank.pk]);
    });

    it('limits to accounts a pubkey follows; an empty query lists them', async () => {
      expect(users(await c.req(sub(), 'user_search', { query: '', pubkey: s.frank.pk }))).toEqual([s.erin.pk, s.dave.pk]);
      expect(users(await c.req(sub(), 'user_search', { query: 'gul', pubkey: s.dave.pk }))).toEqual([s.erin.pk]);
      expect(users(await c.req(sub(), 'user_search', { query: 'gul', pubkey: s.frank.pk, limit: 1 }))).toEqual([s.erin.pk]);
    });

    it('indexes only the current profile version', async () => {
      expect(users(await c.req(sub(), 'user_search', { query: 'régi' }))).toEqual([]);
      expect(users(await c.req(sub(), 'user_search', { query: 'friss' }))).toEqual([s.gina.pk]);
    });

    it('refuses bad arguments with a NOTICE', async () => {
      expect(await notice('user_search', { query: '' })).toEqual(['query is empty']);
      expect(await notice('user_search', { query: 5 })).toEqual(['invalid query: expected a string']);
      expect(await notice('user_search', { query: 'gul', limit: 'sok' })).toEqual(['invalid limit: expected a number']);
      expect(await notice('user_search', { query: 'gul', pubkey: 'xyz' })).toEqual(['invalid pubkey: expected 64 hex characters']);
      expect(await notice('user_search', { query: 'gul', limit: 50_000 })).toEqual(['limit too big']);
    });
  });

  describe('search', () => {
    it('finds notes by words and prefixes, with the enrichment bundle', async () => {
      const r = await c.req(sub(), 'search', { query: 'gulyás' });
      expect(r.notices).toEqual([]);
      const range = onlyRangeOf(r);
      expect(range.order_by).toBe('created_at');
      expect(range.elements).toEqual([s.d2.id, s.d1.id]);
      expect(r.events[0]).toMatchObject({ id: s.d2.id, kind: 1 });
      expect(ofKind(r.events, 10000100).map((e) => content(e).event_id)).toEqual(expect.arrayContaining([s.d1.id, s.d2.id]));
      expect(users(r)).toContain(s.dave.pk);
      expect(range.since).toBe(s.d1.created_at);
      expect(range.until).toBe(s.d2.created_at);
    });

    it('pages with until and offset, and honours kind', async () => {
      const older = onlyRangeOf(await c.req(sub(), 'search', { query: 'gulyás', until: s.d2.created_at - 1 })).elements;
      expect(older).toEqual([s.d1.id]);
      expect(onlyRangeOf(await c.req(sub(), 'search', { query: 'gulyás', offset: 1, limit: 1 })).elements).toEqual([s.d1.id]);
      expect(onlyRangeOf(await c.req(sub(), 'search', { query: 'gulyás', kind: 30023 })).elements).toEqual([s.article.id]);
    });

    it('drops deleted notes', async () => {
      expect(onlyRangeOf(await c.req(sub(), 'search', { query: 'törlendő' })).elements).toEqual([]);
      expect(onlyRangeOf(await c.req(sub(), 'search', { query: 'jegyzet' })).elements).toEqual([s.f1.id]);
    });

    it('refuses an empty query and bad arguments', async () => {
      expect(await notice('search', { query: '  ' })).toEqual(['query is empty']);
      expect(await notice('search', {})).toEqual(['query is empty']);
      expect(await notice('search', { query: 'a', since: -5 })).toEqual(['invalid since: must not be negative']);
      expect(await notice('search', { query: 'a', kind: 'x' })).toEqual(['invalid kind: expected a number']);
    });

    it('caps the page at 100', async () => {
      const r = await c.req(sub(), 'search', { query: 'a', limit: 5000 });
      expect(r.notices).toEqual([]);
      expect(onlyRangeOf(r).elements.length).toBeLessThanOrEqual(100);
    });
  });

  describe('advanced_search operators', () => {
    it('text: phrases, hashtags, negation and OR', async () => {
      expect(await adv('"gulyás leves"')).toEqual([s.d2.id]);
      expect(await adv('"leves gulyás"')).toEqual([]);
      expect(await adv('#főzés')).toEqual([s.d1.id]);
      expect(await adv('#fozes')).toEqual([s.d1.id]);
      expect(await adv('gulyás -leves')).toEqual([s.d1.id]);
      expect(await adv('gulyás -"jobb mint"')).toEqual([s.d1.id]);
      expect(await adv('halászlé OR videót')).toEqual([s.e1.id, s.d2.id]);
      expect(await adv('(halászlé OR videót) -halaszle')).toEqual([s.e1.id]);
      expect(await adv('filter:image -#tura')).toEqual([srv.net.n2.id]);
    });

    it('people: from, to, mention, zappedby, following', async () => {
      expect(await adv(`from:${nip19.npubEncode(s.dave.pk)}`)).toEqual([s.d3.id, s.d2.id, s.d1.id]);
      expect(await adv(`to:${s.dave.pk}`)).toEqual([s.eReply.id, s.fReply.id]);
      expect(await adv(`mention:${nip19.nprofileEncode({ pubkey: s.erin.pk })}`)).toEqual([s.d3.id]);
      expect(await adv(`zappedby:${s.frank.pk}`)).toEqual([s.e1.id]);
      expect(await adv(`following:${s.frank.pk} gulyás`)).toEqual([s.d2.id, s.d1.id]);
    });

    it('kinds, media, urls and time windows', async () => {
      expect(await adv('kind:30023')).toEqual([s.bareArticle.id, s.article.id]);
      expect(await adv('kind:30023 features:summary')).toEqual([s.article.id]);
      expect(await adv('kind:30023 csupasz')).toEqual([]);
      expect(await adv('kind:30023 felöltöztetett javítva')).toEqual([s.bareArticle.id]);
      expect(await adv('kind:30023 minwords:100 recept')).toEqual([s.article.id]);
      expect(await adv('filter:video')).toEqual([s.e1.id]);
      expect(await adv('url:media.example')).toEqual([s.e2.id, s.e1.id, srv.net.n2.id]);
      expect(await adv('gulyás until:2020-01-01')).toEqual([]);
      expect(await adv('gulyás since:2020-01-01 since:last1h')).toEqual([s.d2.id, s.d1.id]);
      expect(await adv('kind:1 repliestokind:1 from:' + s.erin.pk)).toEqual([s.eReply.id]);
    });

    it('thresholds and ordering', async () => {
      expect(await adv('minlikes:2')).toEqual([s.d2.id, srv.net.n1.id]);
      expect(await adv('minlikes:2 maxlikes:2')).toEqual([srv.net.n1.id]);
      expect(await adv('from:' + s.frank.pk + ' maxchars:20')).toEqual([s.f1.id]);
      expect(await adv('minlongreplies:2')).toEqual([s.d1.id]);
      expect(await adv('minsatszapped:21 minzaps:1')).toEqual([s.e1.id, srv.net.n1.id]);
      expect(await adv('minsatszapped:22')).toEqual([]);
      const r = await c.req(sub(), 'advanced_search', { query: `from:${s.dave.pk} orderby:likes` });
      const range = onlyRangeOf(r);
      expect(range.order_by).toBe('likes');
      expect(range.elements).toEqual([s.d2.id, s.d1.id, s.d3.id]);
      expect(range.until).toBe(3);
      const page2 = onlyRangeOf(await c.req(sub(), 'advanced_search', { query: `from:${s.dave.pk} orderby:likes`, until: 1 }));
      expect(page2.elements).toEqual([s.d1.id, s.d3.id]);
    });

    it('scopes relative to user_pubkey', async () => {
      const up = { user_pubkey: s.frank.pk };
      expect(await adv('gulyás scope:myfollows', up)).toEqual([s.d2.id, s.d1.id]);
      expect(await adv('scope:notmyfollows from:' + srv.net.bob.pk, up)).toEqual([srv.net.n2.id, srv.net.n1.id]);
      expect(await adv('scope:notmyfollows from:' + s.dave.pk, up)).toEqual([]);
      expect(await adv('scope:mynetwork from:' + srv.net.alice.pk, up)).toEqual([srv.net.r1.id]);
      expect(await adv('scope:mynetwork from:' + srv.net.bob.pk, up)).toEqual([]);
      expect(await adv('scope:myfollowsinteractions', up)).toEqual([s.d2.id, s.d1.id]);
      expect(await adv('scope:mynotifications', { user_pubkey: s.dave.pk })).toEqual([s.eReply.id, s.fReply.id]);
      expect(await adv('features:bookmarked-by-follows', { user_pubkey: s.dave.pk })).toEqual([s.e2.id]);
      // Without a viewer a viewer-relative scope matches nothing.
      expect(await adv('gulyás scope:myfollows')).toEqual([]);
    });

    it('answers broken queries with a NOTICE and EOSE', async () => {
      expect(await notice('advanced_search', { query: '"gulyás' })).toEqual(['unbalanced quotes']);
      expect(await notice('advanced_search', { query: '(gulyás OR leves' })).toEqual(['unbalanced parentheses']);
      expect(await notice('advanced_search', { query: 'kind:abc' })).toEqual(['invalid number in kind: abc']);
      expect(await notice('advanced_search', { query: 'from:valaki' })).toEqual(['invalid from: expected npub, nprofile or hex pubkey']);
      expect(await notice('advanced_search', { query: '' })).toEqual(['query is empty']);
      expect(await notice('advanced_search', { query: 'x', limit: 20_000 })).toEqual(['limit too big']);
      // Operators without data behind them are accepted.
      expect(await adv('gulyás lang:hu orientation:vertical')).toEqual([s.d2.id, s.d1.id]);
    });
  });

  it('parse_advanced_search_query describes the query', async () => {
    const r = await c.req(sub(), 'parse_advanced_search_query', {
      query: `gulyás -leves #főzés from:${nip19.npubEncode(s.dave.pk)} kind:30023 scope:myfollows orderby:likes minlikes:3 since:2024-01-01`,
    });
    expect(r.events).toHaveLength(1);
    expect(r.events[0].kind).toBe(10000180);
    expect(content(r.events[0])).toMatchObject({
      includes: 'gulyás',
      excludes: 'leves',
      hashtags: '#fozes',
      kind: 'Reads',
      postedBy: [s.dave.pk],
      scope: 'My Follows',
      sortBy: 'Likes',
      minLikes: 3,
      timeframe: 'Custom',
      customTimeframe: { since: '2024-01-01', until: '' },
    });
    expect(await notice('parse_advanced_search_query', { query: 'a)' })).toEqual(['unbalanced parentheses']);
  });

  describe('feeds backed by advanced search', () => {
    const mega = async (spec: Obj, extra: Obj = {}) => {
      const r = await c.req(sub(), 'mega_feed_directive', { spec: JSON.stringify(spec), ...extra });
      expect(r.notices).toEqual([]);
      return onlyRangeOf(r).elements;
    };

    it('runs advsearch, search and the notes ids of S §3.1', async () => {
      expect(await mega({ id: 'advsearch', query: '"gulyás leves"' })).toEqual([s.d2.id]);
      expect(await mega({ kind: 'notes', id: 'search', query: 'halászlé' })).toEqual([s.d2.id]);
      // Two long replies are not the five this feed asks for.
      expect(await mega({ kind: 'notes', id: 'engaging-discussions' })).toEqual([]);
      const tweets = await c.req(sub(), 'mega_feed_directive', { spec: JSON.stringify({ kind: 'notes', id: 'only-tweets' }), limit: 100 });
      const elements = onlyRangeOf(tweets).elements;
      expect(elements).toContain(s.f1.id);
      const texts = tweets.events.filter((e) => elements.includes(String(e.id))).map((e) => [...String(e.content)].length);
      expect(texts).toHaveLength(elements.length);
      expect(Math.max(...texts)).toBeLessThanOrEqual(140);
      expect(await mega({ kind: 'notes', id: 'bookmarked-by-follows' }, { user_pubkey: s.dave.pk })).toEqual([s.e2.id]);
      expect(await mega({ kind: 'notes', id: 'wide-net-notes' }, { user_pubkey: s.frank.pk })).toEqual([s.d2.id, s.d1.id]);
      const strange = await mega({ kind: 'notes', id: 'strange-but-popular' }, { user_pubkey: s.frank.pk });
      expect(strange).toEqual(expect.arrayContaining([srv.net.n1.id, srv.net.n2.id]));
      expect(strange).not.toContain(s.d2.id);
      expect(await mega({ kind: 'notes', id: 'video-reels' })).toEqual([]);
    });

    it('runs the reads specs', async () => {
      expect(await mega({ id: 'nostr-reads-feed' }, { user_pubkey: s.frank.pk })).toEqual([s.article.id]);
      expect(await mega({ kind: 'reads', scope: 'follows' }, { user_pubkey: s.frank.pk })).toEqual([s.article.id]);
    });

    it('refuses an advsearch spec without a query', async () => {
      const r = await c.req(sub(), 'mega_feed_directive', { spec: JSON.stringify({ id: 'advsearch' }) });
      expect(r.notices).toEqual(['query is empty']);
    });

    it('advanced_feed takes a spec or a command call', async () => {
      const spec = await c.req(sub(), 'advanced_feed', { specification: JSON.stringify({ id: 'advsearch', query: 'halászlé' }) });
      expect(onlyRangeOf(spec).elements).toEqual([s.d2.id]);
      const call = await c.req(sub(), 'advanced_feed', { specification: ['advanced_search', { query: 'videót' }] });
      expect(onlyRangeOf(call).elements).toEqual([s.e1.id]);
      expect(await notice('advanced_feed', { specification: '{nem json' })).toEqual(['invalid spec format']);
      expect(await notice('advanced_feed', { specification: ['nincs_ilyen', {}] })).toEqual(['unknown api request']);
    });
  });

  it('answers the plain search filters of S §1.1', async () => {
    const u = await c.raw(JSON.stringify(['REQ', 'p1', { search: 'gulya', kinds: [0] }]), 'p1');
    expect(users(u)).toEqual([s.erin.pk, s.dave.pk]);
    const notes = await c.raw(JSON.stringify(['REQ', 'p2', { search: 'halászlé' }]), 'p2');
    expect(onlyRangeOf(notes).elements).toEqual([s.d2.id]);
    const bad = await c.raw(JSON.stringify(['REQ', 'p3', { search: 'x', kinds: [7] }]), 'p3');
    expect(bad.notices).toEqual(['kinds or authors filter is not supported']);
  });

  // Runs last: it changes the store.
  it('takes back what a deleted reply and profile added', async () => {
    const c2 = await srv.connect();
    const deletions = [
      finalizeEvent({ kind: 5, created_at: srv.net.t(300), content: '', tags: [['e', s.eReply.id]] }, s.erin.sk),
      finalizeEvent({ kind: 5, created_at: srv.net.t(301), content: '', tags: [['e', s.profiles[0].id]] }, s.dave.sk),
    ];
    expect((await srv.ctx.importer.importEvents(deletions)).map((r) => r.ok)).toEqual([true, true]);
    expect(onlyRangeOf(await c2.req('d1', 'advanced_search', { query: 'minlongreplies:2' })).elements).toEqual([]);
    expect(onlyRangeOf(await c2.req('d2', 'advanced_search', { query: 'minlongreplies:1' })).elements).toEqual([s.d1.id]);
    expect(onlyRangeOf(await c2.req('d3', 'advanced_search', { query: `to:${s.dave.pk}` })).elements).toEqual([s.fReply.id]);
    expect(users(await c2.req('d4', 'user_search', { query: 'gulya' }))).toEqual([s.erin.pk]);
  });
});
