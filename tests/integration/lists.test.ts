/**
 * List commands (S §3.3, §3.10) on both stores: mute lists, subscribed lists, the allow list,
 * named lists, follow packs and paid tiers, with their profile extras and bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { content, ofKind, type CacheClient } from './cache-client.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import { person, sign } from './people.ts';


describe.each(['sqlite', 'postgres'] as const)('list commands (%s)', (store) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  const owner = person();
  const [m1, m2, friend] = [person(), person(), person()];
  const ev: Record<string, ReturnType<typeof sign>> = {};

  beforeAll(async () => {
    srv = await startCacheServer(store);
    c = await srv.connect();
    const now = srv.ctx.now();
    ev.mute = sign(owner, 10000, now - 100, '', [['p', m1.pk], ['word', 'tilos']]);
    ev.mute30000 = sign(owner, 30000, now - 100, '', [['d', 'mute'], ['p', m2.pk]]);
    ev.mutelists = sign(owner, 30000, now - 100, '', [['d', 'mutelists'], ['p', friend.pk, '', 'barát']]);
    ev.allow = sign(owner, 30000, now - 100, '', [['d', 'allowlist'], ['p', friend.pk]]);
    ev.named = sign(owner, 30000, now - 100, '', [['d', 'kedvencek'], ['p', m1.pk], ['title', 'Kedvencek']]);
    ev.pack = sign(owner, 39089, now - 90, '', [['d', 'csomag'], ['title', 'Magyar nostr'], ['p', friend.pk]]);
    ev.tier = sign(owner, 37001, now - 80, 'Támogatói szint', [['d', 'arany'], ['title', 'Arany'], ['amount', '5000', 'sat', 'monthly'], ['perk', 'Köszönet']]);
    ev.tierOther = sign(owner, 37001, now - 80, 'Régi szint', [['d', 'regi'], ['title', 'Régi']]);
    ev.tierList = sign(owner, 17000, now - 70, '', [['a', `37001:${owner.pk}:arany`]]);
    const profiles = [owner, m1, m2, friend].map((p, i) => sign(p, 0, now - 200, JSON.stringify({ name: `ember${i}` })));
    const res = await srv.ctx.importer.importEvents([...profiles, ...Object.values(ev)]);
    expect(res.filter((r) => !r.ok)).toEqual([]);
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it('mutelist returns kind 10000 and 30000 d=mute, with profiles when extended', async () => {
    const plain = await c.req('m', 'mutelist', { pubkey: owner.pk });
    expect(plain.events.map((e) => e.id)).toEqual([ev.mute.id, ev.mute30000.id]);
    const ext = await c.req('mx', 'mutelist', { pubkey: owner.pk, extended_response: true });
    expect(ofKind(ext.events, 0).map((e) => e.pubkey).sort()).toEqual([m1.pk, m2.pk].sort());
    expect(Object.keys(content(ofKind(ext.events, 10000108)[0]))).toContain(m1.pk);
    expect((await c.req('me', 'mutelist', { pubkey: m1.pk })).events).toEqual([]);
  });

  it('mutelists and allowlist return their kind-30000 lists', async () => {
    const subs = await c.req('ml', 'mutelists', { pubkey: owner.pk, extended_response: true });
    expect(subs.events[0].id).toBe(ev.mutelists.id);
    expect(ofKind(subs.events, 0).map((e) => e.pubkey)).toEqual([friend.pk]);
    const allow = await c.req('al', 'allowlist', { pubkey: owner.pk });
    expect(allow.events.map((e) => e.id)).toEqual([ev.allow.id]);
  });

  it('parameterized_replaceable_list finds a named list', async () => {
    const r = await c.req('pl', 'parameterized_replaceable_list', { pubkey: owner.pk, identifier: 'kedvencek' });
    expect(r.events[0].id).toBe(ev.named.id);
    expect(ofKind(r.events, 0).map((e) => e.pubkey)).toEqual([m1.pk]);
    expect((await c.req('pl0', 'parameterized_replaceable_list', { pubkey: owner.pk, identifier: 'nincs' })).events).toEqual([]);
    expect((await c.req('pl1', 'parameterized_replaceable_list', { pubkey: owner.pk })).notices).toEqual(['missing identifier']);
  });

  it('follow_lists returns follow packs with their people', async () => {
    const r = await c.req('fl', 'follow_lists', { pubkey: owner.pk });
    expect(ofKind(r.events, 39089).map((e) => e.id)).toEqual([ev.pack.id]);
    expect(ofKind(r.events, 0).map((e) => e.pubkey).sort()).toEqual([owner.pk, friend.pk].sort());
    const everyone = await c.req('fl2', 'follow_lists', { limit: 5 });
    expect(ofKind(everyone.events, 39089).map((e) => e.id)).toContain(ev.pack.id);
  });

  it('creator_paid_tiers returns the tier list, its tiers and a summary', async () => {
    const r = await c.req('ct', 'creator_paid_tiers', { pubkey: owner.pk });
    expect(r.events.map((e) => e.kind)).toEqual([17000, 37001, 10000147]);
    expect(r.events[1].id).toBe(ev.tier.id);
    expect(content(r.events[2])).toEqual({
      pubkey: owner.pk,
      tiers: [
        {
          event_id: ev.tier.id,
          identifier: 'arany',
          title: 'Arany',
          content: 'Támogatói szint',
          amounts: [{ amount: '5000', currency: 'sat', cadence: 'monthly' }],
          perks: ['Köszönet'],
        },
      ],
    });
    const none = await c.req('ct0', 'creator_paid_tiers', { pubkey: m1.pk });
    expect(none.events).toEqual([{ kind: 10000147, content: JSON.stringify({ pubkey: m1.pk, tiers: [] }) }]);
  });

  it('answers malformed arguments with a NOTICE and EOSE', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['mutelist', { pubkey: 'zz' }, /invalid pubkey/],
      ['mutelists', {}, /missing pubkey/],
      ['allowlist', { pubkey: owner.pk, extended_response: 'yes' }, /extended_response/],
      ['parameterized_replaceable_list', { pubkey: owner.pk, identifier: 5 }, /identifier/],
      ['follow_lists', { limit: 1e9 }, /limit too big/],
      ['creator_paid_tiers', { pubkey: 12 }, /pubkey/],
    ];
    for (const [cmd, kw, re] of cases) {
      const r = await c.req(`bad-${cmd}`, cmd, kw);
      expect(r.notices[0], cmd).toMatch(re);
      expect(r.frames.at(-1)?.msg).toEqual(['EOSE', `bad-${cmd}`]);
    }
  });
});
