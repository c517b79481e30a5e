/**
 * Who acted on a note, quotes and mentions, and the zap lists, over the explore network
 * (tests/integration/explore-fixtures.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { content, ofKind, rangeOf, type CacheClient } from './cache-client.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import { buildExploreNetwork, type ExploreNetwork } from './explore-fixtures.ts';

type Obj = Record<string, unknown>;
const raw = (events: Obj[]) => events.filter((e) => typeof e.sig === 'string');
const amounts = (events: Obj[]) => ofKind(events, 10000129).map((z) => content<{ amount_sats: number }>(z).amount_sats);

describe.each(['sqlite', 'postgres'] as const)('actions and zaps on %s', (store) => {
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

  it('event_actions lists each acting kind newest first, then the actors', async () => {
    const likes = await c.req('ea', 'event_actions', { event_id: x.a1.id, kind: 7, limit: 20 });
    const [l1, l2, l3] = x.reactions;
    expect(raw(likes.events).filter((e) => e.kind === 7).map((e) => e.id)).toEqual([l3.id, l2.id, l1.id]);
    expect(new Set(ofKind(likes.events, 0).map((e) => e.pubkey))).toEqual(new Set([x.f1.pk, x.f2.pk, x.f3.pk]));
    expect(ofKind(likes.events, 10000108)).toHaveLength(1);

    const paged = await c.req('ea2', 'event_actions', { event_id: x.a1.id, kind: 7, limit: 1, offset: 1 });
    expect(ofKind(paged.events, 7).map((e) => e.id)).toEqual([l2.id]);
    expect(ofKind((await c.req('ea3', 'event_actions', { event_id: x.a1.id, kind: 6 })).events, 6).map((e) => e.id)).toEqual([x.repost.id]);
    // Replies only: quotes and mentions are note_mentions.
    expect(ofKind((await c.req('ea4', 'event_actions', { event_id: x.a1.id, kind: 1 })).events, 1).map((e) => e.id)).toEqual([x.reply.id]);
    const zaps = await c.req('ea5', 'event_actions', { event_id: x.a1.id, kind: 9735 });
    expect(ofKind(zaps.events, 9735).map((e) => e.id)).toEqual([x.zapSmall.id, x.zapBig.id, x.zapOld.id]);
    // The zapper is the zap request's author, not the wallet.
    expect(new Set(ofKind(zaps.events, 0).map((e) => e.pubkey))).toEqual(new Set([x.f1.pk, x.ben.pk]));

    const byAddress = await c.req('ea6', 'event_actions', { pubkey: x.ann.pk, identifier: 'art1', kind: 9735 });
    expect(ofKind(byAddress.events, 9735).map((e) => e.id)).toEqual([x.zapArticle.id]);
  });

  it('event_actions refuses bad arguments with a NOTICE', async () => {
    const cases: [Obj, string][] = [
      [{ event_id: x.a1.id, kind: 5 }, 'unsupported kind: expected 7, 6, 9735 or 1'],
      [{ event_id: x.a1.id }, 'missing kind'],
      [{ kind: 7 }, 'missing event_id, or pubkey and identifier'],
      [{ event_id: 'abc', kind: 7 }, 'invalid event_id: expected 64 hex characters'],
      [{ event_id: x.a1.id, kind: 7, limit: 20_000 }, 'limit too big'],
    ];
    for (const [kwargs, notice] of cases) {
      const r = await c.req('bad', 'event_actions', kwargs);
      expect(r.notices).toEqual([notice]);
      expect(r.frames.at(-1)?.msg).toEqual(['EOSE', 'bad']);
    }
  });

  it('find_reposts, note_mentions and note_mentions_count', async () => {
    const reposts = await c.req('fr', 'find_reposts', { event_id: x.a1.id, pubkey: x.f4.pk });
    expect(reposts.events.map((e) => e.id)).toEqual([x.repost.id]);
    expect((await c.req('fr2', 'find_reposts', { event_id: x.a1.id, pubkey: x.f1.pk })).events).toEqual([]);

    const mentions = await c.req('nm', 'note_mentions', { event_id: x.a1.id, user_pubkey: x.vic.pk });
    expect(rangeOf(mentions.events)).toMatchObject({ order_by: 'created_at', elements: [x.mention.id, x.quote.id] });
    expect(ofKind(mentions.events, 10000100).length).toBeGreaterThan(0);
    const count = await c.req('nc', 'note_mentions_count', { event_id: x.a1.id });
    expect(count.events).toEqual([{ kind: 10000143, content: JSON.stringify({ event_id: x.a1.id, count: 2 }) }]);
    const none = await c.req('nm2', 'note_mentions', { pubkey: x.ann.pk, identifier: 'nincs' });
    expect(rangeOf(none.events).elements).toEqual([]);
  });

  it('event_zaps_by_satszapped: biggest first, paged on the amount, as the zap bundle', async () => {
    const r = await c.req('ez', 'event_zaps_by_satszapped', { event_id: x.a1.id });
    expect(rangeOf(r.events)).toMatchObject({ order_by: 'amount_sats', since: 50, until: 10000 });
    expect(rangeOf(r.events).elements).toEqual([x.zapOld.id, x.zapBig.id, x.zapSmall.id]);
    expect(amounts(r.events)).toEqual([10000, 1000, 50]);
    expect(ofKind(r.events, 9735)).toHaveLength(3);
    expect(raw(r.events).filter((e) => e.id === x.a1.id)).toHaveLength(1);
    expect(content(ofKind(r.events, 10000129)[0])).toEqual({
      event_id: x.a1.id,
      created_at: x.zapOld.created_at,
      sender: x.f1.pk,
      receiver: x.ann.pk,
      amount_sats: 10000,
      zap_receipt_id: x.zapOld.id,
    });
    expect(Object.keys(content(ofKind(r.events, 10000108)[0]))).toEqual(expect.arrayContaining([x.f1.pk, x.ann.pk, x.ben.pk]));

    expect(amounts((await c.req('ez2', 'event_zaps_by_satszapped', { event_id: x.a1.id, until: 1000 })).events)).toEqual([1000, 50]);
    expect(amounts((await c.req('ez3', 'event_zaps_by_satszapped', { event_id: x.a1.id, since: 100, limit: 1 })).events)).toEqual([10000]);
    // vic muted ben, so ben's zap is left out for him.
    expect(amounts((await c.req('ez4', 'event_zaps_by_satszapped', { event_id: x.a1.id, user_pubkey: x.vic.pk })).events)).toEqual([
      10000, 1000,
    ]);
    const article = await c.req('ez5', 'event_zaps_by_satszapped', { pubkey: x.ann.pk, identifier: 'art1', kind: 30023 });
    expect(amounts(article.events)).toEqual([2100]);
    expect((await c.req('ez6', 'event_zaps_by_satszapped', { event_id: x.a1.id, since: 'sok' })).notices).toEqual([
      'invalid since: expected a number',
    ]);
  });

  it('user_zaps, user_zaps_sent, user_zaps_by_satszapped and zaps_feed', async () => {
    const sent = await c.req('us', 'user_zaps_sent', { sender: x.f1.pk });
    expect(rangeOf(sent.events)).toMatchObject({ order_by: 'created_at', elements: [x.zapBig.id, x.zapOld.id] });
    const older = await c.req('us2', 'user_zaps_sent', { sender: x.f1.pk, until: x.zapBig.created_at - 1 });
    expect(rangeOf(older.events).elements).toEqual([x.zapOld.id]);

    const received = await c.req('uz', 'user_zaps', { receiver: x.ann.pk });
    expect(rangeOf(received.events).elements).toEqual([x.zapSmall.id, x.zapBig.id, x.zapArticle.id, x.zapOld.id]);
    const pair = await c.req('uz2', 'user_zaps', { sender: x.f1.pk, receiver: x.ann.pk, limit: 1 });
    expect(rangeOf(pair.events).elements).toEqual([x.zapBig.id]);
    expect((await c.req('uz3', 'user_zaps', {})).notices).toEqual(['missing sender or receiver']);

    const ranked = await c.req('ub', 'user_zaps_by_satszapped', { receiver: x.ann.pk });
    expect(amounts(ranked.events)).toEqual([10000, 2100, 1000, 50]);
    expect(rangeOf(ranked.events).order_by).toBe('amount_sats');

    const feed = await c.req('zf', 'zaps_feed', { pubkeys: [x.ben.pk] });
    expect(rangeOf(feed.events).elements).toEqual([x.zapSmall.id, x.zapMid.id]);
    expect((await c.req('zf2', 'zaps_feed', { pubkeys: ['x'] })).notices).toEqual(['invalid pubkeys: expected 64 hex characters']);
  });
});
