/**
 * Long-form reads: the reads feeds, the article thread view, highlights, drafts and addressable
 * events by the batch, over the explore network (tests/integration/explore-fixtures.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { content, ofKind, rangeOf, type CacheClient } from './cache-client.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import { buildExploreNetwork, type ExploreNetwork } from './explore-fixtures.ts';

type Obj = Record<string, unknown>;
const raw = (events: Obj[]) => events.filter((e) => typeof e.sig === 'string');

describe.each(['sqlite', 'postgres'] as const)('reads on %s', (store) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  let x: ExploreNetwork;

  beforeAll(async () => {
    srv = await startCacheServer(store);
    x = buildExploreNetwork(srv.ctx.now());
    const results = await srv.ctx.importer.importEvents(x.all);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    c = await srv.connect();
    await c.enableZlib();
  });

  afterAll(async () => {
    await srv?.stop();
  });

  const feed = async (kwargs: Obj) => (await c.req('lf', 'long_form_content_feed', kwargs)).events;
  const mega = async (spec: Obj, kwargs: Obj = {}) =>
    rangeOf((await c.req('mf', 'mega_feed_directive', { spec: JSON.stringify(spec), ...kwargs })).events).elements;

  it('lists the newest version of each article by published_at, with word counts', async () => {
    const events = await feed({});
    const range = rangeOf(events);
    // art1's published_at tag (5 h ago) beats art2's created_at (6 h ago); v1 is superseded.
    expect(range).toMatchObject({ order_by: 'published_at', elements: [x.art1v2.id, x.art2.id] });
    expect(range.until).toBe(Number(x.art1v2.tags.find((t) => t[0] === 'published_at')![1]));
    expect(range.since).toBe(x.art2.created_at);
    const words = ofKind(events, 10000144).map((w) => content(w));
    expect(words).toContainEqual({ event_id: x.art1v2.id, words: 150 });
    expect(words).toContainEqual({ event_id: x.art2.id, words: 20 });
  });

  it('filters by words, topic, author, follows, zaps by follows and curation', async () => {
    expect(rangeOf(await feed({ minwords: 100 })).elements).toEqual([x.art1v2.id]);
    expect(rangeOf(await feed({ topic: 'Bitcoin Magyarország' })).elements).toEqual([x.art1v2.id]);
    expect(rangeOf(await feed({ topic: 'nostr' })).elements).toEqual([x.art2.id]);
    expect(rangeOf(await feed({ pubkey: x.ben.pk, notes: 'authored' })).elements).toEqual([x.art2.id]);
    expect(rangeOf(await feed({ pubkey: x.vic.pk })).elements).toEqual([x.art1v2.id]);
    expect(rangeOf(await feed({ pubkey: x.vic.pk, notes: 'zappedbyfollows' })).elements).toEqual([x.art1v2.id]);
    expect(rangeOf(await feed({ pubkey: x.ann.pk, notes: 'zappedbyfollows' })).elements).toEqual([]);
    expect(rangeOf(await feed({ pubkey: x.ben.pk, curation: 'kedvencek' })).elements).toEqual([x.art1v2.id]);
  });

  it('pages with until = RANGE.since and answers bad arguments with a NOTICE', async () => {
    const first = rangeOf(await feed({ limit: 1 }));
    expect(first.elements).toEqual([x.art1v2.id]);
    const second = rangeOf(await feed({ limit: 1, until: first.since, offset: 1 }));
    expect(second.elements).toEqual([x.art2.id]);
    for (const kwargs of [{ notes: 'kedvencek' }, { limit: 'sok' }, { pubkey: 'nem-hex' }, { minwords: -1 }]) {
      const r = await c.req('bad', 'long_form_content_feed', kwargs);
      expect(r.notices).toHaveLength(1);
      expect(r.frames.at(-1)?.msg).toEqual(['EOSE', 'bad']);
    }
  });

  it('serves the reads specs of mega_feed_directive', async () => {
    expect(await mega({ kind: 'reads', minwords: 0 })).toEqual([x.art1v2.id, x.art2.id]);
    expect(await mega({ kind: 'reads' })).toEqual([x.art1v2.id]);
    expect(await mega({ kind: 'reads', topic: 'nostr', minwords: 0 })).toEqual([x.art2.id]);
    expect(await mega({ kind: 'reads', pubkey: x.ben.pk, curation: 'kedvencek' })).toEqual([x.art1v2.id]);
    expect(await mega({ id: 'feed', kind: 'reads', pubkey: x.ben.pk, notes: 'authored' })).toEqual([x.art2.id]);
    expect(await mega({ kind: 'reads', scope: 'zappedbyfollows' }, { user_pubkey: x.vic.pk })).toEqual([x.art1v2.id]);
    expect(await mega({ kind: 'reads', scope: 'zappedbyfollows' })).toEqual([]);
    // Bad kinds or paging are refused before the spec table picks a feed, reads and explore ones included.
    for (const [spec, extra, notice] of [
      [{ kind: 'reads', kinds: ['cikk'] }, {}, 'invalid kinds: expected an array of kind numbers'],
      [{ id: 'hall-of-fame-notes', kinds: 'sok' }, {}, 'invalid kinds: expected an array of kind numbers'],
      [{ kind: 'reads' }, { limit: 'sok' }, undefined],
    ] as const) {
      const r = await c.req('badspec', 'mega_feed_directive', { spec: JSON.stringify(spec), ...extra });
      expect(r.notices).toHaveLength(1);
      if (notice) expect(r.notices[0]).toBe(notice);
    }
  });

  it('long_form_content_thread_view: the article, then replies to any version or to the address', async () => {
    const r = await c.req('tv', 'long_form_content_thread_view', { pubkey: x.ann.pk, kind: 30023, identifier: 'art1', user_pubkey: x.vic.pk });
    expect(r.events[0].id).toBe(x.art1v2.id);
    const range = rangeOf(r.events);
    expect(range.order_by).toBe('created_at');
    expect(range.elements).toEqual([x.articleReplyByAddress.id, x.articleReplyById.id]);
    expect(ofKind(r.events, 10000113)).toHaveLength(1);
    const paged = await c.req('tv2', 'long_form_content_thread_view', { pubkey: x.ann.pk, identifier: 'art1', limit: 1 });
    expect(rangeOf(paged.events).elements).toEqual([x.articleReplyByAddress.id]);
    const missing = await c.req('tv3', 'long_form_content_thread_view', { pubkey: x.ann.pk, identifier: 'nincs' });
    expect(rangeOf(missing.events).elements).toEqual([]);
    expect((await c.req('tv4', 'long_form_content_thread_view', { pubkey: x.ann.pk })).notices).toEqual(['missing identifier']);
  });

  it('get_highlights: highlights, notes pointing at the article, quote groups and enriched replies', async () => {
    const r = await c.req('hl', 'get_highlights', { pubkey: x.ann.pk, identifier: 'art1', kind: 30023, user_pubkey: x.vic.pk });
    const ids = raw(r.events).map((e) => e.id);
    expect(ids.slice(0, 2)).toEqual([x.highlight.id, x.articlePointer.id]);
    expect(ids).toContain(x.highlightReply.id);
    expect(ids).toContain(x.highlightQuote.id);
    expect(ofKind(r.events, 0).map((e) => e.pubkey)).toContain(x.f1.pk);
    expect(content(ofKind(r.events, 10000151)[0])).toEqual({ 'kiemelt mondat': [x.highlightQuote.id] });
    expect(ofKind(r.events, 10000113)).toEqual([]);
    const bad = await c.req('hl2', 'get_highlights', { event_id: x.a1.id });
    expect(bad.notices).toEqual(['get_highlights takes pubkey, identifier and kind, not event_id']);
  });

  it('drafts and parametrized_replaceable_events', async () => {
    const d = await c.req('dr', 'drafts', { pubkey: x.ann.pk, kind: 30023 });
    expect(raw(d.events).map((e) => e.id)).toEqual([x.draft.id]);
    expect(rangeOf(d.events).elements).toEqual([x.draft.id]);
    expect(rangeOf((await c.req('dr2', 'drafts', { pubkey: x.ann.pk, kind: 1 })).events).elements).toEqual([]);

    const events = [
      { pubkey: x.ann.pk, kind: 30023, identifier: 'art1' },
      { pubkey: x.ben.pk, kind: 30023, identifier: 'art2' },
      { pubkey: x.ben.pk, kind: 30023, identifier: 'nincs' },
    ];
    const plain = await c.req('pr', 'parametrized_replaceable_events', { events, extended_response: false });
    expect(plain.events.map((e) => e.id)).toEqual([x.art1v2.id, x.art2.id]);
    const ext = await c.req('pr2', 'parametrized_replaceable_events', { events });
    expect(ofKind(ext.events, 10000100).length).toBe(2);
    expect(ofKind(ext.events, 0).map((e) => e.pubkey)).toEqual(expect.arrayContaining([x.ann.pk, x.ben.pk]));
    for (const bad of [{ events: 'x' }, { events: [{ pubkey: x.ann.pk, kind: 1, identifier: '' }] }]) {
      expect((await c.req('pr3', 'parametrized_replaceable_events', bad)).notices).toHaveLength(1);
    }
  });

  it('a deleted article leaves the feeds', async () => {
    const deletion = x.sign(x.ben, 5, srv.ctx.now(), '', [['a', `30023:${x.ben.pk}:art2`]]);
    expect((await srv.ctx.importer.importEvents([deletion]))[0].ok).toBe(true);
    expect(rangeOf(await feed({})).elements).toEqual([x.art1v2.id]);
    expect(rangeOf(await feed({ topic: 'nostr' })).elements).toEqual([]);
  });
});
