/**
 * A started server builds the newest notes' bundles and the newest contact lists' follows feeds once
 * (server/cache/warm.ts, issue 18), so its first requests find the caches full: after warming, a note
 * reply must read no note, counter or zap from the store, a follows feed no author's posts, and every
 * reply must be the same as one built from empty caches. Then it answers a first screen's requests
 * once and throws them away (server/cache/rehearse.ts), which must change no reply either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hotCaches, KeyedLru } from '../../server/cache/hot-cache.ts';
import { rehearseCommands } from '../../server/cache/rehearse.ts';
import { warmHotCaches } from '../../server/cache/warm.ts';
import type { CacheClient } from './cache-client.ts';
import { startCacheServer, watchReads, type CacheTestServer, type StoreKind } from './cache-server.ts';

describe.each(['sqlite', 'postgres'] as const)('caches warmed at start (%s)', (store: StoreKind) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  let noteReads = 0;
  let postReads = 0;
  let seq = 0;

  beforeAll(async () => {
    // The test server starts unwarmed (WARM_CACHES=0): this test warms it itself, once the fixtures are in.
    srv = await startCacheServer(store);
    watchReads(srv, (sql) => {
      if (/FROM events e WHERE e\.id IN|FROM event_stats WHERE event_id IN|FROM zaps z WHERE target_event_id IN/.test(sql)) noteReads++;
      if (/FROM posts\s+WHERE pubkey/.test(sql)) postReads++;
    });
    c = await srv.connect();
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  const emptyCaches = () => {
    for (const cache of Object.values(hotCaches(srv.ctx.db)!)) if (cache instanceof KeyedLru) cache.clear();
  };
  const replies = async () => {
    const { alice, bob, carol, n1, n2, quote, r1, r2 } = srv.net;
    const asks: [string, Record<string, unknown>][] = [
      ['feed', { pubkey: alice.pk, notes: 'follows', limit: 20, user_pubkey: alice.pk }],
      ['mega_feed_directive', { spec: JSON.stringify({ id: 'latest', kind: 'notes' }), user_pubkey: alice.pk, limit: 20 }],
      ['thread_view', { event_id: n1.id, limit: 20, user_pubkey: carol.pk }],
      ['events', { event_ids: [n1.id, n2.id, quote.id, r1.id, r2.id], extended_response: true }],
      ['user_infos', { pubkeys: [alice.pk, bob.pk, carol.pk] }],
    ];
    const out = [];
    for (const [command, args] of asks) {
      const r = await c.req(`w${seq++}`, command, args);
      expect(r.notices).toEqual([]);
      out.push(r.events);
    }
    return out;
  };

  it('after warming a note page and a follows feed read nothing, and every reply equals the one built cold', async () => {
    emptyCaches();
    const cold = await replies();
    emptyCaches();
    await warmHotCaches(srv.ctx).done;
    noteReads = 0;
    const { n1, n2, quote, r1, r2 } = srv.net;
    const page = await c.req(`w${seq++}`, 'events', { event_ids: [n1.id, n2.id, quote.id, r1.id, r2.id], extended_response: true });
    expect(page.notices).toEqual([]);
    expect(noteReads).toBe(0);
    postReads = 0;
    const feed = await c.req(`w${seq++}`, 'feed', { pubkey: srv.net.alice.pk, notes: 'follows', limit: 20, user_pubkey: srv.net.alice.pk });
    expect(feed.notices).toEqual([]);
    expect(postReads).toBe(0);
    expect(await replies()).toEqual(cold);
  });

  it('the rehearsal answers every command of a first screen, and leaves every reply as one built cold', async () => {
    emptyCaches();
    const cold = await replies();
    emptyCaches();
    // Two rounds of the seven requests; none may be refused, or that command's code stays cold.
    expect(await rehearseCommands(srv.ctx, () => true, 14)).toEqual({ answered: 14, refused: 0 });
    expect(await replies()).toEqual(cold);
    expect(await rehearseCommands(srv.ctx, () => false)).toEqual({ answered: 0, refused: 0 });
  });

  it('a closing server stops the warming after its current page', async () => {
    emptyCaches();
    const warming = warmHotCaches(srv.ctx);
    await warming.stop();
    await warming.done;
    expect(await replies()).toHaveLength(5);
  });
});
