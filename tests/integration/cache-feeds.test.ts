/**
 * Cache commands over the fixture network: the enrichment bundle, profiles, feeds, paging,
 * threads and rankings, checked against what the test imported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { content, ofKind, rangeOf, type CacheClient } from './cache-client.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';

type Obj = Record<string, unknown>;
/** The event as it travels on the wire (nostr-tools marks signed objects with a symbol). */
const json = (e: object) => JSON.parse(JSON.stringify(e)) as Obj;
const last = <T>(xs: T[]): T => xs[xs.length - 1];
const statsFor = (events: Obj[], id: string) =>
  ofKind(events, 10000100).map((e) => content(e)).find((s) => s.event_id === id);

// Every command must answer alike from both stores behind the storage seam.
describe.each(['sqlite', 'postgres'] as const)('on %s', (store) => {
  let srv: CacheTestServer;
  let plain: CacheClient;
  let zipped: CacheClient;

  beforeAll(async () => {
    srv = await startCacheServer(store);
    plain = await srv.connect();
    zipped = await srv.connect();
    await zipped.enableZlib();
  });

  afterAll(async () => {
    await srv?.stop();
  });

  describe('user commands', () => {
    it('user_infos returns kind 0s, USER_SCORES and follower counts', async () => {
      const { alice, bob } = srv.net;
      for (const c of [plain, zipped]) {
        const r = await c.req('ui', 'user_infos', { pubkeys: [alice.pk, bob.pk] });
        expect(ofKind(r.events, 0).map((e) => e.pubkey)).toEqual([alice.pk, bob.pk]);
        expect(content(ofKind(r.events, 10000108)[0])).toEqual({ [alice.pk]: 2, [bob.pk]: 1 });
        expect(content(ofKind(r.events, 10000133)[0])).toEqual({ [alice.pk]: 2, [bob.pk]: 1 });
      }
    });

    it('user_profile counts what was imported', async () => {
      const { alice, bob } = srv.net;
      const a = await plain.req('up-a', 'user_profile', { pubkey: alice.pk, user_pubkey: bob.pk });
      expect(a.events[0].kind).toBe(0);
      const sa = content(a.events[1]);
      expect(a.events[1].kind).toBe(10000105);
      expect(sa).toMatchObject({
        pubkey: alice.pk,
        follows_count: 2,
        followers_count: 2,
        note_count: 0,
        reply_count: 1,
        long_form_note_count: 0,
        relay_count: 2,
        total_zap_count: 0,
        total_satszapped: 0,
        media_count: 0,
      });
      expect(sa.time_joined).toBe(srv.net.r1.created_at);

      const b = await zipped.req('up-b', 'user_profile', { pubkey: bob.pk });
      expect(content(b.events[1])).toMatchObject({
        follows_count: 1,
        followers_count: 1,
        note_count: 2,
        reply_count: 0,
        total_zap_count: 1,
        total_satszapped: 21,
        media_count: 1,
      });
    });
  });

  describe('the enrichment bundle', () => {
    it("alice's follows feed: posts in order, references, stats, viewer actions, top zaps, RANGE last", async () => {
      const { alice, bob, carol, n1, n2, quote, zapReceipt } = srv.net;
      const r = await plain.req('f', 'feed', { pubkey: alice.pk, user_pubkey: alice.pk, limit: 20 });
      const ev = r.events;
      const range = rangeOf(ev);
      expect(last(ev).kind).toBe(10000113);
      expect(range.elements).toEqual([quote.id, n2.id, n1.id]);
      expect(range).toMatchObject({ order_by: 'created_at', since: n1.created_at, until: quote.created_at });
      // Primary events first, raw and in RANGE order.
      expect(ev.slice(0, 3).map((e) => e.id)).toEqual(range.elements);

      // n1 is quoted but already on the page, so it is not repeated as a reference.
      expect(ofKind(ev, 10000107)).toHaveLength(0);

      expect(new Set(ofKind(ev, 0).map((e) => e.pubkey))).toEqual(new Set([bob.pk, carol.pk]));
      expect(statsFor(ev, n1.id)).toEqual({
        event_id: n1.id,
        likes: 2,
        replies: 1,
        mentions: 0,
        reposts: 1,
        zaps: 1,
        satszapped: 21,
        score: expect.any(Number),
        score24h: expect.any(Number),
        bookmarks: 0,
      });
      expect(statsFor(ev, n2.id)).toMatchObject({ likes: 1, reposts: 1, replies: 0, zaps: 0 });

      const actions = ofKind(ev, 10000115).map((e) => content(e));
      expect(actions.find((a) => a.event_id === n1.id)).toEqual({ event_id: n1.id, liked: true, replied: true, reposted: false, zapped: false });
      expect(actions.find((a) => a.event_id === n2.id)).toMatchObject({ liked: true, reposted: true });

      expect(ev.some((e) => e.id === zapReceipt.id && e.kind === 9735)).toBe(true);
      expect(content(ofKind(ev, 10000129)[0])).toEqual({
        event_id: n1.id,
        created_at: zapReceipt.created_at,
        sender: carol.pk,
        receiver: bob.pk,
        amount_sats: 21,
        zap_receipt_id: zapReceipt.id,
      });
      const scores = content(ofKind(ev, 10000108)[0]);
      expect(scores[bob.pk]).toBe(1);
      expect(ofKind(ev, 10000141)).toHaveLength(1);

      // Nothing is repeated.
      const keys = ev.map((e) => (typeof e.sig === 'string' ? e.id : JSON.stringify(e)));
      expect(new Set(keys).size).toBe(keys.length);
    });

    it('without a viewer there is no 10000115, and a repost brings its target as a reference', async () => {
      const { alice, n2, repost } = srv.net;
      const r = await zipped.req('fa', 'feed', { pubkey: alice.pk, notes: 'authored' });
      expect(r.frames.map((f) => f.binary)).toEqual([true, false]);
      expect(rangeOf(r.events).elements).toEqual([repost.id]);
      expect(ofKind(r.events, 10000115)).toHaveLength(0);
      const ref = ofKind(r.events, 10000107)[0];
      expect(JSON.parse(ref.content as string)).toEqual(json(n2));
      expect(statsFor(r.events, n2.id)).toMatchObject({ likes: 1, reposts: 1 });
    });

    it('events: raw and oldest first, or the bundle with extended_response', async () => {
      const { n1, n2 } = srv.net;
      const raw = await plain.req('ev', 'events', { event_ids: [n2.id, n1.id] });
      expect(raw.events).toEqual([json(n1), json(n2)]);
      const ext = await plain.req('ev2', 'events', { event_ids: [n2.id, n1.id], extended_response: true });
      expect(rangeOf(ext.events).elements).toEqual([n2.id, n1.id]);
      expect(statsFor(ext.events, n1.id)).toMatchObject({ likes: 2 });
    });

    it('a quote brings the quoted note as a 10000107 with its author and stats', async () => {
      const { bob, n1, quote } = srv.net;
      const r = await zipped.req('q', 'events', { event_ids: [quote.id], extended_response: true });
      const ref = ofKind(r.events, 10000107)[0];
      expect(ref.pubkey).toBe(bob.pk);
      expect(JSON.parse(ref.content as string)).toEqual(json(n1));
      expect(ofKind(r.events, 0).map((e) => e.pubkey)).toContain(bob.pk);
      expect(statsFor(r.events, n1.id)).toMatchObject({ likes: 2, reposts: 1, zaps: 1, satszapped: 21 });
    });
  });

  describe('feeds and paging', () => {
    it('mega_feed_directive all-notes pages with until = RANGE.since into one contiguous list', async () => {
      const spec = JSON.stringify({ id: 'all-notes', kind: 'notes' });
      const full = rangeOf((await plain.req('all', 'mega_feed_directive', { spec, limit: 100 })).events).elements;
      expect(full).toEqual([srv.net.quote.id, srv.net.n2.id, srv.net.n1.id]);

      const seen: string[] = [];
      let until: number | undefined;
      for (let page = 0; page < 10; page++) {
        const r = await zipped.req(`pg${page}`, 'mega_feed_directive', { spec, limit: 2, ...(until ? { until } : {}) });
        const range = rangeOf(r.events);
        const fresh = range.elements.filter((id) => !seen.includes(id));
        if (!fresh.length) break;
        seen.push(...fresh);
        until = range.since;
      }
      expect(seen).toEqual(full);
    });

    it('latest follows the viewer; with no viewer it is an empty RANGE', async () => {
      const spec = JSON.stringify({ id: 'latest', kind: 'notes' });
      const r = await plain.req('lt', 'mega_feed_directive', { spec, limit: 20, user_pubkey: srv.net.alice.pk });
      expect(rangeOf(r.events).elements).toEqual([srv.net.quote.id, srv.net.n2.id, srv.net.n1.id]);
      const anon = await plain.req('lt0', 'mega_feed_directive', { spec, limit: 20 });
      expect(anon.events).toEqual([{ kind: 10000113, content: JSON.stringify({ order_by: 'created_at', elements: [] }) }]);
      const unknown = await plain.req('unk', 'mega_feed_directive', { spec: JSON.stringify({ id: 'no-such-feed' }) });
      expect(unknown.events.map((e) => e.kind)).toEqual([10000113]);
      expect(rangeOf(unknown.events).elements).toEqual([]);
    });

    it('profile feed through mega_feed_directive and trending ranked by score', async () => {
      const { bob, n1, n2 } = srv.net;
      const prof = await plain.req('pf', 'mega_feed_directive', { spec: JSON.stringify({ id: 'feed', kind: 'notes', pubkey: bob.pk }) });
      expect(rangeOf(prof.events).elements).toEqual([n2.id, n1.id]);

      const tr = await plain.req('tr', 'mega_feed_directive', { spec: JSON.stringify({ id: 'global-trending', kind: 'notes', hours: 24 }) });
      const range = rangeOf(tr.events);
      expect(range.order_by).toBe('score');
      expect(range.elements[0]).toBe(n1.id);
      expect(range.until).toBe(statsFor(tr.events, n1.id)?.score);

      const mz = await plain.req('mz', 'mega_feed_directive', { spec: JSON.stringify({ id: 'most-zapped', kind: 'notes', hours: 4 }) });
      expect(rangeOf(mz.events)).toMatchObject({ order_by: 'satszapped', elements: [n1.id], since: 21, until: 21 });
    });

    it('scored keeps only notes, references and profiles', async () => {
      const r = await plain.req('sc', 'scored', { selector: 'trending_24h', user_pubkey: srv.net.alice.pk });
      expect(r.events.length).toBeGreaterThan(0);
      expect(r.events.every((e) => [0, 1, 10000107].includes(e.kind as number))).toBe(true);
      expect(r.events[0].id).toBe(srv.net.n1.id);
    });
  });

  describe('thread_view', () => {
    it('sends direct replies with their RANGE, then the chain to the root oldest first with a second RANGE', async () => {
      const { n1, r1, r2, alice } = srv.net;
      for (const c of [plain, zipped]) {
        const r = await c.req('th', 'thread_view', { event_id: r1.id, limit: 100, user_pubkey: alice.pk });
        const ranges = r.events.map((e, i) => [e, i] as const).filter(([e]) => e.kind === 10000113);
        expect(ranges).toHaveLength(2);
        const [first, second] = ranges.map(([e]) => content<{ elements: string[] }>(e).elements);
        expect(first).toEqual([r2.id]);
        expect(second).toEqual([n1.id, r1.id]);
        expect(r.events[0].id).toBe(r2.id);
        const afterFirst = r.events.slice(ranges[0][1] + 1).filter((e) => e.kind === 1 && typeof e.sig === 'string');
        expect(afterFirst.map((e) => e.id)).toEqual([n1.id, r1.id]);
        expect(last(r.events).kind).toBe(10000113);
      }
    });
  });

  describe('lists and imports', () => {
    it('contact_list, is_user_following, get_user_relays and import_events', async () => {
      const { alice, bob, carol } = srv.net;
      const cl = await plain.req('cl', 'contact_list', { pubkey: alice.pk });
      expect(cl.events[0]).toMatchObject({ kind: 3, pubkey: alice.pk });
      expect(new Set(ofKind(cl.events, 0).map((e) => e.pubkey))).toEqual(new Set([bob.pk, carol.pk]));

      const yes = await plain.req('f1', 'is_user_following', { pubkey: alice.pk, user_pubkey: bob.pk });
      expect(yes.events).toEqual([{ kind: 10000125, content: 'true' }]);
      const no = await plain.req('f2', 'is_user_following', { pubkey: bob.pk, user_pubkey: carol.pk });
      expect(no.events).toEqual([{ kind: 10000125, content: 'false' }]);

      const relays = await zipped.req('ur', 'get_user_relays', { pubkey: alice.pk });
      expect(relays.events).toEqual([
        { kind: 10000139, pubkey: alice.pk, tags: [['r', 'wss://egy.example'], ['r', 'wss://ketto.example', 'read']] },
      ]);

      const { buildNetwork } = await import('./cache-fixtures.ts');
      const other = buildNetwork(srv.ctx.now());
      const imp = await plain.req('imp', 'import_events', { events: [other.n1, { id: 'garbage' }] });
      expect(content(imp.events[0])).toEqual({ imported: 1, errors: 1 });
      const back = await plain.req('imp2', 'events', { event_ids: [other.n1.id] });
      expect(back.events.map((e) => e.id)).toEqual([other.n1.id]);
    });
  });

  describe("the viewer's mute list", () => {
    it('hides muted authors from that viewer only', async () => {
      const { bob, carol, quote } = srv.net;
      const { finalizeEvent } = await import('nostr-tools/pure');
      const mute = finalizeEvent({ kind: 10000, created_at: srv.ctx.now() - 10, content: '', tags: [['p', carol.pk]] }, bob.sk);
      expect((await srv.ctx.importer.importEvents([mute]))[0].ok).toBe(true);
      const spec = JSON.stringify({ id: 'all-notes', kind: 'notes' });
      const asBob = rangeOf((await plain.req('mb', 'mega_feed_directive', { spec, user_pubkey: bob.pk })).events).elements;
      expect(asBob).not.toContain(quote.id);
      const anon = rangeOf((await plain.req('ma', 'mega_feed_directive', { spec })).events).elements;
      expect(anon).toContain(quote.id);
      const profile = await plain.req('mp', 'user_profile', { pubkey: carol.pk, user_pubkey: bob.pk });
      expect(content(last(profile.events))).toEqual({ action: 'block', pubkey: bob.pk });
      expect(last(profile.events).kind).toBe(10000131);
    });
  });
});
