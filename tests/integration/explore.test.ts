/**
 * Explore, rankings, people and topics, and the profile side panels, over the explore network
 * (tests/integration/explore-fixtures.ts) imported beside the shared fixtures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { content, ofKind, rangeOf, type CacheClient } from './cache-client.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import { buildExploreNetwork, type ExploreNetwork } from './explore-fixtures.ts';

type Obj = Record<string, unknown>;

describe.each(['sqlite', 'postgres'] as const)('explore on %s', (store) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  let x: ExploreNetwork;

  beforeAll(async () => {
    srv = await startCacheServer(store);
    x = buildExploreNetwork(srv.ctx.now());
    const results = await srv.ctx.importer.importEvents(x.all);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    c = await srv.connect();
  });

  afterAll(async () => {
    await srv?.stop();
  });

  const explore = async (kwargs: Obj) => rangeOf((await c.req('ex', 'explore', kwargs)).events);

  it('ranks by the timeframe field, only authors with five followers, with the time floor except for popular', async () => {
    const trending = await explore({ timeframe: 'trending', scope: 'global' });
    expect(trending.order_by).toBe('score24h');
    expect(trending.elements[0]).toBe(x.a1.id);
    expect(new Set(trending.elements)).toEqual(new Set([x.a1.id, x.b2.id, x.b1.id]));

    const popular = await explore({ timeframe: 'popular' });
    expect(popular.order_by).toBe('score');
    expect(popular.elements).toContain(x.a3.id);

    const zapped = await explore({ timeframe: 'mostzapped' });
    expect(zapped).toMatchObject({ order_by: 'satszapped', elements: [x.a1.id, x.b2.id], since: 500, until: 11050 });
    const next = await explore({ timeframe: 'mostzapped', until: 11049 });
    expect(next.elements).toEqual([x.b2.id]);

    const latest = await explore({ timeframe: 'latest', limit: 100 });
    expect(latest.elements).toEqual([x.b1.id, x.a1.id, x.a2.id, x.b2.id]);
  });

  it('pages latest with until = RANGE.since and offset, one post per author when grouped', async () => {
    const seen: string[] = [];
    let until: number | undefined;
    for (let page = 0; page < 10; page++) {
      const r = await explore({ timeframe: 'latest', limit: 1, ...(until ? { until, offset: 1 } : {}) });
      if (!r.elements.length) break;
      seen.push(...r.elements);
      until = r.since;
    }
    expect(seen).toEqual([x.b1.id, x.a1.id, x.a2.id, x.b2.id]);
    const grouped = await explore({ timeframe: 'latest', group_by_pubkey: true });
    expect(grouped.elements).toEqual([x.b1.id, x.a1.id]);
  });

  it('honours the scope and the viewer mutes', async () => {
    const follows = await explore({ timeframe: 'latest', scope: 'follows', user_pubkey: x.vic.pk });
    expect(follows.elements).toEqual([x.a1.id, x.a2.id]);
    const anonymous = await c.req('ex0', 'explore', { timeframe: 'latest', scope: 'follows' });
    expect(anonymous.events).toEqual([{ kind: 10000113, content: JSON.stringify({ order_by: 'created_at', elements: [] }) }]);
    const tribe = await explore({ timeframe: 'latest', scope: 'tribe', user_pubkey: x.pal.pk });
    expect(tribe.elements).toEqual([x.a1.id, x.a2.id]);
    // vic muted ben: ben's posts go, and so does nothing else.
    const asVic = await explore({ timeframe: 'latest', user_pubkey: x.vic.pk });
    expect(asVic.elements).toEqual([x.a1.id, x.a2.id]);
  });

  it('answers bad arguments with a NOTICE and EOSE, and caps the limit', async () => {
    for (const kwargs of [{ timeframe: 'tegnap' }, { scope: 'mindenki' }, { limit: 'sok' }, { until: -5 }, { user_pubkey: 'xyz' }]) {
      const r = await c.req('bad', 'explore', kwargs);
      expect(r.notices.length).toBe(1);
      expect(r.frames.at(-1)?.msg[0]).toBe('EOSE');
    }
    const big = await explore({ timeframe: 'latest', limit: 5000 });
    expect(big.elements.length).toBeLessThanOrEqual(50);
  });

  it('serves explore_media, and hall-of-fame-notes and explore-zaps through mega_feed_directive', async () => {
    const media = rangeOf((await c.req('m', 'explore_media', {})).events);
    expect(media.elements).toEqual([srv.net.n2.id, x.a2.id]);
    const direct = rangeOf((await c.req('m2', 'explore_media', { limit: 1 })).events);
    expect(direct.elements).toEqual([srv.net.n2.id]);

    const fame = rangeOf((await c.req('h', 'mega_feed_directive', { spec: JSON.stringify({ id: 'hall-of-fame-notes' }) })).events);
    expect(fame.order_by).toBe('score');
    expect(fame.elements).toContain(x.a3.id);

    const zaps = await c.req('z', 'mega_feed_directive', { spec: JSON.stringify({ id: 'explore-zaps' }), user_pubkey: x.vic.pk });
    const r = rangeOf(zaps.events);
    // ben's zap is left out for vic, who muted him; the two-day-old one is outside the window.
    expect(r).toMatchObject({ order_by: 'amount_sats', since: 21, until: 2100 });
    expect(r.elements).toEqual([x.zapArticle.id, x.zapBig.id, x.zapMid.id, srv.net.zapReceipt.id]);
    // The zap list comes first; the zapped posts' bundle after it brings their own top zaps.
    expect(ofKind(zaps.events, 10000129).slice(0, 4).map((z) => content(z).amount_sats)).toEqual([2100, 1000, 500, 21]);
    expect(ofKind(zaps.events, 10000100).length).toBeGreaterThan(0);
  });

  it('explore_zaps pages on the amount', async () => {
    const r = await c.req('ez', 'explore_zaps', { until: 999, limit: 2 });
    expect(rangeOf(r.events).elements).toEqual([x.zapMid.id, x.zapSmall.id]);
  });

  it('scored selectors and scored_users', async () => {
    const gm = await c.req('gm', 'scored', { selector: 'gm_trending_24h' });
    expect(ofKind(gm.events, 1).map((e) => e.id)).toEqual([x.b1.id]);
    const trending = await c.req('tr', 'scored', { selector: 'trending_4h' });
    expect(ofKind(trending.events, 1).map((e) => e.id)).not.toContain(x.b1.id);
    for (const sel of ['classic_trending_12h', 'mostzapped_1h']) expect((await c.req('s', 'scored', { selector: sel })).notices).toEqual([]);
    expect((await c.req('s', 'scored', { selector: 'trending_2h' })).notices).toEqual(['unknown selector']);

    const users = await c.req('su', 'scored_users_24h', {});
    expect(ofKind(users.events, 0).map((e) => e.pubkey)).toEqual([x.ann.pk, x.ben.pk]);
    const scores = content<Record<string, number>>(ofKind(users.events, 10000108)[0]);
    expect(Object.keys(scores)).toEqual([x.ann.pk, x.ben.pk]);
    expect(scores[x.ann.pk]).toBeGreaterThan(scores[x.ben.pk]);
    const week = await c.req('sw', 'scored_users', { since: srv.ctx.now() - 8 * 86400 });
    expect(week.notices).toEqual(['since too old: at most 7 days back']);
    const ok = await c.req('sw2', 'scored_users', { since: srv.ctx.now() - 6 * 86400, limit: 1 });
    expect(ofKind(ok.events, 0).map((e) => e.pubkey)).toEqual([x.ann.pk]);
  });

  it('explore_people ranks by daily follower gain, without follows, self or profiles lacking about', async () => {
    const r = await c.req('ep', 'explore_people', { user_pubkey: x.pal.pk });
    const range = rangeOf(r.events);
    expect(range.order_by).toBe('increase');
    expect(range.elements[0]).toBe(x.riser.pk);
    expect(range.elements).not.toContain(x.noabout.pk);
    expect(range.elements).not.toContain(x.ann.pk);
    expect(range.elements).not.toContain(x.vic.pk);
    expect(r.events[0].kind).toBe(10000157);
    expect(content(r.events[0])[x.riser.pk]).toEqual({ increase: 5, ratio: 5, count: 5 });
    expect(ofKind(r.events, 0)[0].pubkey).toBe(x.riser.pk);
    expect(ofKind(r.events, 10000133).length).toBe(1);

    const paged = rangeOf((await c.req('ep2', 'explore_people', { user_pubkey: x.pal.pk, until: 4 })).events);
    expect(paged.elements).not.toContain(x.riser.pk);
    expect((await c.req('ep3', 'explore_people', { limit: 'x' })).notices).toEqual(['invalid limit: expected a number']);
  });

  it('user_profile carries followers_increase; legend counts, topics and hashtags', async () => {
    const p = await c.req('up', 'user_profile', { pubkey: x.riser.pk });
    expect(content(ofKind(p.events, 10000105)[0])).toMatchObject({
      followers_count: 5,
      follows_count: 1,
      followers_increase: { increase: 5, ratio: 5, count: 5 },
    });

    const legend = await c.req('lc', 'explore_legend_counts', { pubkey: x.vic.pk });
    expect(legend.events[0]).toMatchObject({ kind: 10000102, pubkey: x.vic.pk });
    expect(content(legend.events[0])).toMatchObject({ your_follows: 2, your_inner_network: 2, your_outer_network: 3 });
    expect(content<{ all_users: number }>(legend.events[0]).all_users).toBe(x.fans.length + 6 + 3);

    const topics = await c.req('tp', 'explore_topics');
    expect(topics.events[0].kind).toBe(10000160);
    expect(content(topics.events[0])).toEqual({ nostr: 2, magyar: 1, gm: 1 });

    const tags = await c.req('th', 'trending_hashtags_7d');
    const pairs = content<[string, number][]>(tags.events[0]);
    expect(tags.events[0].kind).toBe(10000116);
    expect(pairs.map((p) => p[0]).sort()).toEqual(['gm', 'magyar', 'nostr']);
    expect(pairs.every((p) => typeof p[1] === 'number')).toBe(true);
  });

  it('profile panels: scored content, followed-by and followers', async () => {
    const scored = await c.req('sc', 'user_profile_scored_content', { pubkey: x.ann.pk, limit: 2 });
    expect(scored.events.every((e) => (e.kind === 0 || e.kind === 1) && e.pubkey === x.ann.pk)).toBe(true);
    expect(ofKind(scored.events, 1).map((e) => e.id)).toEqual([x.a1.id, x.a3.id]);
    const media = await c.req('sm', 'user_profile_scored_media_thumbnails', { pubkey: x.ann.pk });
    expect(ofKind(media.events, 1).map((e) => e.id)).toEqual([x.a2.id]);

    const by = await c.req('fb', 'user_profile_followed_by', { pubkey: x.ann.pk, user_pubkey: x.vic.pk });
    expect(ofKind(by.events, 0).map((e) => e.pubkey)).toEqual([x.pal.pk]);

    const followers = await c.req('uf', 'user_followers', { pubkey: x.f1.pk });
    expect(ofKind(followers.events, 0).map((e) => e.pubkey)).toEqual([x.riser.pk]);
    const fans = await c.req('uf2', 'user_followers', { pubkey: x.riser.pk, limit: 3 });
    expect(ofKind(fans.events, 0)[0].pubkey).toBe(x.f1.pk);
    expect(ofKind(fans.events, 0)).toHaveLength(3);
    const mutual = await c.req('mf', 'mutual_follows', { pubkey: x.vic.pk });
    expect(ofKind(mutual.events, 0).map((e) => e.pubkey)).toEqual([x.pal.pk]);
  });

  it('a deleted note takes its hashtags and its ranking with it', async () => {
    const deletion = x.sign(x.ben, 5, srv.ctx.now(), '', [['e', x.b1.id]]);
    expect((await srv.ctx.importer.importEvents([deletion]))[0].ok).toBe(true);
    expect(content((await c.req('tp2', 'explore_topics')).events[0])).toEqual({ nostr: 2, magyar: 1 });
    expect((await explore({ timeframe: 'trending' })).elements).not.toContain(x.b1.id);
  });
});
