import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSecretKey, getPublicKey, type EventTemplate } from 'nostr-tools/pure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NostrEvent } from '../../server/context.ts';
import { createImporter } from '../../server/ingest/importer.ts';
import { N } from '../../server/ingest/notification-types.ts';
import { docKey } from '../../server/search/tokens.ts';
import type { Database } from '../../server/store/db.ts';
import { openPostgres } from '../../server/store/postgres.ts';
import { openSqlite } from '../../server/store/sqlite.ts';
import { createDatabase, startTempPostgres, type TempPostgres } from '../support/postgres.ts';
import { signEvent } from '../support/sign.ts';

/**
 * Events of one import group that depend on each other must leave exactly the rows they leave when
 * they arrive one by one, through the plain statement-by-statement transaction. On PostgreSQL the group
 * is written pipelined (writes sent without waiting for their answers, server/store/postgres.ts), so
 * this is where a read that ran ahead of a write it depends on would show.
 */
const NOW = 1_800_000_000;

/** Every table the importer and its indexers write. */
const TABLES = [
  'events', 'event_tags', 'replaceable', 'tombstones', 'posts', 'event_stats', 'score_expiry', 'event_actions',
  'event_action_refs', 'follows', 'zaps', 'notifications', 'notification_counts', 'dm_messages', 'dm_threads',
  'event_media', 'event_links', 'media', 'hashtag_uses', 'follower_days', 'articles', 'article_topics',
  'contact_list_history', 'replaced_versions', 'search_docs', 'search_users',
];

/** A table's rows as sorted JSON, without the surrogate row numbers (they follow insertion order). */
async function dump(db: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of TABLES) {
    const rows = await db.all<Record<string, unknown>>(`SELECT * FROM ${table}`);
    out[table] = rows
      .map((r) => {
        const { doc: _doc, ...rest } = r;
        if (table === 'search_users') delete rest.id;
        return JSON.stringify(Object.keys(rest).sort().map((k) => [k, rest[k]]));
      })
      .sort();
  }
  return out;
}

/** The same store with every transaction awaited statement by statement (no pipelining). */
const oneStatementAtATime = (db: Database): Database => ({ ...db, transaction: (fn) => db.transaction(fn) });

let dir: string;
let pgServer: TempPostgres | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'strucc-import-group-'));
});
afterAll(() => {
  pgServer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

let made = 0;
async function freshPostgres(): Promise<Database> {
  pgServer ??= await startTempPostgres();
  return openPostgres(await createDatabase(pgServer.url, `strucc_group_${++made}`));
}

function groupSuite(backend: string, open: () => Promise<Database>) {
  describe(backend, () => {
    const alice = generateSecretKey();
    const bob = generateSecretKey();
    const carol = generateSecretKey();
    const [a, b, c] = [alice, bob, carol].map((k) => getPublicKey(k));
    const sign = (key: Uint8Array, t: Partial<EventTemplate> & { kind: number }) => signEvent(key, { created_at: NOW - 600, ...t });

    const note = sign(alice, { kind: 1, content: 'Kávéházban ülök #kávé', tags: [['t', 'kávé']] });
    const like = sign(bob, { kind: 7, content: '+', tags: [['e', note.id], ['p', a]] });
    const reply = sign(carol, { kind: 1, content: 'Melyikben? Én is megyek.', tags: [['e', note.id, '', 'root'], ['p', a]] });
    const profiles = [300, 200, 100].map((ago, i) => sign(alice, { kind: 0, created_at: NOW - ago, content: JSON.stringify({ name: `alice${i}` }) }));
    const staleProfile = sign(alice, { kind: 0, created_at: NOW - 400, content: JSON.stringify({ name: 'régi' }) });
    const article1 = sign(alice, { kind: 30023, created_at: NOW - 500, tags: [['d', 'cikk'], ['title', 'Első'], ['t', 'pest']], content: 'első változat' });
    const articleLike = sign(carol, { kind: 7, content: '🤙', tags: [['a', `30023:${a}:cikk`]] });
    const article2 = sign(alice, { kind: 30023, created_at: NOW - 50, tags: [['d', 'cikk'], ['title', 'Második'], ['t', 'buda']], content: 'második változat' });
    // Its media, link and hashtag rows are held for the group's multi-row statements (insertRows) when
    // the deletion below removes them: they must go out before the DELETE, not after it.
    const doomed = sign(bob, { kind: 1, content: 'ezt mindjárt törlöm https://media.strucc.test/img/9.svg https://example.com/torles', tags: [['t', 'törlés']] });
    // Two notes share an image and a link: one row each in media, a use each in event_media.
    const pics = [1, 2].map((i) =>
      sign(carol, { kind: 1, created_at: NOW - 400 + i, content: `kép ${i} https://media.strucc.test/img/7.svg https://example.com/kavehaz`, tags: [['t', 'kávé'], ['t', `kép${i}`]] }),
    );
    const repost = sign(carol, { kind: 6, content: '', tags: [['e', doomed.id], ['p', b]] });
    const deletion = sign(bob, { kind: 5, created_at: NOW - 10, tags: [['e', doomed.id]] });
    // More follows than one multi-row statement holds (64), so the lists are written in several.
    const strangers = Array.from({ length: 70 }, () => getPublicKey(generateSecretKey()));
    const follows1 = sign(bob, { kind: 3, created_at: NOW - 300, tags: [a, c, ...strangers].map((p) => ['p', p]) });
    const follows2 = sign(bob, { kind: 3, created_at: NOW - 100, tags: [c, ...strangers.slice(0, 3)].map((p) => ['p', p]) });
    const unlike = sign(bob, { kind: 5, created_at: NOW - 5, tags: [['e', like.id]] });
    const events: NostrEvent[] = [
      note, like, ...pics, reply, ...profiles, staleProfile, article1, articleLike, article2, doomed, repost, deletion, follows1, follows2, unlike,
    ];

    let grouped: Database;
    let single: Database;
    beforeAll(async () => {
      grouped = await open();
      single = await open();
    });
    afterAll(async () => {
      await grouped?.close();
      await single?.close();
    });

    it('writes one group of dependent events exactly as one event at a time would', async () => {
      const res = await createImporter({ db: grouped, live: new EventEmitter(), now: () => NOW }).importEvents(events);
      expect(res.map((r) => r.ok)).toEqual(events.map(() => true));
      const one = createImporter({ db: oneStatementAtATime(single), live: new EventEmitter(), now: () => NOW });
      for (const e of events) expect((await one.importEvents([e]))[0].ok).toBe(true);

      const got = await dump(grouped);
      expect(got).toEqual(await dump(single));

      // And the rows are the right ones, not the same wrong ones on both sides.
      const stats = (id: string) => grouped.get<{ likes: number; replies: number; reposts: number }>(
        'SELECT likes, replies, reposts FROM event_stats WHERE event_id = ?',
        [id],
      );
      expect(await stats(note.id)).toEqual({ likes: 0, replies: 1, reposts: 0 });
      expect(await stats(article2.id)).toEqual({ likes: 1, replies: 0, reposts: 0 });
      expect(await grouped.get('SELECT 1 AS x FROM event_stats WHERE event_id = ?', [article1.id])).toBeUndefined();
      const current = await grouped.all<{ kind: number; event_id: string }>('SELECT kind, event_id FROM replaceable WHERE pubkey = ? ORDER BY kind', [a]);
      expect(current).toEqual([
        { kind: 0, event_id: profiles[2].id },
        { kind: 30023, event_id: article2.id },
      ]);
      for (const gone of [doomed.id, like.id, profiles[0].id, profiles[1].id, staleProfile.id, article1.id]) {
        expect(await grouped.get('SELECT 1 AS x FROM events WHERE id = ?', [gone])).toBeUndefined();
      }
      const follows = await grouped.all<{ follows: string }>('SELECT follows FROM follows WHERE pubkey = ?', [b]);
      expect(follows.map((r) => r.follows).sort()).toEqual([c, ...strangers.slice(0, 3)].sort());
      // alice and 67 of the strangers were followed and unfollowed again on the same day.
      expect(got.follower_days.filter((r) => r.includes('"increase",0')).length).toBe(68);
      // A new-follower notification (type 1) for each of the 72 first followed, each counted once.
      expect(got.notifications.filter((r) => r.includes('["type",1]')).length).toBe(72);
      expect(got.notification_counts.filter((r) => r.includes('["type",1]')).every((r) => r.startsWith('[["cnt",1]'))).toBe(true);
      expect(got.notification_counts.filter((r) => r.includes('["type",1]')).length).toBe(72);
      expect(got.event_tags.some((r) => r.includes(article1.id))).toBe(false);
      for (const table of ['event_media', 'event_links', 'hashtag_uses', 'event_tags']) {
        expect(got[table].some((r) => r.includes(`["event_id","${doomed.id}"]`))).toBe(false);
      }
      expect(got.media.filter((r) => r.includes('img/7.svg')).length).toBe(1);
      expect(got.event_media.filter((r) => r.includes('img/7.svg')).length).toBe(2);
      expect(got.event_links.filter((r) => r.includes('kavehaz')).length).toBe(2);
      expect(got.hashtag_uses.filter((r) => r.includes('"kávé"')).length).toBe(3);
      expect(got.notifications.some((r) => r.includes(like.id))).toBe(false);
    });

    // A pipelined group on PostgreSQL reads its events' arrivals in one statement up front, counts a
    // document's earlier long replies and a hashtag's weight inside their inserts, and holds events and
    // event_stats rows for multi-row statements: every answer must still reflect the group's earlier events.
    it('answers each event from what the earlier events of its group wrote', async () => {
      const [dave, erin, frank] = [generateSecretKey(), generateSecretKey(), generateSecretKey()];
      const [d, e] = [dave, erin].map((k) => getPublicKey(k));
      const long = 'Hosszú válasz, amely legalább száz karakterből áll, hogy a keresés hosszú válasznak számolja. '.repeat(2);
      const profile = sign(dave, { kind: 0, content: JSON.stringify({ name: 'dave' }) });
      // Liked before it arrives: a provisional stats row, which a profile (not a post) must not keep.
      const likeProfile = sign(carol, { kind: 7, content: '+', tags: [['e', profile.id], ['p', d]] });
      // Deleted (by id, and by address) earlier in the group than it arrives.
      const ghost = sign(dave, { kind: 1, content: 'szellem' });
      const ghostDeletion = sign(dave, { kind: 5, tags: [['e', ghost.id]] });
      const oldArticle = sign(erin, { kind: 30023, created_at: NOW - 900, tags: [['d', 'x'], ['title', 'Régi']], content: 'régi cikk' });
      const articleDeletion = sign(erin, { kind: 5, created_at: NOW - 800, tags: [['a', `30023:${e}:x`]] });
      const parent = sign(erin, { kind: 1, created_at: NOW - 700, content: 'Kérdés a csoportban #kérdés', tags: [['t', 'kérdés']] });
      // A long reply before its parent, another after it.
      const early = sign(carol, { kind: 1, content: long, tags: [['e', parent.id, '', 'root'], ['p', e]] });
      const late = sign(frank, { kind: 1, content: `${long}!`, tags: [['e', parent.id, '', 'root'], ['p', e]] });
      // Followers and posts of erin grow inside the group, so each hashtag weight differs.
      const followErin = sign(frank, { kind: 3, tags: [['p', e]] });
      const second = sign(erin, { kind: 1, created_at: NOW - 600, content: 'Második #kérdés', tags: [['t', 'kérdés'], ['t', 'második']] });
      const profile2 = sign(dave, { kind: 0, created_at: NOW - 500, content: JSON.stringify({ name: 'dave2' }) });
      // The same day's list with more follows replaces the day's kept version; 33 days of lists keep the newest 30.
      const followMore = sign(frank, { kind: 3, created_at: NOW - 50, tags: [['p', e], ['p', d]] });
      const gina = generateSecretKey();
      const days = Array.from({ length: 33 }, (_, i) => sign(gina, { kind: 3, created_at: NOW - (40 - i) * 86400, tags: [['p', e]] }));
      const groupEvents: NostrEvent[] = [
        likeProfile, profile, ghostDeletion, ghost, articleDeletion, oldArticle, early, parent, followErin, second, late, profile2, followMore, ...days,
      ];
      const res = await createImporter({ db: grouped, live: new EventEmitter(), now: () => NOW }).importEvents(groupEvents);
      const one = createImporter({ db: oneStatementAtATime(single), live: new EventEmitter(), now: () => NOW });
      const alone = [];
      for (const ev of groupEvents) alone.push((await one.importEvents([ev]))[0]);
      expect(res).toEqual(alone);
      expect(res.filter((r) => !r.ok).map((r) => r.id)).toEqual([ghost.id, oldArticle.id]);
      expect(await dump(grouped)).toEqual(await dump(single));

      expect(await grouped.get('SELECT 1 AS x FROM event_stats WHERE event_id = ?', [profile.id])).toBeUndefined();
      const doc = await grouped.get<{ long_replies: number }>('SELECT long_replies FROM search_docs WHERE event_id = ?', [parent.id]);
      expect(Number(doc?.long_replies)).toBe(2);
      const weights = await grouped.all<{ event_id: string; weight: number }>('SELECT event_id, weight FROM hashtag_uses WHERE hashtag = ?', ['kérdés']);
      expect(new Map(weights.map((w) => [w.event_id, Number(w.weight)]))).toEqual(new Map([[parent.id, 0], [second.id, 0.5]]));
      const history = await grouped.all<{ event_id: string }>('SELECT event_id FROM contact_list_history WHERE pubkey IN (?, ?)', [
        getPublicKey(frank), getPublicKey(gina),
      ]);
      expect(history.map((h) => h.event_id).sort()).toEqual([followMore.id, ...days.slice(3).map((ev) => ev.id)].sort());
    });

    // An action's facts (its target's row, whether it is recorded, whether its author acted alike before)
    // are read in one statement, and the target's row is kept for the notification indexer: both must
    // see what the group's earlier events wrote, and the second action of a kind must score nothing.
    it('counts, scores and notifies a group of actions as one event at a time would', async () => {
      const [harry, ida] = [generateSecretKey(), generateSecretKey()];
      const h = getPublicKey(harry);
      const at = (ago: number) => NOW - 200 + ago;
      const post = sign(harry, { kind: 1, created_at: at(0), content: 'Reggeli kávé a Duna-parton' });
      const profile = sign(harry, { kind: 0, created_at: at(1), content: JSON.stringify({ name: 'harry' }) });
      // Liked before it arrives (a provisional row the note keeps), then twice more by one person.
      const late = sign(harry, { kind: 1, created_at: at(2), content: 'Késve érkezem' });
      const likeLate = sign(ida, { kind: 7, created_at: at(3), content: '+', tags: [['e', late.id], ['p', h]] });
      const likes = ['+', '❤'].map((content, i) => sign(ida, { kind: 7, created_at: at(4 + i), content, tags: [['e', post.id], ['p', h]] }));
      const likeProfile = sign(ida, { kind: 7, created_at: at(6), content: '+', tags: [['e', profile.id], ['p', h]] });
      const repost = sign(ida, { kind: 6, created_at: at(7), content: '', tags: [['e', post.id], ['p', h]] });
      const quote = sign(ida, { kind: 1, created_at: at(8), content: 'Ezt nézd!', tags: [['q', post.id], ['p', h]] });
      const reply = sign(ida, { kind: 1, created_at: at(9), content: 'Jó étvágyat a kávéhoz, szép idő van ma!', tags: [['e', post.id, '', 'root'], ['p', h]] });
      // harry mutes jane between her two likes: the recipients' mute lists a group has read must not outlive it.
      const jane = generateSecretKey();
      const janeLikes = [10, 12].map((ago) => sign(jane, { kind: 7, created_at: at(ago), content: '+', tags: [['e', post.id], ['p', h]] }));
      const mute = sign(harry, { kind: 10000, created_at: at(11), tags: [['p', getPublicKey(jane)]] });
      const groupEvents = [post, profile, likeLate, ...likes, likeProfile, late, repost, quote, reply, janeLikes[0], mute, janeLikes[1]];
      const res = await createImporter({ db: grouped, live: new EventEmitter(), now: () => NOW }).importEvents(groupEvents);
      expect(res.map((r) => r.ok)).toEqual(groupEvents.map(() => true));
      const one = createImporter({ db: oneStatementAtATime(single), live: new EventEmitter(), now: () => NOW });
      for (const ev of groupEvents) expect((await one.importEvents([ev]))[0].ok).toBe(true);
      expect(await dump(grouped)).toEqual(await dump(single));

      const stats = (id: string) => grouped.get<Record<string, number>>('SELECT likes, reposts, replies, score FROM event_stats WHERE event_id = ?', [id]);
      const units = (weight: number) => Math.trunc((1e10 * weight) / 91);
      // One like, one repost-or-quote and one reply score; the second like and the quote do not.
      expect(await stats(post.id)).toEqual({ likes: 4, reposts: 2, replies: 1, score: 2 * units(1) + units(7) + units(5) });
      expect(await stats(late.id)).toEqual({ likes: 1, reposts: 0, replies: 0, score: units(1) });
      expect(await grouped.get('SELECT 1 AS x FROM event_stats WHERE event_id = ?', [profile.id])).toBeUndefined();
      // harry hears of each action on a stored target, the liked profile included, and of the quote, but
      // not of jane's like after he muted her.
      const told = await grouped.all<{ source_id: string }>('SELECT DISTINCT source_id FROM notifications WHERE pubkey = ?', [h]);
      expect(told.map((r) => r.source_id).sort()).toEqual([...likes, likeProfile, repost, quote, reply, janeLikes[0]].map((ev) => ev.id).sort());

      // A profile liked one group before it arrives: the provisional row is found by the group's arrivals.
      const kate = generateSecretKey();
      const kateProfile = sign(kate, { kind: 0, created_at: at(20), content: JSON.stringify({ name: 'kate' }) });
      const likeKate = sign(ida, { kind: 7, created_at: at(21), content: '+', tags: [['e', kateProfile.id], ['p', getPublicKey(kate)]] });
      for (const call of [[likeKate], [kateProfile]]) {
        expect((await createImporter({ db: grouped, live: new EventEmitter(), now: () => NOW }).importEvents(call))[0].ok).toBe(true);
        expect((await one.importEvents(call))[0].ok).toBe(true);
      }
      expect(await dump(grouped)).toEqual(await dump(single));
      expect(await grouped.get('SELECT 1 AS x FROM event_stats WHERE event_id = ?', [kateProfile.id])).toBeUndefined();
    });

    // A pipelined group reads its actions' facts and its likely recipients' settings and mute lists once,
    // before its first event (action-facts.ts, index-notifications.ts), and holds the action rows for
    // multi-row statements: each answer must still be what the action's turn would read — targets the
    // group writes or removes, refs it records, deletions and edited articles that take refs away or move them.
    it("brings a group's facts read up front to each action's turn", async () => {
      const [lena, mia, nora] = [generateSecretKey(), generateSecretKey(), generateSecretKey()];
      const l = getPublicKey(lena);
      const at = (ago: number) => NOW - 300 + ago;
      const old = sign(lena, { kind: 1, created_at: at(0), content: 'Régi jegyzet' });
      const oldLike = sign(mia, { kind: 7, created_at: at(1), content: '+', tags: [['e', old.id], ['p', l]] });
      const profile1 = sign(lena, { kind: 0, created_at: at(2), content: JSON.stringify({ name: 'lena' }) });
      const article1 = sign(lena, { kind: 30023, created_at: at(3), tags: [['d', 'napló'], ['title', 'Első']], content: 'első' });
      const articleLike = sign(mia, { kind: 7, created_at: at(4), content: '+', tags: [['e', article1.id], ['p', l]] });
      // lena mutes mia and turns reply notifications off before the group: the group reads both up front.
      const mute = sign(lena, { kind: 10000, created_at: at(0), tags: [['p', getPublicKey(mia)]] });
      const settings = sign(lena, { kind: 30078, created_at: at(0), tags: [['d', 'Strucc']], content: JSON.stringify({ notifications: { YOUR_POST_WAS_REPLIED_TO: false } }) });
      for (const db of [grouped, single]) {
        await db.run('INSERT INTO app_settings (pubkey, event, updated_at) VALUES (?, ?, ?)', [l, JSON.stringify(settings), NOW]);
      }
      // mia's note quotes one of nora's that arrives only in the group, before lena likes mia's note: nora
      // hears of the like on a post quoting hers.
      const quoted = sign(nora, { kind: 1, created_at: at(5), content: 'Idézett jegyzet' });
      const quoter = sign(mia, { kind: 1, created_at: at(6), content: 'Ezt olvasd', tags: [['q', quoted.id]] });
      const before = [mute, old, oldLike, profile1, article1, articleLike, quoter];
      // Second like of a note mia liked in an earlier call: the read's own answer scores nothing.
      const oldAgain = sign(mia, { kind: 7, created_at: at(10), content: '❤', tags: [['e', old.id], ['p', l]] });
      // A note of the group liked by two people, then nora takes hers back and likes it again: it scores again.
      const fresh = sign(lena, { kind: 1, created_at: at(11), content: 'Friss jegyzet' });
      const freshLikes = [nora, mia].map((key, i) => sign(key, { kind: 7, created_at: at(12 + i), content: '+', tags: [['e', fresh.id], ['p', l]] }));
      const reply = sign(nora, { kind: 1, created_at: at(14), content: 'Válasz a friss jegyzetre', tags: [['e', fresh.id, '', 'root'], ['p', l]] });
      // The profile's row goes when its next version comes: a like after that finds no row.
      const profile2 = sign(lena, { kind: 0, created_at: at(15), content: JSON.stringify({ name: 'lena2' }) });
      const likeGone = sign(nora, { kind: 7, created_at: at(16), content: '+', tags: [['e', profile1.id], ['p', l]] });
      const unlike = sign(nora, { kind: 5, created_at: at(17), tags: [['e', freshLikes[0].id]] });
      const freshLike3 = sign(nora, { kind: 7, created_at: at(18), content: '🤙', tags: [['e', fresh.id], ['p', l]] });
      // The edited article takes over the old version's refs: mia's like on it is her second.
      const article2 = sign(lena, { kind: 30023, created_at: at(19), tags: [['d', 'napló'], ['title', 'Második']], content: 'második' });
      const articleLike2 = sign(mia, { kind: 7, created_at: at(20), content: '+', tags: [['e', article2.id], ['p', l]] });
      const likeQuoter = sign(lena, { kind: 7, created_at: at(21), content: '+', tags: [['e', quoter.id], ['p', getPublicKey(mia)]] });
      const groupEvents = [oldAgain, fresh, ...freshLikes, reply, profile2, likeGone, quoted, unlike, freshLike3, article2, articleLike2, likeQuoter];
      const one = createImporter({ db: oneStatementAtATime(single), live: new EventEmitter(), now: () => NOW });
      for (const ev of [...before, ...groupEvents]) expect((await one.importEvents([ev]))[0].ok).toBe(true);
      const importer = createImporter({ db: grouped, live: new EventEmitter(), now: () => NOW });
      expect((await importer.importEvents(before)).map((r) => r.ok)).toEqual(before.map(() => true));
      expect((await importer.importEvents(groupEvents)).map((r) => r.ok)).toEqual(groupEvents.map(() => true));
      expect(await dump(grouped)).toEqual(await dump(single));

      const stats = (id: string) => grouped.get<Record<string, number>>('SELECT likes, replies, score FROM event_stats WHERE event_id = ?', [id]);
      const units = (weight: number) => Math.trunc((1e10 * weight) / 91);
      expect(await stats(old.id)).toEqual({ likes: 2, replies: 0, score: units(1) });
      expect(await stats(fresh.id)).toEqual({ likes: 2, replies: 1, score: 2 * units(1) + units(5) });
      expect(await stats(profile1.id)).toEqual({ likes: 1, replies: 0, score: units(1) });
      expect(await stats(article2.id)).toEqual({ likes: 2, replies: 0, score: units(1) });
      // Of the group's actions on her posts only nora's likes reach lena (the first one taken back).
      const told = await grouped.all<{ source_id: string }>('SELECT DISTINCT source_id FROM notifications WHERE pubkey = ?', [l]);
      expect(told.map((r) => r.source_id)).toEqual([freshLike3.id]);
      const toNora = await grouped.all<{ type: number }>('SELECT type FROM notifications WHERE pubkey = ? AND source_id = ?', [getPublicKey(nora), likeQuoter.id]);
      expect(toNora.map((r) => r.type)).toEqual([N.QUOTING_POST_LIKED]);
    });

    it('gives an event whose search key is taken the next free one, in a group as alone', async () => {
      const notes = [0, 1].map((i) => sign(carol, { kind: 1, created_at: NOW - 30, content: `ütköző kulcs ${i}` }));
      // Another event's doc already holds each note's key and the next one (two events of one second
      // with the same first 20 bits of id, which is rare and hard to sign on purpose).
      for (const db of [grouped, single]) {
        for (const n of notes) {
          const key = docKey(n.id, n.created_at);
          for (const k of [key, key + 1]) {
            const cols = db.dialect === 'postgres' ? 'doc, event_id, pubkey, kind, created_at, fts' : 'doc, event_id, pubkey, kind, created_at';
            const vals = db.dialect === 'postgres' ? "?, ?, ?, 1, ?, ''::tsvector" : '?, ?, ?, 1, ?';
            await db.run(`INSERT INTO search_docs (${cols}) VALUES (${vals}) ON CONFLICT DO NOTHING`, [k, `foglalt-${k}`, c, n.created_at]);
          }
        }
      }
      expect((await createImporter({ db: grouped, live: new EventEmitter(), now: () => NOW }).importEvents(notes)).map((r) => r.ok)).toEqual([true, true]);
      const one = createImporter({ db: oneStatementAtATime(single), live: new EventEmitter(), now: () => NOW });
      for (const n of notes) expect((await one.importEvents([n]))[0].ok).toBe(true);
      for (const db of [grouped, single]) {
        for (const n of notes) {
          const row = await db.get<{ doc: number }>('SELECT doc FROM search_docs WHERE event_id = ?', [n.id]);
          expect(Number(row?.doc)).toBe(docKey(n.id, n.created_at) + 2);
        }
      }
    });
  });
}

groupSuite('SQLite', async () => openSqlite(join(dir, `group-${++made}.sqlite`)));
groupSuite('PostgreSQL', freshPostgres);
