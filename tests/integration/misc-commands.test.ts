/**
 * The legacy, multi-kind and store-wide commands on both stores: feed_directive(_2),
 * multi_kind_mega_feed_directive, multi_kind_thread_view, enrich_feed_events, nip19_decode,
 * relays, nostr_stats, trusted_users, user_of_ln_address, poll_votes, articles_stats and
 * top_article — reply shapes, bad arguments (NOTICE then EOSE) and caps.
 */
import { nip19 } from 'nostr-tools';
import { generateSecretKey } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../server/cache/registry.ts';
import { content, ofKind, rangeOf, type CacheClient, type Reply } from './cache-client.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import { person, sign, type Person as Who } from './people.ts';


type Ev = ReturnType<typeof sign>;
const ids = (r: Reply, kind?: number) => (kind === undefined ? r.events : ofKind(r.events, kind)).map((e) => e.id as string);
/** Every malformed request must end in exactly one NOTICE followed by EOSE (the client's req waits for the EOSE). */
const expectNotice = (r: Reply, re: RegExp) => {
  expect(r.notices).toHaveLength(1);
  expect(r.notices[0]).toMatch(re);
  expect(r.frames.at(-1)?.msg[0]).toBe('EOSE');
};

describe.each(['sqlite', 'postgres'] as const)('misc commands (%s)', (store) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  const [pollster, v1, v2, v3, v4, writer, kata, kata2, wallet, keeper] = Array.from({ length: 10 }, person);
  const n: Record<string, Ev> = {};
  let sub = 0;
  const req = (command: string, kwargs?: Record<string, unknown>) => c.req(`m${++sub}`, command, kwargs);

  beforeAll(async () => {
    srv = await startCacheServer(store);
    c = await srv.connect();
    const { bob } = srv.net;
    const t = (s: number) => srv.ctx.now() - 2000 + s;
    n.poll = sign(pollster, 1068, t(1), 'Melyik a legjobb?', [
      ['option', 'a', 'Gulyás'],
      ['option', 'b', 'Lángos'],
      ['option', 'c', 'Pörkölt'],
      ['polltype', 'singlechoice'],
    ]);
    n.multi = sign(pollster, 1068, t(2), 'Mit szeretsz?', [
      ['option', 'x', 'Tea'],
      ['option', 'y', 'Kávé'],
      ['polltype', 'multiplechoice'],
    ]);
    const vote = (who: Who, poll: Ev, at: number, ...choices: string[]) =>
      sign(who, 1018, at, '', [['e', poll.id], ...choices.map((ch) => ['response', ch])]);
    const votes = [
      vote(v1, n.poll, t(10), 'a'),
      vote(v1, n.poll, t(11), 'b'), // v1 changed their mind: only the latest counts
      vote(v2, n.poll, t(12), 'a'),
      vote(v3, n.poll, t(13), 'c', 'b'), // single choice: the first response only
      vote(v4, n.poll, t(14), 'a', 'zzz'),
      vote(v1, n.multi, t(15), 'x', 'y', 'x'),
      vote(v2, n.multi, t(16), 'y'),
    ];
    n.elso1 = sign(writer, 30023, t(20), 'Az első cikk első változata', [['d', 'elso'], ['title', 'Első']]);
    n.elso2 = sign(writer, 30023, t(30), 'Az első cikk javított változata', [['d', 'elso'], ['title', 'Első']]);
    n.masodik = sign(writer, 30023, t(25), 'A második cikk szövege', [['d', 'masodik'], ['title', 'Második']]);
    n.draft = sign(writer, 31234, t(26), 'titkos piszkozat', [['d', 'vazlat'], ['k', '30023']]);
    // 1u = 100 sats (S §4.2), on the first version of "elso": the total follows the article across edits.
    const zapRequest = sign(v1, 9734, t(27), '', [['p', writer.pk], ['e', n.elso1.id], ['amount', '100000']]);
    n.zap = sign(wallet, 9735, t(28), '', [
      ['p', writer.pk],
      ['e', n.elso1.id],
      ['bolt11', 'lnbc1u1pjtestpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypq'],
      ['description', JSON.stringify(zapRequest)],
    ]);
    const likes = [v1, v2].map((who, i) => sign(who, 7, t(40 + i), '+', [['e', n.masodik.id], ['p', writer.pk]]));
    const profiles = [
      sign(kata, 0, t(1), JSON.stringify({ name: 'Kata', lud16: 'Kata@Pelda.hu' })),
      sign(kata2, 0, t(1), JSON.stringify({ name: 'kata', lud16: 'kata@masik.hu', about: 'pelda hu' })),
    ];
    const relayLists = [pollster, writer].map((who) => sign(who, 10002, t(3), '', [['r', 'wss://egy.example'], ['r', 'wss://harom.example']]));
    n.photo = sign(bob, 20, t(50), 'Naplemente a Balatonnál', [['imeta', 'url https://media.example/balaton.jpg', 'm image/jpeg']]);
    n.comment = sign(v3, 1111, t(60), 'Megjegyzés az első bejegyzéshez', [['e', srv.net.n1.id, '', 'root'], ['p', bob.pk]]);
    n.bookmarks = sign(keeper, 10003, t(70), '', [['e', srv.net.n1.id]]);
    const res = await srv.ctx.importer.importEvents([
      ...Object.values(n).filter((e) => e !== n.zap),
      ...votes,
      n.zap,
      ...likes,
      ...profiles,
      ...relayLists,
    ]);
    expect(res.filter((r) => !r.ok)).toEqual([]);
  }, 120_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it('registers every command of this part and the moderation / media / write ones', () => {
    for (const name of [
      'feed_directive', 'feed_directive_2', 'multi_kind_mega_feed_directive', 'multi_kind_thread_view', 'enrich_feed_events',
      'nip19_decode', 'relays', 'nostr_stats', 'trusted_users', 'user_of_ln_address', 'poll_votes', 'articles_stats', 'top_article',
      'is_hidden_by_content_moderation', 'get_media_metadata', 'broadcast_reply', 'report_note', 'set_last_time_user_was_online',
    ]) expect(COMMANDS.has(name), name).toBe(true);
  });

  it('feed_directive runs the legacy directive forms through the feed commands', async () => {
    const { alice, bob, carol, n1, n2, r1, r2, quote } = srv.net;
    const follows = await req('feed_directive', { directive: alice.pk, limit: 20 });
    expect(ids(follows, 1)).toEqual(expect.arrayContaining([n1.id, n2.id, quote.id]));
    expect(rangeOf(follows).order_by).toBe('created_at');
    const authored = await req('feed_directive_2', { directive: `authored;${bob.pk}` });
    expect(rangeOf(authored).elements).toEqual([n2.id, n1.id]);
    expect(rangeOf(await req('feed_directive', { directive: `authoredreplies;${alice.pk}` })).elements).toEqual([r1.id]);
    expect(rangeOf(await req('feed_directive', { directive: `withreplies;${carol.pk}` })).elements).toEqual([r2.id, quote.id]);
    expect(rangeOf(await req('feed_directive', { directive: `bookmarks;${keeper.pk}` })).elements).toEqual([n1.id]);
    expect(ids(await req('feed_directive', { directive: 'search;Helló világ' }), 1)).toContain(n1.id);
    const trending = await req('feed_directive', { directive: 'global;trending' });
    expect(rangeOf(trending).order_by).toBe('score');
    expect(rangeOf(trending).elements).toContain(n1.id);
    expect(rangeOf(await req('feed_directive', { directive: 'global;mostzapped4h' })).order_by).toBe('satszapped');
    for (const d of ['popular;global', 'global;popular']) expect(rangeOf(await req('feed_directive', { directive: d })).order_by).toBe('score');
    const call = await req('feed_directive', { directive: JSON.stringify(['user_infos', { pubkeys: [alice.pk] }]) });
    expect(ofKind(call.events, 0).map((e) => e.pubkey)).toEqual([alice.pk]);
  });

  it('feed_directive refuses malformed directives with a NOTICE', async () => {
    expectNotice(await req('feed_directive', {}), /missing directive/);
    expectNotice(await req('feed_directive', { directive: 42 }), /invalid directive/);
    expectNotice(await req('feed_directive', { directive: '   ' }), /empty/);
    expectNotice(await req('feed_directive', { directive: 'valami' }), /invalid directive/);
    expectNotice(await req('feed_directive', { directive: 'authored;nem-hex' }), /hex pubkey/);
    expectNotice(await req('feed_directive', { directive: 'latest;galaxis' }), /unknown/);
    expectNotice(await req('feed_directive', { directive: 'search;  ' }), /query is empty/);
    expectNotice(await req('feed_directive', { directive: '["user_infos", ' }), /not valid JSON/);
    expectNotice(await req('feed_directive', { directive: '[1, 2, 3]' }), /expected \["command"/);
    expectNotice(await req('feed_directive', { directive: '["nincs_ilyen"]' }), /unknown api request/);
    expectNotice(await req('feed_directive', { directive: JSON.stringify(['feed_directive', { directive: 'x' }]) }), /cannot be nested/);
    expectNotice(await req('feed_directive', { directive: 'x'.repeat(10_001) }), /too long/);
    expectNotice(await req('feed_directive', { directive: `authored;${srv.net.bob.pk}`, limit: 'sok' }), /invalid limit/);
  });

  it('multi_kind_mega_feed_directive takes the kinds where the reference says so', async () => {
    const { alice, bob, n1, n2 } = srv.net;
    const latest = (kinds?: number[]) =>
      req('multi_kind_mega_feed_directive', { spec: JSON.stringify({ id: 'latest', kind: 'notes' }), kinds, user_pubkey: alice.pk, limit: 50 });
    const plain = await latest();
    expect(rangeOf(plain).elements).toEqual(expect.arrayContaining([n1.id, n2.id]));
    expect(rangeOf(plain).elements).not.toContain(n.photo.id);
    expect(rangeOf(await latest([20])).elements).toEqual([n.photo.id]);
    expect(rangeOf(await latest([1, 20])).elements).toEqual(expect.arrayContaining([n.photo.id, n1.id, n2.id]));
    const photos = await req('multi_kind_mega_feed_directive', { spec: JSON.stringify({ id: 'photos' }), kinds: [20] });
    expect(rangeOf(photos).elements).toEqual([n.photo.id]);
    const allNotes = await req('multi_kind_mega_feed_directive', { spec: JSON.stringify({ id: 'all-notes', kind: 'notes' }), kinds: [20, 1068] });
    expect(rangeOf(allNotes).elements).toEqual([n.photo.id, n.multi.id, n.poll.id]);
    const profile = await req('multi_kind_mega_feed_directive', { spec: JSON.stringify({ id: 'feed', kind: 'notes', pubkey: bob.pk }), kinds: [1, 20] });
    expect(rangeOf(profile).elements).toEqual([n.photo.id, n2.id, n1.id]);
    const reads = await req('multi_kind_mega_feed_directive', { spec: JSON.stringify({ id: 'feed', kind: 'reads', pubkey: writer.pk }), kinds: [30023] });
    expect(rangeOf(reads)).toMatchObject({ order_by: 'published_at', elements: [n.elso2.id, n.masodik.id] });
    const searched = await req('multi_kind_mega_feed_directive', { spec: JSON.stringify({ id: 'advsearch', query: 'Balatonnál' }), kinds: [1, 20] });
    expect(rangeOf(searched).elements).toEqual([n.photo.id]);
    const trending = await req('multi_kind_mega_feed_directive', { spec: JSON.stringify({ id: 'global-trending', hours: 48 }), kinds: [1, 30023] });
    expect(rangeOf(trending).order_by).toBe('published_at');
    expectNotice(await req('multi_kind_mega_feed_directive', { spec: '{nem json', kinds: [1] }), /invalid spec format/);
    expectNotice(await req('multi_kind_mega_feed_directive', { spec: JSON.stringify({ id: 'latest' }), kinds: 'egy' }), /invalid kinds/);
    expectNotice(await req('multi_kind_mega_feed_directive', { spec: JSON.stringify({ id: 'most-zapped', hours: -1 }), kinds: [1] }), /invalid hours/);
  });

  it('multi_kind_thread_view narrows the direct replies to the kinds asked for', async () => {
    const { n1, r1 } = srv.net;
    const firstRange = (r: Reply) => content<{ elements: string[] }>(ofKind(r.events, 10000113)[0]).elements;
    expect(firstRange(await req('multi_kind_thread_view', { event_id: n1.id, kinds: [1] }))).toEqual([r1.id]);
    expect(firstRange(await req('multi_kind_thread_view', { event_id: n1.id, kinds: [1111] }))).toEqual([n.comment.id]);
    expect(firstRange(await req('multi_kind_thread_view', { event_id: n1.id }))).toEqual([n.comment.id, r1.id]);
    expectNotice(await req('multi_kind_thread_view', { event_id: n1.id, kinds: [1, 'x'] }), /invalid kinds/);
    expectNotice(await req('multi_kind_thread_view', { event_id: 'abc', kinds: [1] }), /invalid event_id/);
  });

  it('enrich_feed_events returns the bundle for the ids', async () => {
    const { n1, n2 } = srv.net;
    const r = await req('enrich_feed_events', { event_ids: [n1.id, n2.id], user_pubkey: srv.net.alice.pk });
    expect(ids(r, 1).slice(0, 2)).toEqual([n2.id, n1.id]);
    expect(ofKind(r.events, 10000100).map((s) => content(s).event_id)).toEqual(expect.arrayContaining([n1.id, n2.id]));
    expect(rangeOf(r).elements).toEqual([n2.id, n1.id]);
    expectNotice(await req('enrich_feed_events', { event_ids: 'n1' }), /invalid event_ids/);
    expectNotice(await req('enrich_feed_events', { event_ids: Array.from({ length: 1001 }, () => n1.id) }), /too many event_ids/);
  });

  it('nip19_decode decodes each id and reports the bad ones', async () => {
    const { alice, n1 } = srv.net;
    const naddr = nip19.naddrEncode({ kind: 30023, pubkey: writer.pk, identifier: 'elso' });
    const nsec = nip19.nsecEncode(generateSecretKey());
    const list = [nip19.npubEncode(alice.pk), `nostr:${nip19.noteEncode(n1.id)}`, nip19.neventEncode({ id: n1.id }), naddr, 'szemét', nsec];
    const r = await req('nip19_decode', { ids: list });
    expect(r.events.map((e) => e.kind)).toEqual([10000173]);
    const out = content<Record<string, Record<string, unknown>>>(r.events[0]);
    expect(out[list[0]]).toEqual({ type: 'npub', data: alice.pk });
    expect(out[list[1]]).toEqual({ type: 'note', data: n1.id });
    expect(out[list[2]]).toMatchObject({ type: 'nevent', data: { id: n1.id } });
    expect(out[naddr]).toEqual({ type: 'naddr', data: { kind: 30023, pubkey: writer.pk, identifier: 'elso', relays: [] } });
    expect(out['szemét'].error).toMatch(/invalid nip19/);
    expect(out[nsec]).toEqual({ error: 'private keys are not decoded' });
    expectNotice(await req('nip19_decode', {}), /missing ids/);
    expectNotice(await req('nip19_decode', { ids: [1] }), /array of strings/);
    expectNotice(await req('nip19_decode', { ids: Array.from({ length: 101 }, () => list[0]) }), /too many ids/);
  });

  it('relays counts the current relay lists, capped by limit', async () => {
    const all = content<Record<string, number>>((await req('relays', {})).events[0]);
    expect(all).toEqual({ 'wss://egy.example': 3, 'wss://harom.example': 2, 'wss://ketto.example': 1 });
    const one = await req('relays', { limit: 1 });
    expect(one.events[0].kind).toBe(10000109);
    expect(content(one.events[0])).toEqual({ 'wss://egy.example': 3 });
    expect((await req('relays', { limit: 5000 })).notices).toEqual([]);
    expectNotice(await req('relays', { limit: 100_000 }), /limit too big/);
    expectNotice(await req('relays', { limit: 'sok' }), /invalid limit/);
  });

  it('nostr_stats adds store-wide counts to the net stats', async () => {
    const r = await req('nostr_stats');
    expect(r.events.map((e) => e.kind)).toEqual([10000136]);
    const s = content<Record<string, number>>(r.events[0]);
    for (const k of ['users', 'pubkeys', 'pubnotes', 'reactions', 'reposts', 'any', 'zaps', 'satszapped', 'first_event_at', 'last_event_at']) {
      expect(typeof s[k], k).toBe('number');
    }
    expect(s).toMatchObject({ articles: 2, follows: 4, relays: 3, zaps: 2, satszapped: 121 });
  });

  it('trusted_users ranks by followers scaled to 0..1, with profiles', async () => {
    const { alice, bob, carol } = srv.net;
    const r = await req('trusted_users', {});
    expect(r.events[0].kind).toBe(10000140);
    const list = content<{ pk: string; tr: number }[]>(r.events[0]);
    expect(list[0]).toEqual({ pk: alice.pk, tr: 1 });
    expect(list.slice(1).sort((a, b) => (a.pk < b.pk ? -1 : 1))).toEqual(
      [bob.pk, carol.pk].sort().map((pk) => ({ pk, tr: 0.5 })),
    );
    expect(ofKind(r.events, 0).map((e) => e.pubkey)).toEqual(list.map((u) => u.pk));
    expect(content<{ pk: string }[]>((await req('trusted_users', { limit: 1 })).events[0])).toHaveLength(1);
    expectNotice(await req('trusted_users', { limit: -1 }), /must not be negative/);
  });

  it('user_of_ln_address finds the current profile with that lud16, case-insensitively', async () => {
    for (const addr of ['kata@pelda.hu', 'KATA@Pelda.HU']) {
      const r = await req('user_of_ln_address', { ln_address: addr });
      expect(r.events[0]).toEqual({ kind: 10000138, content: JSON.stringify({ pubkey: kata.pk }) });
      expect(ofKind(r.events, 0).map((e) => e.pubkey)).toEqual([kata.pk]);
    }
    expect((await req('user_of_ln_address', { ln_address: 'nincs@pelda.hu' })).events).toEqual([]);
    expectNotice(await req('user_of_ln_address', {}), /missing ln_address/);
    expectNotice(await req('user_of_ln_address', { ln_address: 'nem-cim' }), /invalid ln_address/);
  });

  it('poll_votes counts one vote per pubkey, latest wins', async () => {
    const r = await req('poll_votes', { event_id: n.poll.id });
    expect(r.events[0].kind).toBe(10000179);
    expect(content(r.events[0])).toEqual({
      [n.poll.id]: [
        { id: 'a', label: 'Gulyás', votes: 2 },
        { id: 'b', label: 'Lángos', votes: 1 },
        { id: 'c', label: 'Pörkölt', votes: 1 },
      ],
    });
    const multi = content<Record<string, { id: string; votes: number }[]>>((await req('poll_votes', { event_id: n.multi.id })).events[0]);
    expect(multi[n.multi.id].map((o) => [o.id, o.votes])).toEqual([['x', 1], ['y', 2]]);
    expectNotice(await req('poll_votes', { event_id: srv.net.n1.id }), /not a poll/);
    expectNotice(await req('poll_votes', { event_id: 'xyz' }), /invalid event_id/);
  });

  it('articles_stats and top_article over every version of the articles', async () => {
    const stats = await req('articles_stats', { pubkey: writer.pk });
    expect(stats.events).toEqual([{ kind: 10000174, content: JSON.stringify({ articles: 2, drafts: 1, satszapped: 100 }) }]);
    const byZaps = await req('top_article', { pubkey: writer.pk, by: 'satszapped' });
    expect(ids(byZaps, 30023)).toEqual([n.elso2.id]);
    expect(rangeOf(byZaps)).toMatchObject({ order_by: 'satszapped', elements: [n.elso2.id], since: 100 });
    const byInteractions = await req('top_article', { pubkey: writer.pk, by: 'interactions' });
    expect(rangeOf(byInteractions)).toMatchObject({ order_by: 'interactions', elements: [n.masodik.id], since: 2 });
    expect(ofKind(byInteractions.events, 10000144)).toHaveLength(1);
    expect(rangeOf(await req('top_article', { pubkey: srv.net.bob.pk }))).toEqual({ order_by: 'satszapped', elements: [] });
    expectNotice(await req('top_article', { pubkey: writer.pk, by: 'likes' }), /invalid by/);
    expectNotice(await req('articles_stats', {}), /missing pubkey/);
  });
});
