import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nip19 } from 'nostr-tools';
import { generateSecretKey, getPublicKey, type EventTemplate } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Importer, NostrEvent } from '../../server/context.ts';
import { createImporter } from '../../server/ingest/importer.ts';
import { actionWeight, DAY, expireScores, scoreUnits } from '../../server/ingest/scores.ts';
import { parseZapReceipt } from '../../server/ingest/zaps.ts';
import { bolt11Sats } from '../../core/bolt11.ts';
import type { Database, SqlValue } from '../../server/store/db.ts';
import { openPostgres } from '../../server/store/postgres.ts';
import { openSqlite } from '../../server/store/sqlite.ts';
import { startTempPostgres, type TempPostgres } from '../support/postgres.ts';
import { signEvent } from '../support/sign.ts';

const NOW = 1_800_000_000;
const LIKE = scoreUnits(1);
const REPOST = scoreUnits(7);
const ZAP = scoreUnits(5);

let dir: string;
let pgServer: TempPostgres | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'strucc-importer-'));
});

afterAll(() => {
  pgServer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

// Every query runs on both backends behind the storage seam, so the importer's SQL is checked for portability.
function importerSuite(backend: string, open: () => Promise<Database>) {
  describe(backend, () => {
    let db: Database;
    let importer: Importer;
    const clock = NOW;
    const emitted: NostrEvent[] = [];

    beforeAll(async () => {
      db = await open();
      const live = new EventEmitter();
      live.on('event', (e: NostrEvent) => emitted.push(e));
      importer = createImporter({ db, live, now: () => clock });
    });

    afterAll(async () => {
      await db?.close();
    });

    const alice = generateSecretKey();
    const bob = generateSecretKey();
    const carol = generateSecretKey();
    const zapper = generateSecretKey();

    const sign = (key: Uint8Array, t: Partial<EventTemplate> & { kind: number }) => signEvent(key, { created_at: NOW - 60, ...t });

    async function put(...events: unknown[]) {
      return importer.importEvents(events);
    }

    async function stats(id: string) {
      return db.get<Record<string, number>>('SELECT likes, replies, reposts, zaps, satszapped, score, score24h FROM event_stats WHERE event_id = ?', [id]);
    }

    describe('checks before import', () => {
      it('refuses bad ids and signatures, far-future events and unaccepted kinds, with NIP-01 prefixes', async () => {
        const good = sign(alice, { kind: 1, content: 'szia' });
        const badSig = { ...sign(alice, { kind: 1, content: 'másik' }) };
        badSig.sig = (badSig.sig[0] === 'a' ? 'b' : 'a') + badSig.sig.slice(1);
        const badId = { ...sign(alice, { kind: 1, content: 'harmadik' }), content: 'átírva' };
        const future = sign(alice, { kind: 1, created_at: NOW + 301 });
        const odd = sign(alice, { kind: 30382, tags: [['d', 'x']] });
        const res = await put(good, badSig, badId, future, odd, { id: 'nope' }, 'not an event', good);
        expect(res.map((r) => [r.ok, r.reason.split(':')[0]])).toEqual([
          [true, ''],
          [false, 'invalid'],
          [false, 'invalid'],
          [false, 'invalid'],
          [false, 'blocked'],
          [false, 'invalid'],
          [false, 'invalid'],
          [true, 'duplicate'],
        ]);
        expect((await put(good))[0].reason).toMatch(/^duplicate:/);
        expect(emitted.some((e) => e.id === good.id)).toBe(true);
      });

      it('refuses an event larger than 500,000 characters of JSON', async () => {
        const big = sign(alice, { kind: 1, content: 'x'.repeat(500_001) });
        expect((await put(big))[0]).toMatchObject({ ok: false, reason: expect.stringMatching(/^invalid:/) });
      });

      it('a write that fails costs only its own event: the rest of the batch is stored and announced', async () => {
        const batch = [1, 2, 3, 4].map((i) => sign(bob, { kind: 1, content: `kötegben ${i}` }));
        const poisoned = batch[2].id;
        // The database refuses one of the event's rows (after its events row went in), as a full disk or a broken constraint would.
        const hits = (sql: string, params?: SqlValue[]) => sql.startsWith('INSERT INTO posts ') && params?.[0] === poisoned;
        let failedLater = 0;
        const failing: Database = {
          ...db,
          transaction: (fn, opts) =>
            db.transaction(
              (tx) =>
                fn({
                  ...tx,
                  run: (sql, params) => (hits(sql, params) ? Promise.reject(new Error('lemez megtelt')) : tx.run(sql, params)),
                  // A write sent without waiting (PostgreSQL's pipelined group) fails in the database itself,
                  // and only a later read or the flush sees it: the group must still be retried event by event.
                  ...(tx.write && {
                    write: (sql: string, params?: SqlValue[]) => {
                      if (!hits(sql, params)) return tx.write!(sql, params);
                      failedLater++;
                      return tx.write!('SELECT CAST(? AS integer) AS x', ['lemez megtelt']);
                    },
                  }),
                }),
              opts,
            ),
        };
        const seenLive: string[] = [];
        const live = new EventEmitter();
        live.on('event', (e: NostrEvent) => seenLive.push(e.id));
        const res = await createImporter({ db: failing, live, now: () => clock }).importEvents(batch);
        expect(res.map((r) => [r.ok, r.reason])).toEqual([
          [true, ''],
          [true, ''],
          [false, 'error: lemez megtelt'],
          [true, ''],
        ]);
        expect(seenLive).toEqual([batch[0].id, batch[1].id, batch[3].id]);
        expect(failedLater).toBe(backend === 'PostgreSQL' ? 1 : 0);
        const stored = await db.all<{ id: string }>(`SELECT id FROM events WHERE id IN (?, ?, ?, ?) ORDER BY id`, batch.map((e) => e.id));
        expect(stored.map((r) => r.id)).toEqual([batch[0].id, batch[1].id, batch[3].id].sort());
        // Nothing of the failed event was left behind in the derived tables either.
        expect(await db.get('SELECT 1 AS x FROM posts WHERE event_id = ?', [poisoned])).toBeUndefined();
        expect(await db.get('SELECT 1 AS x FROM event_stats WHERE event_id = ?', [poisoned])).toBeUndefined();
      });
    });

    describe('replaceable events', () => {
      it('keeps the newest version, and the lowest id on a created_at tie', async () => {
        const older = sign(bob, { kind: 0, created_at: NOW - 500, content: '{"name":"régi"}' });
        const tieA = sign(bob, { kind: 0, created_at: NOW - 100, content: '{"name":"a"}' });
        const tieB = sign(bob, { kind: 0, created_at: NOW - 100, content: '{"name":"b"}' });
        const [low, high] = tieA.id < tieB.id ? [tieA, tieB] : [tieB, tieA];
        await put(high, older, low);
        const row = await db.get<{ event_id: string }>('SELECT event_id FROM replaceable WHERE pubkey = ? AND kind = 0', [getPublicKey(bob)]);
        expect(row?.event_id).toBe(low.id);
        // Superseded versions are not kept, whichever order they came in.
        for (const gone of [older, high]) expect(await db.get('SELECT id FROM events WHERE id = ?', [gone.id])).toBeUndefined();
      });

      it('keys addressable events by d and diffs follows from the current contact list', async () => {
        const [a, b, c] = [alice, bob, carol].map(getPublicKey);
        await put(sign(carol, { kind: 3, created_at: NOW - 50, tags: [['p', a], ['p', b]] }));
        await put(sign(carol, { kind: 3, created_at: NOW - 40, tags: [['p', b], ['p', c]] }));
        await put(sign(carol, { kind: 3, created_at: NOW - 45, tags: [['p', a]] }));
        const follows = await db.all<{ follows: string }>('SELECT follows FROM follows WHERE pubkey = ? ORDER BY follows', [c]);
        expect(follows.map((f) => f.follows)).toEqual([b, c].sort());
      });
    });

    describe('counters and scores', () => {
      it('counts likes (anything but "-"), replies by length, reposts, quotes and zaps, scoring only first actions', async () => {
        const note = sign(alice, { kind: 1, content: 'Jó reggelt!' });
        await put(note);
        const like = sign(bob, { kind: 7, tags: [['e', note.id], ['p', note.pubkey]], content: '🔥' });
        const like2 = sign(bob, { kind: 7, created_at: NOW - 50, tags: [['e', note.id]], content: '+' });
        const dislike = sign(carol, { kind: 7, tags: [['e', note.id]], content: '-' });
        const reply = sign(carol, { kind: 1, tags: [['e', note.id, '', 'root']], content: 'x'.repeat(150) });
        const repost = sign(bob, { kind: 6, tags: [['e', note.id], ['p', note.pubkey]], content: JSON.stringify(note) });
        const quote = sign(carol, { kind: 1, content: `nézd: nostr:${nip19.noteEncode(note.id)}` });
        await put(like, like2, dislike, reply, repost, quote);
        expect(await stats(note.id)).toMatchObject({
          likes: 2,
          replies: 1,
          reposts: 2,
          score: LIKE + scoreUnits(10) + REPOST + REPOST,
          score24h: LIKE + scoreUnits(10) + REPOST + REPOST,
        });
        const actions = await db.get<Record<string, number>>('SELECT liked, replied, reposted FROM event_actions WHERE event_id = ? AND pubkey = ?', [
          note.id,
          getPublicKey(bob),
        ]);
        expect(actions).toEqual({ liked: 1, replied: 0, reposted: 1 });
        const post = await db.get<{ parent_id: string; is_reply: number }>('SELECT parent_id, is_reply FROM posts WHERE event_id = ?', [reply.id]);
        expect(post).toEqual({ parent_id: note.id, is_reply: 1 });
      });

      it('weighs replies 1, 5 or 10 by content length', () => {
        expect([actionWeight('reply', 'x'.repeat(20)), actionWeight('reply', 'x'.repeat(100)), actionWeight('reply', 'x'.repeat(101))]).toEqual([1, 5, 10]);
        expect(LIKE).toBe(109_890_109);
      });

      it('counts an action that arrives before its target', async () => {
        const note = sign(alice, { kind: 1, content: 'később érkezik' });
        await put(sign(bob, { kind: 7, tags: [['e', note.id]], content: '+' }));
        await put(note);
        expect(await stats(note.id)).toMatchObject({ likes: 1, score: LIKE });
        expect(await db.get('SELECT author FROM event_stats WHERE event_id = ?', [note.id])).toEqual({ author: note.pubkey });
      });

      it('adds score24h only for fresh actions and takes it back after 24 h', async () => {
        const note = sign(alice, { kind: 1, created_at: NOW - 3 * DAY, content: 'régi poszt' });
        const oldLike = sign(bob, { kind: 7, created_at: NOW - 2 * DAY, tags: [['e', note.id]], content: '+' });
        const freshLike = sign(carol, { kind: 7, created_at: NOW - 100, tags: [['e', note.id]], content: '+' });
        await put(note, oldLike, freshLike);
        expect(await stats(note.id)).toMatchObject({ score: 2 * LIKE, score24h: LIKE });
        await expireScores(db, NOW - 100 + DAY);
        expect(await stats(note.id)).toMatchObject({ score: 2 * LIKE, score24h: 0 });
      });
    });

    function zapReceipt(target: NostrEvent | null, bolt11: string, amountMsats?: number, tweak: (tags: string[][]) => string[][] = (t) => t) {
      const request = sign(bob, {
        kind: 9734,
        content: 'Szép munka!',
        tags: [['p', getPublicKey(alice)], ...(target ? [['e', target.id]] : []), ...(amountMsats ? [['amount', String(amountMsats)]] : [])],
      });
      const tags = [['p', getPublicKey(alice)], ...(target ? [['e', target.id]] : []), ['bolt11', bolt11], ['description', JSON.stringify(request)]];
      return sign(zapper, { kind: 9735, tags: tweak(tags) });
    }

    describe('zaps', () => {
      it('reads bolt11 amounts with every multiplier', () => {
        expect(bolt11Sats('lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqf')).toBe(250_000);
        expect(bolt11Sats('lnbc20m1pvjluezpp5qqqsyqcyq5rqwzqf')).toBe(2_000_000);
        expect(bolt11Sats('lnbc10n1pvjluezpp5qqqsyqcyq5rqwzqf')).toBe(1);
        expect(bolt11Sats('lnbc50000p1pvjluezpp5qqqsyqcyq5rqwzqf')).toBe(5);
        expect(bolt11Sats('lnbc2100000n1pvjluez')).toBe(210_000);
        expect(bolt11Sats('lnbc1pvjluezpp5qqqsyqcyq5rqwzqf')).toBeNull();
        expect(bolt11Sats('lntb2500u1pvjluezpp5')).toBeNull();
        expect(bolt11Sats('lnbc31pvjluezpp5')).toBe(300_000_000);
      });

      it('falls back to the zap request amount and rejects zero, too large, no description or no p tag', () => {
        expect(parseZapReceipt(zapReceipt(null, 'lnbc1pvjluez', 21_000))).toMatchObject({ amountSats: 21 });
        expect(typeof parseZapReceipt(zapReceipt(null, 'lnbc1pvjluez'))).toBe('string');
        expect(typeof parseZapReceipt(zapReceipt(null, 'lnbc20m1pvjluez'))).toBe('string');
        expect(typeof parseZapReceipt(zapReceipt(null, 'lnbc10u1pvjluez', undefined, (t) => t.filter((x) => x[0] !== 'description')))).toBe('string');
        expect(typeof parseZapReceipt(zapReceipt(null, 'lnbc10u1pvjluez', undefined, (t) => t.map((x) => (x[0] === 'description' ? ['description', '{nem json'] : x))))).toBe(
          'string',
        );
        expect(typeof parseZapReceipt(zapReceipt(null, 'lnbc10u1pvjluez', undefined, (t) => t.filter((x) => x[0] !== 'p')))).toBe('string');
      });

      it('counts zaps on notes with the sender from the zap request, and keeps them for top zaps', async () => {
        const note = sign(alice, { kind: 1, content: 'zappolj meg' });
        await put(note);
        await put(zapReceipt(note, 'lnbc10u1pvjluez'), zapReceipt(note, 'lnbc50n1pvjluez'));
        expect(await stats(note.id)).toMatchObject({ zaps: 2, satszapped: 1005, score: ZAP });
        const rows = await db.all<{ sender: string; amount_sats: number }>('SELECT sender, amount_sats FROM zaps WHERE target_event_id = ? ORDER BY amount_sats DESC', [
          note.id,
        ]);
        expect(rows).toEqual([
          { sender: getPublicKey(bob), amount_sats: 1000 },
          { sender: getPublicKey(bob), amount_sats: 5 },
        ]);
      });

      it('keeps no zap on targets that are not notes or articles', async () => {
        const profile = sign(carol, { kind: 10002, tags: [['r', 'wss://x']] });
        await put(profile);
        await put(zapReceipt(profile, 'lnbc10u1pvjluez'));
        expect(await db.get('SELECT 1 AS x FROM zaps WHERE target_event_id = ?', [profile.id])).toBeUndefined();
      });
    });

    describe('deletions', () => {
      it('lets only the author delete, and undoes the deleted reaction and repost', async () => {
        const note = sign(alice, { kind: 1, content: 'törölhető?' });
        const like = sign(bob, { kind: 7, tags: [['e', note.id]], content: '+' });
        const repost = sign(bob, { kind: 6, tags: [['e', note.id]] });
        await put(note, like, repost);
        expect(await stats(note.id)).toMatchObject({ likes: 1, reposts: 1, score: LIKE + REPOST });

        const stranger = sign(carol, { kind: 5, tags: [['e', note.id], ['e', like.id]] });
        await put(stranger);
        expect(await db.get('SELECT id FROM events WHERE id = ?', [note.id])).toEqual({ id: note.id });
        expect(await stats(note.id)).toMatchObject({ likes: 1 });

        await put(sign(bob, { kind: 5, created_at: NOW - 10, tags: [['e', like.id], ['e', repost.id]] }));
        expect(await stats(note.id)).toMatchObject({ likes: 0, reposts: 0, score: 0, score24h: 0 });
        expect(await db.get('SELECT liked, reposted FROM event_actions WHERE event_id = ? AND pubkey = ?', [note.id, getPublicKey(bob)])).toEqual({
          liked: 0,
          reposted: 0,
        });
        expect((await put(like))[0]).toMatchObject({ ok: false, reason: 'blocked: deleted' });

        await put(sign(alice, { kind: 5, created_at: NOW - 5, tags: [['e', note.id]] }));
        expect(await db.get('SELECT id FROM events WHERE id = ?', [note.id])).toBeUndefined();
        expect(await db.get('SELECT 1 AS x FROM posts WHERE event_id = ?', [note.id])).toBeUndefined();
      });

      it('keeps a tombstone when the deletion arrives first, for the author only', async () => {
        const note = sign(alice, { kind: 1, content: 'még meg sem érkezett' });
        await put(sign(carol, { kind: 5, tags: [['e', note.id]] }));
        await put(sign(alice, { kind: 5, tags: [['e', note.id]] }));
        expect((await put(note))[0]).toMatchObject({ ok: false, reason: 'blocked: deleted' });
        const other = sign(bob, { kind: 1, content: 'ezt csak carol "törölte"' });
        await put(sign(carol, { kind: 5, tags: [['e', other.id]] }));
        expect((await put(other))[0]).toMatchObject({ ok: true });
      });

      it('deletes by address only for the owner, and refuses older versions afterwards', async () => {
        const a = getPublicKey(alice);
        const article = sign(alice, { kind: 30023, created_at: NOW - 100, tags: [['d', 'cikk'], ['title', 'Cikk']], content: 'szöveg' });
        await put(article);
        await put(sign(bob, { kind: 5, tags: [['a', `30023:${a}:cikk`]] }));
        expect(await db.get('SELECT 1 AS x FROM replaceable WHERE event_id = ?', [article.id])).toEqual({ x: 1 });
        await put(sign(alice, { kind: 5, created_at: NOW - 50, tags: [['a', `30023:${a}:cikk`]] }));
        expect(await db.get('SELECT 1 AS x FROM events WHERE id = ?', [article.id])).toBeUndefined();
        const older = sign(alice, { kind: 30023, created_at: NOW - 70, tags: [['d', 'cikk']], content: 'régebbi' });
        const newer = sign(alice, { kind: 30023, created_at: NOW - 20, tags: [['d', 'cikk']], content: 'újabb' });
        expect((await put(older, newer)).map((r) => r.ok)).toEqual([false, true]);
      });
    });
  });
}

importerSuite('SQLite', async () => openSqlite(join(dir, 'strucc.sqlite')));
importerSuite('PostgreSQL', async () => {
  pgServer = await startTempPostgres();
  return openPostgres(pgServer.url);
});

// PostgreSQL commits a refetchable import without waiting for the WAL flush, so a crash may lose it:
// only events the relays they came from still hold may go that way, never an acknowledged one.
describe('imports a crash may lose', () => {
  it('are only those from followed relays and the benchmark', async () => {
    const db = openSqlite(join(dir, 'refetchable.sqlite'));
    const asked: (boolean | undefined)[] = [];
    const watched: Database = {
      ...db,
      transaction: (fn, opts) => {
        asked.push(opts?.refetchable);
        return db.transaction(fn, opts);
      },
    };
    const importer = createImporter({ db: watched, live: new EventEmitter(), now: () => NOW });
    const sources: [string | undefined, boolean][] = [
      ['relay', false], ['cache', false], ['lightning', false], ['demo', false], [undefined, false],
      ['wss://relay.example.com', true], ['ws://127.0.0.1:7777', true], ['bench', true],
    ];
    for (const [source, refetchable] of sources) {
      asked.length = 0;
      const event = signEvent(generateSecretKey(), { kind: 1, created_at: NOW - 5, content: `forrás: ${source}` });
      expect((await importer.importEvents([event], source))[0].ok).toBe(true);
      expect(asked).toEqual([refetchable]);
    }
    await db.close();
  });
});
