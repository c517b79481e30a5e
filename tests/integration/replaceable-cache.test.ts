/**
 * Profiles, contact, mute, relay and media-server lists come from memory on a running server
 * (CACHED_REPLACEABLE_KINDS in server/cache/hot-cache.ts, issue 18's load test): a repeated
 * user_infos must not read them again, and a new or replaced profile, a deleted one, a new
 * media-server list, contact list and mute list must show in the very next reply, on SQLite and PostgreSQL.
 * Regular events by id too (eventsByIds): a deleted note must be gone from the next reply.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheKind } from '../../core/kinds.ts';
import { startCacheServer, watchReads, type CacheTestServer, type StoreKind } from './cache-server.ts';
import type { CacheClient } from './cache-client.ts';
import { person, sign } from './people.ts';

type Signed = ReturnType<typeof sign>;

describe.each(['sqlite', 'postgres'] as const)('replaceable events from memory (%s)', (store: StoreKind) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  let profileReads = 0;
  let seq = 0;
  let at = 0;

  const publish = async (...events: Signed[]) => {
    const results = await srv.ctx.importer.importEvents(events);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  };
  const req = async (command: string, kwargs: Record<string, unknown>) => {
    const r = await c.req(`r${seq++}`, command, kwargs);
    expect(r.notices).toEqual([]);
    return r.events;
  };
  const names = async (pubkeys: string[]) =>
    (await req('user_infos', { pubkeys }))
      .filter((e) => e.kind === 0)
      .map((e) => `${String(e.pubkey).slice(0, 8)}:${(JSON.parse(String(e.content)) as { name: string }).name}`);
  const tagsOf = (events: Record<string, unknown>[], kind: number) => events.filter((e) => e.kind === kind).map((e) => e.tags);

  beforeAll(async () => {
    srv = await startCacheServer(store);
    watchReads(srv, (sql, params) => {
      if (/FROM replaceable r JOIN events e/.test(sql) && params[0] === 0) profileReads++;
    });
    c = await srv.connect();
    at = srv.ctx.now() - 1_000;
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it('a repeated user_infos is answered from memory with the same reply', async () => {
    const { alice, bob } = srv.net;
    profileReads = 0;
    const first = await req('user_infos', { pubkeys: [bob.pk, alice.pk] });
    expect(first.filter((e) => e.kind === 0).map((e) => e.pubkey)).toEqual([bob.pk, alice.pk]);
    const reads = profileReads;
    expect(reads).toBeGreaterThan(0);
    expect(await req('user_infos', { pubkeys: [bob.pk, alice.pk] })).toEqual(first);
    expect(profileReads).toBe(reads);
  });

  it('a new, a replaced and a deleted profile show in the next reply', async () => {
    const dora = person();
    const short = dora.pk.slice(0, 8);
    expect(await names([dora.pk])).toEqual([]);
    const first = sign(dora, 0, at, JSON.stringify({ name: 'dora' }));
    await publish(first);
    expect(await names([dora.pk])).toEqual([`${short}:dora`]);
    const second = sign(dora, 0, at + 1, JSON.stringify({ name: 'Dóra' }));
    await publish(second);
    expect(await names([dora.pk, srv.net.alice.pk])).toEqual([`${short}:Dóra`, `${srv.net.alice.pk.slice(0, 8)}:alice`]);
    await publish(sign(dora, 5, at + 2, '', [['e', second.id]]));
    expect(await names([dora.pk])).toEqual([]);
  });

  it('media-server, contact, relay and mute lists show in the next reply', async () => {
    const emil = person();
    await publish(sign(emil, 0, at, JSON.stringify({ name: 'emil' })));
    expect(tagsOf(await req('user_infos', { pubkeys: [emil.pk] }), 10063)).toEqual([]);
    await publish(sign(emil, 10063, at + 1, '', [['server', 'https://egy.example']]));
    expect(tagsOf(await req('user_infos', { pubkeys: [emil.pk] }), 10063)).toEqual([[['server', 'https://egy.example']]]);
    await publish(sign(emil, 10063, at + 2, '', [['server', 'https://ketto.example']]));
    expect(tagsOf(await req('user_infos', { pubkeys: [emil.pk] }), 10063)).toEqual([[['server', 'https://ketto.example']]]);

    expect(tagsOf(await req('contact_list', { pubkey: emil.pk }), 3)).toEqual([]);
    await publish(sign(emil, 3, at + 3, '', [['p', srv.net.alice.pk]]));
    expect(tagsOf(await req('contact_list', { pubkey: emil.pk }), 3)).toEqual([[['p', srv.net.alice.pk]]]);
    await publish(sign(emil, 3, at + 4, '', [['p', srv.net.bob.pk]]));
    expect(tagsOf(await req('contact_list', { pubkey: emil.pk }), 3)).toEqual([[['p', srv.net.bob.pk]]]);

    const relays = await req('get_user_relays', { pubkey: emil.pk });
    await publish(sign(emil, 10002, at + 5, '', [['r', 'wss://relay.egy.example']]));
    const after = await req('get_user_relays', { pubkey: emil.pk });
    expect(after).not.toEqual(relays);
    expect(JSON.stringify(after)).toContain('wss://relay.egy.example');

    expect(tagsOf(await req('mutelist', { pubkey: emil.pk }), 10000)).toEqual([]);
    await publish(sign(emil, 10000, at + 6, '', [['p', srv.net.carol.pk]]));
    expect(tagsOf(await req('mutelist', { pubkey: emil.pk }), 10000)).toEqual([[['p', srv.net.carol.pk]]]);
    await publish(sign(emil, 10000, at + 7, '', []));
    expect(tagsOf(await req('mutelist', { pubkey: emil.pk }), 10000)).toEqual([[]]);
  });

  it('a repeated events reply reads no events; a deleted note and a new reaction show in the next reply', async () => {
    const gabi = person();
    const note = sign(gabi, 1, at, 'Gabi jegyzete');
    const reply = sign(srv.net.bob, 1, at + 1, 'Bob válasza', [['e', note.id, '', 'root'], ['p', gabi.pk]]);
    await publish(sign(gabi, 0, at, JSON.stringify({ name: 'gabi' })), note, reply);
    let eventReads = 0;
    watchReads(srv, (sql) => {
      if (/FROM events e WHERE e\.id IN/.test(sql)) eventReads++;
    });
    const ids = async (command: string, kwargs: Record<string, unknown>) =>
      (await req(command, kwargs)).filter((e) => e.kind === 1).map((e) => e.id);
    const first = await ids('events', { event_ids: [note.id, reply.id] });
    expect([...first].sort()).toEqual([note.id, reply.id].sort());
    const reads = eventReads;
    expect(await ids('events', { event_ids: [note.id, reply.id] })).toEqual(first);
    expect(eventReads).toBe(reads);
    const likes = async () => {
      const stats = (await req('events', { event_ids: [note.id], extended_response: true })).find((e) => e.kind === CacheKind.NOTE_STATS)!;
      return (JSON.parse(String(stats.content)) as { likes: number }).likes;
    };
    expect(await likes()).toBe(0);
    await publish(sign(srv.net.alice, 7, at + 2, '+', [['e', note.id], ['p', gabi.pk]]));
    expect(await likes()).toBe(1);

    expect(await ids('thread_view', { event_id: note.id, limit: 20 })).toEqual(expect.arrayContaining([note.id, reply.id]));
    await publish(sign(srv.net.bob, 5, at + 3, '', [['e', reply.id]]));
    expect(await ids('events', { event_ids: [note.id, reply.id] })).toEqual([note.id]);
    expect(await ids('thread_view', { event_id: note.id, limit: 20 })).toEqual([note.id]);
  });

  it('a reply with profiles carries the profile as it is now (a feed of notes)', async () => {
    const fan = person();
    const writer = person();
    await publish(sign(writer, 0, at, JSON.stringify({ name: 'író' })), sign(writer, 1, at + 1, 'Az író jegyzete'), sign(fan, 3, at, '', [['p', writer.pk]]));
    const profileName = async () => {
      const events = await req('feed', { pubkey: fan.pk, notes: 'follows', limit: 20, user_pubkey: fan.pk });
      const prof = events.find((e) => e.kind === 0 && e.pubkey === writer.pk)!;
      return (JSON.parse(String(prof.content)) as { name: string }).name;
    };
    expect(await profileName()).toBe('író');
    await publish(sign(writer, 0, at + 2, JSON.stringify({ name: 'Író Ildikó' })));
    expect(await profileName()).toBe('Író Ildikó');
  });
});

