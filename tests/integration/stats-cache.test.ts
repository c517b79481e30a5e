/**
 * Each note's counters and biggest zaps come from memory on a running server (hot-cache.ts stats and
 * zaps, issue 18): a repeated reply must not read them again, and a like, reply, repost, quote,
 * reaction by address, zap, deletion, and the expiry of 24-hour scores must show in the very next
 * reply, on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nip19 } from 'nostr-tools';
import { CacheKind } from '../../core/kinds.ts';
import { expireScores } from '../../server/ingest/scores.ts';
import { startCacheServer, watchReads, type CacheTestServer, type StoreKind } from './cache-server.ts';
import type { CacheClient } from './cache-client.ts';
import { person, sign } from './people.ts';

type Signed = ReturnType<typeof sign>;
const DAY = 86_400;

describe.each(['sqlite', 'postgres'] as const)('note counters from memory (%s)', (store: StoreKind) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  let statReads = 0;
  let zapReads = 0;
  let seq = 0;
  let at = 0;

  const publish = async (...events: Signed[]) => {
    const results = await srv.ctx.importer.importEvents(events);
    expect(results.filter((r) => !r.ok)).toEqual([]);
  };
  const reply = async (id: string) => {
    const r = await c.req(`s${seq++}`, 'events', { event_ids: [id], extended_response: true });
    expect(r.notices).toEqual([]);
    return r.events;
  };
  /** The counters of `id` in the reply to `asked` (a note, or a repost that carries it). */
  const counters = async (id: string, asked = id) => {
    const stats = (await reply(asked)).find((e) => e.kind === CacheKind.NOTE_STATS && String(e.content).includes(id))!;
    const s = JSON.parse(String(stats.content)) as Record<string, number>;
    return { likes: s.likes, replies: s.replies, reposts: s.reposts, mentions: s.mentions, zaps: s.zaps, sats: s.satszapped, day: s.score24h > 0 };
  };
  const zero = { likes: 0, replies: 0, reposts: 0, mentions: 0, zaps: 0, sats: 0, day: false };

  beforeAll(async () => {
    srv = await startCacheServer(store);
    watchReads(srv, (sql) => {
      if (/FROM event_stats WHERE event_id IN/.test(sql)) statReads++;
      if (/FROM zaps z WHERE target_event_id IN/.test(sql)) zapReads++;
    });
    c = await srv.connect();
    at = srv.ctx.now() - 1_000;
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it('a repeated reply reads no counters or zaps; each kind of action shows in the next reply', async () => {
    const writer = person();
    const fan = person();
    const note = sign(writer, 1, at, 'Számolj velem');
    await publish(note);
    const first = await reply(note.id);
    expect(await counters(note.id)).toEqual(zero);
    const [stats, zaps] = [statReads, zapReads];
    expect(stats).toBeGreaterThan(0);
    expect(zaps).toBeGreaterThan(0);
    expect(await reply(note.id)).toEqual(first);
    expect([statReads, zapReads]).toEqual([stats, zaps]);

    const like = sign(fan, 7, at + 1, '+', [['e', note.id], ['p', writer.pk]]);
    await publish(like);
    expect(await counters(note.id)).toEqual({ ...zero, likes: 1, day: true });
    await publish(sign(fan, 1, at + 2, 'Egyetértek', [['e', note.id, '', 'root'], ['p', writer.pk]]));
    expect(await counters(note.id)).toEqual({ ...zero, likes: 1, replies: 1, day: true });
    // A comment (NIP-22) is a reply of another kind.
    const k = String(note.kind);
    await publish(sign(person(), 1111, at + 2, 'Hozzászólás', [['E', note.id, '', writer.pk], ['K', k], ['P', writer.pk], ['e', note.id, '', writer.pk], ['k', k], ['p', writer.pk]]));
    expect(await counters(note.id)).toEqual({ ...zero, likes: 1, replies: 2, day: true });
    await publish(sign(fan, 6, at + 3, '', [['e', note.id], ['p', writer.pk]]));
    expect(await counters(note.id)).toEqual({ ...zero, likes: 1, replies: 2, reposts: 1, day: true });
    // A quote (counted with the reposts) that names the note in its text only: the importer finds the target, not the tags.
    await publish(sign(person(), 1, at + 4, `Nézzétek: nostr:${nip19.noteEncode(note.id)}`));
    expect(await counters(note.id)).toEqual({ ...zero, likes: 1, replies: 2, reposts: 2, day: true });
    // A deletion names the like, not the note.
    await publish(sign(fan, 5, at + 5, '', [['e', like.id]]));
    expect(await counters(note.id)).toEqual({ ...zero, replies: 2, reposts: 2, day: true });
  });

  it('a zap shows with its receipt, and a reaction to an article by its address counts', async () => {
    const { bob, n1, carol } = srv.net;
    const zapsOf = (events: Record<string, unknown>[]) =>
      events.filter((e) => e.kind === CacheKind.ZAP_INFO).map((e) => (JSON.parse(String(e.content)) as { amount_sats: number }).amount_sats);
    const before = await reply(n1.id);
    const zapsBefore = zapsOf(before);
    const wallet = person();
    const request = sign(carol, 9734, at + 10, 'Még egy', [['p', bob.pk], ['e', n1.id], ['amount', '50000'], ['relays', 'wss://egy.example']]);
    await publish(
      sign(wallet, 9735, at + 11, '', [
        ['p', bob.pk],
        ['e', n1.id],
        ['bolt11', 'lnbc500n1pjtestpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypq'],
        ['description', JSON.stringify(request)],
      ]),
    );
    const after = await reply(n1.id);
    expect(zapsOf(after)).toEqual([50, ...zapsBefore]);

    const author = person();
    const article = sign(author, 30023, at + 12, 'Cikk szövege', [['d', 'cikk'], ['title', 'Cikk']]);
    await publish(article);
    expect((await counters(article.id)).likes).toBe(0);
    await publish(sign(person(), 7, at + 13, '+', [['a', `30023:${author.pk}:cikk`], ['p', author.pk]]));
    expect((await counters(article.id)).likes).toBe(1);
  });

  it('the expiry of 24-hour scores shows in the next reply', async () => {
    const writer = person();
    const note = sign(writer, 1, at + 20, 'Mai jegyzet');
    await publish(note, sign(person(), 7, at + 21, '+', [['e', note.id], ['p', writer.pk]]));
    expect(await counters(note.id)).toEqual({ ...zero, likes: 1, day: true });
    expect(await expireScores(srv.ctx.db, srv.ctx.now() + 2 * DAY)).toBeGreaterThan(0);
    expect(await counters(note.id)).toEqual({ ...zero, likes: 1 });
  });

  it("an expiry forgets only the expired notes' counters: the others' stay in memory", async () => {
    const writer = person();
    const quiet = sign(writer, 1, at + 22, 'Csendes jegyzet');
    const liked = sign(writer, 1, at + 23, 'Kedvelt jegyzet');
    await publish(quiet, liked, sign(person(), 7, at + 24, '+', [['e', liked.id], ['p', writer.pk]]));
    const quietReply = await reply(quiet.id);
    expect(await counters(liked.id)).toEqual({ ...zero, likes: 1, day: true });
    expect(await expireScores(srv.ctx.db, srv.ctx.now() + 2 * DAY)).toBeGreaterThan(0);
    const reads = statReads;
    expect(await reply(quiet.id)).toEqual(quietReply);
    expect(statReads).toBe(reads);
    expect(await counters(liked.id)).toEqual({ ...zero, likes: 1 });
    expect(statReads).toBe(reads + 1);
  });

  it("an edited article's counters follow it, even when a repost showed the new version first", async () => {
    const author = person();
    const tags = [['d', 'szerkesztett'], ['title', 'Cikk']];
    const v1 = sign(author, 30023, at + 30, 'Első változat', tags);
    await publish(v1, sign(person(), 7, at + 31, '+', [['e', v1.id], ['p', author.pk]]));
    expect((await counters(v1.id)).likes).toBe(1);
    // The repost carries the new version before we have it: its counters are read (none) then.
    const v2 = sign(author, 30023, at + 32, 'Második változat', tags);
    const repost = sign(person(), 6, at + 33, JSON.stringify(v2), [['e', v2.id], ['p', author.pk]]);
    await publish(repost);
    expect((await counters(v2.id, repost.id)).likes).toBe(0);
    await publish(v2);
    expect((await counters(v2.id, repost.id)).likes).toBe(1);
  });
});
