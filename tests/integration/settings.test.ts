/**
 * Server-saved settings (S §3.9) and the feeds catalogue, on both stores: defaults, merge on
 * save, signed-event checks, sub-settings, and the shapes of the catalogue commands.
 */
import { nip19 } from 'nostr-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getUserSettings } from '../../server/cache/commands/settings.ts';
import { HOME_FEEDS, READS_FEEDS } from '../../server/cache/defaults.ts';
import { content, ofKind, type CacheClient } from './cache-client.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import { person, sign, type Person as Who } from './people.ts';


describe.each(['sqlite', 'postgres'] as const)('settings and catalogue (%s)', (store) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  let now: number;
  /** A signed request (protocol C.1) for `op`. */
  const appData = (who: Who, body: unknown, at = now, kind = 30078, op = 'set_app_settings') =>
    sign(who, kind, at, JSON.stringify(body), [['d', 'Primal-Web App', op]]);
  const getRequest = (who: Who, body: unknown = {}) => appData(who, body, now, 30078, 'get_app_settings');

  beforeAll(async () => {
    srv = await startCacheServer(store);
    c = await srv.connect();
    now = srv.ctx.now();
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it('serves the full default settings', async () => {
    const r = await c.req('d', 'get_default_app_settings', { client: 'Primal-Web App' });
    const s = content(r.events[0]);
    expect(s.theme).toBe('sunrise');
    expect(s.zapDefault).toEqual({ amount: 42, message: 'Haladjunk együtt! 🫡' });
    const presets = s.zapConfig as { amount: number; emoji: string; message: string }[];
    expect(presets).toEqual([
      { amount: 21, emoji: '👍', message: 'Remek bejegyzés 👍' },
      { amount: 420, emoji: '🚀', message: 'Hajrá 🚀' },
      { amount: 1000, emoji: '☕', message: 'Egy kávé tőlem ☕' },
      { amount: 5000, emoji: '🍻', message: 'Egészségedre 🍻' },
      { amount: 10000, emoji: '🍷', message: 'Ünnepeljünk 🍷' },
      { amount: 100000, emoji: '👑', message: 'Királyi zap 👑' },
    ]);
    expect(s.defaultZapAmount).toBe(42);
    expect(Object.values(s.notifications as Record<string, boolean>).every((v) => v === true)).toBe(true);
    expect((s.notifications as Record<string, boolean>).NEW_USER_FOLLOWED_YOU).toBe(true);
    expect(s.notificationsAdditional).toMatchObject({ include_deep_replies: true });
    expect(s.applyContentModeration).toBe(true);
    expect(s.contentModeration).toEqual([
      { name: 'primal_spam', scopes: ['content', 'trending'] },
      { name: 'primal_nsfw', scopes: ['content', 'trending'] },
    ]);
    expect([s.proxyThroughPrimal, s.animated]).toEqual([false, true]);
  });

  it('returns stored defaults first, then the merged saved settings', async () => {
    const u = person();
    expect((await c.req('g0', 'get_app_settings_2', { event_from_user: getRequest(u) })).events).toEqual([]);
    const first = await c.req('g1', 'get_app_settings', { event_from_user: getRequest(u, { description: 'x' }) });
    expect(first.events).toHaveLength(1);
    expect(first.events[0]).toMatchObject({ kind: 10000103, id: '0'.repeat(64), pubkey: '0'.repeat(64) });
    expect((await getUserSettings(srv.ctx.db, u.pk))?.theme).toBe('sunrise');
    const again = await c.req('g2', 'get_app_settings_2', { event_from_user: getRequest(u) });
    expect(again.events[0].kind).toBe(10000103);

    const save = await c.req('s1', 'set_app_settings', { settings_event: appData(u, { theme: 'midnight', sajat: 1 }) });
    expect(save.notices).toEqual([]);
    expect(save.events).toHaveLength(1);
    expect(content(save.events[0])).toMatchObject({ theme: 'midnight', sajat: 1, defaultZapAmount: 42 });
    await c.req('s2', 'set_app_settings', { settings_event: appData(u, { theme: 'ice' }) });
    const got = await c.req('g3', 'get_app_settings', { event_from_user: getRequest(u) });
    expect(got.events[0]).toMatchObject({ kind: 30078, pubkey: u.pk });
    expect(content(got.events[0])).toMatchObject({ theme: 'ice', sajat: 1, animated: true });
    expect(await getUserSettings(srv.ctx.db, u.pk)).toMatchObject({ theme: 'ice', sajat: 1 });
  });

  it('refuses forged, wrong-kind and future events and changes nothing', async () => {
    const u = person();
    await c.req('p0', 'set_app_settings', { settings_event: appData(u, { theme: 'sunset' }) });
    const forged = { ...appData(u, { theme: 'ice' }), content: JSON.stringify({ theme: 'midnight' }) };
    const stranger = person();
    // Someone else's validly signed event claiming the victim's pubkey.
    const foreign = { ...appData(stranger, { theme: 'midnight' }), pubkey: u.pk };
    const cases: [string, unknown][] = [
      ['forged', forged],
      ['foreign', foreign],
      ['kind', appData(u, { theme: 'midnight' }, now, 1)],
      ['future', appData(u, { theme: 'midnight' }, now + 1000)],
      ['missing', undefined],
      ['garbage', 'not json'],
    ];
    for (const [name, ev] of cases) {
      const r = await c.req(`bad-${name}`, 'set_app_settings', ev === undefined ? {} : { settings_event: ev });
      expect(r.notices, name).toHaveLength(1);
      expect(r.events, name).toEqual([]);
      expect(r.frames.at(-1)?.msg[0]).toBe('EOSE');
    }
    expect((await getUserSettings(srv.ctx.db, u.pk))?.theme).toBe('sunset');
    const badGet = await c.req('bad-get', 'get_app_settings', { event_from_user: { ...getRequest(u), content: forged.content } });
    expect(badGet.notices[0]).toMatch(/signature/);
    const notObject = await c.req('bad-content', 'set_app_settings', { settings_event: sign(u, 30078, now, '[1,2]', [['d', 'Primal-Web App', 'set_app_settings']]) });
    expect(notObject.notices[0]).toMatch(/JSON object/);
    // A stranger's own valid event only ever changes the stranger's settings.
    await c.req('own', 'set_app_settings', { settings_event: appData(stranger, { theme: 'midnight' }) });
    expect((await getUserSettings(srv.ctx.db, u.pk))?.theme).toBe('sunset');
    expect((await getUserSettings(srv.ctx.db, stranger.pk))?.theme).toBe('midnight');
  });

  it('round-trips sub-settings and falls back to the default feed lists', async () => {
    const u = person();
    const get = (subkey: string, sub: string, op = 'get_app_subsettings_home') =>
      c.req(sub, 'get_app_subsettings', { event_from_user: appData(u, { subkey }, now, 30078, op) });
    expect(content<unknown[]>((await get('user-home-feeds', 'h0')).events[0])).toEqual(HOME_FEEDS);
    expect(content<unknown[]>((await get('user-reads-feeds', 'r0', 'get_app_subsettings_reads')).events[0])).toEqual(READS_FEEDS);
    const mine = [{ name: 'Saját', spec: '{"id":"latest","kind":"notes"}', description: 'x', enabled: true }];
    const set = await c.req('hs', 'set_app_subsettings', { event_from_user: appData(u, { subkey: 'user-home-feeds', settings: mine }, now, 30078, 'set_app_subsettings_home') });
    expect([set.events, set.notices]).toEqual([[], []]);
    const back = await get('user-home-feeds', 'h1');
    expect(back.events[0].kind).toBe(10000155);
    expect(content<unknown[]>(back.events[0])).toEqual(mine);
    expect((await get('nope', 'bad-sub')).notices).toEqual(['invalid subkey']);
    const def = await c.req('dd', 'get_default_app_subsettings', { subkey: 'user-reads-feeds' });
    expect(content<unknown[]>(def.events[0])).toEqual(READS_FEEDS);
  });

  it('derives the reads catalogue from stored articles', async () => {
    const [w1, w2, fan] = [person(), person(), person()];
    const article = (who: Who, d: string, title: string, topics: string[], at: number) =>
      sign(who, 30023, at, `${title} szövege `.repeat(50), [['d', d], ['title', title], ...topics.map((t) => ['t', t])]);
    const a1 = article(w1, 'elso', 'Első cikk', ['bitcoin', 'Magyar'], now - 300);
    const a2 = article(w2, 'masodik', 'Második cikk', ['bitcoin'], now - 200);
    const a3 = article(w2, 'harmadik', 'Harmadik cikk', ['nostr', 'bitcoin'], now - 100);
    const likes = [a1, a1, a3].map((a, i) => sign(i === 1 ? fan : person(), 7, now - 50, '+', [['e', a.id], ['p', a.pubkey]]));
    const res = await srv.ctx.importer.importEvents([
      sign(w1, 0, now - 400, JSON.stringify({ name: 'iro1' })),
      sign(w2, 0, now - 400, JSON.stringify({ name: 'iro2' })),
      a1,
      a2,
      a3,
      ...likes,
    ]);
    expect(res.every((x) => x.ok)).toBe(true);

    const topics = await c.req('t', 'get_reads_topics');
    expect(topics.events[0].kind).toBe(10000146);
    expect(content<string[]>(topics.events[0]).slice(0, 2)).toEqual(['bitcoin', 'magyar']);

    const authors = await c.req('fa', 'get_featured_authors');
    expect(authors.events[0].kind).toBe(10000148);
    const list = content<string[]>(authors.events[0]);
    expect(list.indexOf(w1.pk)).toBeLessThan(list.indexOf(w2.pk));
    expect(ofKind(authors.events, 0).map((e) => e.pubkey)).toContain(w1.pk);

    const reads = await c.req('rr', 'get_recommended_reads');
    const picks = content<{ reads: [string, string][] }>(reads.events[0]).reads;
    expect(reads.events[0].kind).toBe(10000145);
    expect(picks.length).toBe(3);
    for (const [naddr, title] of picks) {
      const decoded = nip19.decode(naddr);
      expect(decoded.type).toBe('naddr');
      expect(title).toMatch(/cikk/);
    }
    expect(content((await c.req('rr2', 'get_recommended_reads')).events[0])).toEqual({ reads: picks });
  });

  it('answers the static catalogue commands', async () => {
    const adv = await c.req('af', 'get_advanced_feeds');
    const feeds = content<{ name: string; description: string; specification: string }[]>(adv.events[0]);
    expect(adv.events[0].kind).toBe(10000150);
    expect(feeds.length).toBeGreaterThan(3);
    for (const f of feeds) expect(JSON.parse(f.specification)).toMatchObject({ id: 'advsearch' });
    const blossom = await c.req('bl', 'get_recommended_blossom_servers');
    expect(blossom.events[0].kind).toBe(10000175);
    expect(content<string[]>(blossom.events[0])).toEqual([`http://127.0.0.1:${srv.port}`]);
    const name = await c.req('sn', 'server_name');
    expect(name.events[0]).toMatchObject({ server: 'strucc' });
    const cfg = await c.req('cc', 'client_config');
    expect(content(cfg.events[0])).toMatchObject({ cache_server: `ws://127.0.0.1:${srv.port}/v1` });
  });

  it('lists DVM feeds from kind-31990 announcements with k=5300', async () => {
    const [dvm, viewer, friend] = [person(), person(), person()];
    const notes = sign(dvm, 31990, now - 100, JSON.stringify({ name: 'Kép DVM', about: 'képek' }), [['d', 'kepek'], ['k', '5300']]);
    const reads = sign(dvm, 31990, now - 90, JSON.stringify({ name: 'Cikk DVM' }), [['d', 'cikkek'], ['k', '5300'], ['t', 'reads']]);
    const other = sign(dvm, 31990, now - 80, '{}', [['d', 'forditas'], ['k', '5002']]);
    const res = await srv.ctx.importer.importEvents([
      sign(dvm, 0, now - 200, JSON.stringify({ name: 'dvm' })),
      sign(viewer, 3, now - 200, '', [['p', friend.pk]]),
      notes,
      reads,
      other,
      sign(friend, 7, now - 10, '+', [['e', notes.id], ['p', dvm.pk]]),
    ]);
    expect(res.every((x) => x.ok)).toBe(true);

    const featured = await c.req('fd', 'get_featured_dvm_feeds', { kind: 'notes', user_pubkey: viewer.pk });
    expect(ofKind(featured.events, 31990).map((e) => e.id)).toEqual([notes.id]);
    expect(content(ofKind(featured.events, 10000100)[0])).toEqual({ event_id: notes.id, likes: 1, satszapped: 0 });
    expect(content(ofKind(featured.events, 10000156)[0])).toEqual({ event_id: notes.id, users: [friend.pk] });
    expect(content(ofKind(featured.events, 10000159)[0])).toEqual({ event_id: notes.id, kind: 'notes', is_primal: false });
    expect(ofKind(featured.events, 0).map((e) => e.pubkey)).toEqual([dvm.pk]);

    const all = await c.req('ad', 'get_dvm_feeds');
    expect(ofKind(all.events, 31990).map((e) => e.id).sort()).toEqual([notes.id, reads.id].sort());
    const info = await c.req('di', 'dvm_feed_info', { pubkey: dvm.pk, identifier: 'cikkek' });
    expect(content(ofKind(info.events, 10000159)[0])).toMatchObject({ kind: 'reads' });
    expect((await c.req('dx', 'dvm_feed_info', { pubkey: dvm.pk, identifier: 'forditas' })).events).toEqual([]);
    expect((await c.req('dk', 'get_featured_dvm_feeds', { kind: 'videos' })).notices).toEqual(['invalid kind: expected notes or reads']);
  });

  it('suggests users in Hungarian groups from the store', async () => {
    const r = await c.req('su', 'get_suggested_users');
    const groups = content<{ group: string; members: { pubkey: string; name: string }[] }[]>(r.events[0]);
    expect(r.events[0].kind).toBe(10000134);
    expect(groups.map((g) => g.group)).toContain('Legtöbben követik');
    const top = groups.find((g) => g.group === 'Legtöbben követik')!;
    // alice is followed by bob and carol in the fixture network.
    expect(top.members[0]).toEqual({ pubkey: srv.net.alice.pk, name: 'alice' });
    expect(ofKind(r.events, 0).length).toBeGreaterThan(0);
    expect(ofKind(r.events, 10000108)).toHaveLength(1);
    const rec = await c.req('ru', 'get_recommended_users');
    expect(ofKind(rec.events, 0)[0].pubkey).toBe(srv.net.alice.pk);
  });
});
