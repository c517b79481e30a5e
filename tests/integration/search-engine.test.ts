/**
 * Search on the stores' own full-text engines (issue 18), on SQLite (FTS5) and PostgreSQL
 * (tsvector, Hungarian stems + unaccent): accents, stems and prefixes, phrases and relevance
 * ranking with Hungarian words over a real websocket; and a store of schema version 3 (the
 * hand-made term tables) moving to the new index when it is opened.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEvent } from '../../server/ingest/apply.ts';
import { searchItems, searchUsers } from '../../server/search/engine.ts';
import { parseQuery } from '../../server/search/grammar.ts';
import type { Database, Queryable } from '../../server/store/db.ts';
import { openPostgres } from '../../server/store/postgres.ts';
import { SCHEMA_VERSION } from '../../server/store/schema.ts';
import { openSqlite } from '../../server/store/sqlite.ts';
import { startTempPostgres, type TempPostgres } from '../support/postgres.ts';
import { ofKind, rangeOf, type CacheClient } from './cache-client.ts';
import { startCacheServer, type CacheTestServer } from './cache-server.ts';
import { person, sign } from './people.ts';

function coffeeNotes(t: (s: number) => number) {
  const anna = person();
  return {
    anna,
    // The word itself, an inflection, a compound that only shares the start, and an unrelated note.
    word: sign(anna, 1, t(10), 'Reggel egy forró kávé a teraszon'),
    inflected: sign(anna, 1, t(20), 'Kérsz kávét vagy teát?'),
    compound: sign(anna, 1, t(30), 'A kávéházban ültünk egész délután'),
    other: sign(anna, 1, t(40), 'Tea nélkül nem megy a nap'),
    article: sign(anna, 30023, t(50), 'Hosszú írás a pörköltről', [['d', 'porkolt'], ['title', 'Kávé és pörkölt']]),
  };
}

describe.each(['sqlite', 'postgres'] as const)('full-text engine on %s', (store) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  let notes: ReturnType<typeof coffeeNotes>;
  let n = 0;
  const adv = async (query: string) => {
    const r = await c.req(`e${++n}`, 'advanced_search', { query });
    expect(r.notices).toEqual([]);
    expect(ofKind(r.events, 10000113)).toHaveLength(1);
    return rangeOf(r);
  };

  beforeAll(async () => {
    srv = await startCacheServer(store);
    notes = coffeeNotes(srv.net.t);
    const { word, inflected, compound, other, article } = notes;
    const results = await srv.ctx.importer.importEvents([word, inflected, compound, other, article]);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    c = await srv.connect();
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it('finds a word with or without its accents, whatever its case', async () => {
    const { word, inflected, compound } = notes;
    for (const q of ['kávé', 'kave', 'KÁVÉ', 'Kave']) {
      expect((await adv(q)).elements, q).toEqual([compound.id, inflected.id, word.id]);
    }
  });

  it('finds inflections and compounds of a word, and not the other way round', async () => {
    const { word, inflected, compound } = notes;
    expect((await adv('kávéház')).elements).toEqual([compound.id]);
    expect((await adv('kavehazban')).elements).toEqual([compound.id]);
    // An inflected query: SQLite matches its letters as a prefix; PostgreSQL stems it ("kávét" → "kav")
    // and so finds every form of the word, the compound too.
    const inflectedQuery = { sqlite: [inflected.id], postgres: [compound.id, inflected.id, word.id] }[store];
    expect((await adv('kávét')).elements).toEqual(inflectedQuery);
    expect((await adv('kavet')).elements).toEqual(inflectedQuery);
    expect((await adv('ter')).elements).toEqual([word.id]);
  });

  it('matches phrases in order, accents folded', async () => {
    const { word } = notes;
    expect((await adv('"forró kávé"')).elements).toEqual([word.id]);
    expect((await adv('"forro kave"')).elements).toEqual([word.id]);
    expect((await adv('"kávé forró"')).elements).toEqual([]);
    expect((await adv('kávé -"forró kávé"')).elements).not.toContain(word.id);
  });

  it('ranks the note holding the word above ones that only share its start', async () => {
    const { word, inflected, compound } = notes;
    const range = await adv('kávé orderby:relevance');
    expect(range.order_by).toBe('relevance');
    expect(range.elements).toHaveLength(3);
    expect(range.elements).toEqual(expect.arrayContaining([word.id, inflected.id, compound.id]));
    // The compound matches "kávé" only as a prefix: last behind the word itself and its inflection.
    expect(range.elements.indexOf(word.id)).toBeLessThan(range.elements.indexOf(compound.id));
    expect(range.elements[2]).toBe(compound.id);
    // Without text there is nothing to rank by: every note of the author comes back.
    const all = await adv(`from:${notes.anna.pk} orderby:relevance`);
    expect([...all.elements].sort()).toEqual([notes.other.id, compound.id, inflected.id, word.id].sort());
  });

  it('searches an article title as its own field', async () => {
    expect((await adv('kind:30023 kávé pörkölt')).elements).toEqual([notes.article.id]);
    // Title and text are separate fields: no phrase runs from one into the other.
    expect((await adv('kind:30023 "pörkölt hosszú"')).elements).toEqual([]);
  });
});

/**
 * People with accented and unaccented names in every name field and different follower counts:
 * Ádám Kovács (two followers), adam_szabo (one), Adrienn and Ádámné Tóth (none).
 */
function namedPeople(t: (s: number) => number) {
  const [adam, szabo, adrienn, adamne, f1, f2] = [person(), person(), person(), person(), person(), person()];
  const profiles = [
    sign(adam, 0, t(1), JSON.stringify({ name: 'Ádám', display_name: 'Kovács Ádám', lud16: 'Adam@Kavezo.hu' })),
    sign(szabo, 0, t(1), JSON.stringify({ name: 'adam_szabo', about: 'Kovács barátja' })),
    sign(adrienn, 0, t(1), JSON.stringify({ displayName: 'Adrienn', nip05: 'adri@pelda.hu' })),
    sign(adamne, 0, t(1), JSON.stringify({ username: 'Ádámné Tóth' })),
  ];
  const follows = [
    sign(f1, 3, t(2), '', [['p', adam.pk], ['p', szabo.pk]]),
    sign(f2, 3, t(2), '', [['p', adam.pk]]),
  ];
  return { adam, szabo, adrienn, adamne, f1, events: [...profiles, ...follows] };
}

describe.each(['sqlite', 'postgres'] as const)('user_search on the engine of %s', (store) => {
  let srv: CacheTestServer;
  let c: CacheClient;
  let p: ReturnType<typeof namedPeople>;
  let n = 0;
  const users = async (query: string, extra: Record<string, unknown> = {}) => {
    const r = await c.req(`u${++n}`, 'user_search', { query, ...extra });
    expect(r.notices).toEqual([]);
    return ofKind(r.events, 0).map((e) => e.pubkey);
  };
  /** No followers either: equal counts go by pubkey. */
  const unfollowed = () => [p.adrienn.pk, p.adamne.pk].sort();

  beforeAll(async () => {
    srv = await startCacheServer(store);
    p = namedPeople(srv.net.t);
    const results = await srv.ctx.importer.importEvents(p.events);
    expect(results.filter((r) => !r.ok)).toEqual([]);
    c = await srv.connect();
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it('finds an accented name by its unaccented and accented prefixes, most followed first', async () => {
    for (const q of ['adam', 'Ádám', 'ADAM', 'ádá']) expect(await users(q), q).toEqual([p.adam.pk, p.szabo.pk, p.adamne.pk]);
    for (const q of ['ád', 'ad', 'ÁD']) expect(await users(q), q).toEqual([p.adam.pk, p.szabo.pk, ...unfollowed()]);
    expect(await users('adamne')).toEqual([p.adamne.pk]);
    expect(await users('ádámnét')).toEqual([]);
  });

  it('needs every word as the prefix of some name field, and no other field', async () => {
    expect(await users('kovács ád')).toEqual([p.adam.pk]);
    expect(await users('ad szab')).toEqual([p.szabo.pk]);
    expect(await users('adri@pelda')).toEqual([p.adrienn.pk]);
    expect(await users('kavezo')).toEqual([p.adam.pk]);
    // szabo's about names Kovács: not a name field.
    expect(await users('kovacs')).toEqual([p.adam.pk]);
    expect(await users('toth adam')).toEqual([p.adamne.pk]);
  });

  it('keeps the limit and the followed-by filter on the ranked list', async () => {
    expect(await users('ad', { limit: 1 })).toEqual([p.adam.pk]);
    expect(await users('ad', { pubkey: p.f1.pk })).toEqual([p.adam.pk, p.szabo.pk]);
    expect(await users('szabo', { pubkey: p.f1.pk })).toEqual([p.szabo.pk]);
    expect(await users('adri', { pubkey: p.f1.pk })).toEqual([]);
  });

  it('follows a new profile version and a deleted profile', async () => {
    const renamed = sign(p.adrienn, 0, srv.net.t(5), JSON.stringify({ name: 'Édua' }));
    expect((await srv.ctx.importer.importEvents([renamed]))[0].ok).toBe(true);
    expect(await users('adri')).toEqual([]);
    expect(await users('edu')).toEqual([renamed.pubkey]);
    const gone = sign(p.adrienn, 5, srv.net.t(6), '', [['e', renamed.id]]);
    expect((await srv.ctx.importer.importEvents([gone]))[0].ok).toBe(true);
    expect(await users('edu')).toEqual([]);
  });
});

/** The search tables of schema version 3, as they were created then. */
const V3_SEARCH = [
  `CREATE TABLE search_docs (
     event_id TEXT PRIMARY KEY, doc BIGINT NOT NULL, pubkey TEXT NOT NULL, kind INTEGER NOT NULL, created_at BIGINT NOT NULL,
     address TEXT NOT NULL DEFAULT '', is_reply INTEGER NOT NULL DEFAULT 0, parent_id TEXT,
     chars INTEGER NOT NULL DEFAULT 0, words INTEGER NOT NULL DEFAULT 0, long_reply INTEGER NOT NULL DEFAULT 0,
     long_replies INTEGER NOT NULL DEFAULT 0, has_image INTEGER NOT NULL DEFAULT 0, has_video INTEGER NOT NULL DEFAULT 0,
     has_audio INTEGER NOT NULL DEFAULT 0, has_url INTEGER NOT NULL DEFAULT 0, has_summary INTEGER NOT NULL DEFAULT 0,
     terms TEXT NOT NULL DEFAULT '')`,
  `CREATE INDEX search_docs_kind_time ON search_docs (kind, created_at)`,
  `CREATE TABLE search_terms (term TEXT NOT NULL, doc BIGINT NOT NULL, pos INTEGER NOT NULL, PRIMARY KEY (term, doc, pos))`,
  `CREATE TABLE search_hashtags (tag TEXT NOT NULL, doc BIGINT NOT NULL, PRIMARY KEY (tag, doc))`,
  `INSERT INTO search_terms (term, doc, pos) VALUES ('regi', 1, 0)`,
];

/** user_search's table of schema versions 3 and 4, as it was created then. */
const V4_USER_SEARCH = [
  `CREATE TABLE search_user_terms (term TEXT NOT NULL, pubkey TEXT NOT NULL, PRIMARY KEY (term, pubkey))`,
  `CREATE INDEX search_user_terms_pubkey ON search_user_terms (pubkey)`,
  `INSERT INTO search_user_terms (term, pubkey) VALUES ('regi', 'ab')`,
];

/** Takes user_search's index back to what a version 3 or 4 server left behind. */
async function rewindUserSearch(tx: Queryable, store: 'sqlite' | 'postgres'): Promise<void> {
  if (store === 'sqlite') await tx.run('DROP TABLE search_user_fts');
  await tx.run('DROP TABLE search_users');
  for (const stmt of V4_USER_SEARCH) await tx.run(stmt);
}

async function tablesNamed(db: Database, store: 'sqlite' | 'postgres', names: string[]): Promise<string[]> {
  const list = names.map((x) => `'${x}'`).join(', ');
  const rows = store === 'sqlite'
    ? await db.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${list})`)
    : await db.all<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE tablename IN (${list})`);
  return rows.map((r) => r.name);
}

describe.each(['sqlite', 'postgres'] as const)('a schema 3 store on %s', (store) => {
  let dir: string;
  let pgServer: TempPostgres | undefined;
  const open = async (): Promise<Database> =>
    store === 'sqlite' ? openSqlite(join(dir, 'strucc.sqlite')) : openPostgres(pgServer!.url);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strucc-upgrade-'));
    if (store === 'postgres') pgServer = await startTempPostgres();
  }, 60_000);
  afterAll(async () => {
    pgServer?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('moves to the engine index when opened: filled from the stored events, old tables dropped', async () => {
    const now = Math.floor(Date.now() / 1000);
    const notes = coffeeNotes((s) => now - 1000 + s);
    const older = sign(notes.anna, 0, now - 900, JSON.stringify({ name: 'Régi Anna' }));
    const profile = sign(notes.anna, 0, now - 800, JSON.stringify({ name: 'Kávés Anna' }));
    const tagged = sign(notes.anna, 1, now - 700, 'Délutáni #kávészünet', [['t', 'kávészünet']]);
    let db = await open();
    await db.transaction(async (tx) => {
      for (const e of [notes.word, notes.inflected, notes.compound, notes.other, older, profile, tagged]) await applyEvent(tx, e, now);
    });
    // Back to what a version 3 server left behind.
    await db.transaction(async (tx) => {
      if (store === 'sqlite') await tx.run('DROP TABLE search_fts');
      await tx.run('DROP TABLE search_docs');
      for (const stmt of V3_SEARCH) await tx.run(stmt);
      await rewindUserSearch(tx, store);
      await tx.run('UPDATE schema_version SET version = 3 WHERE id = 1');
    });
    await db.close();

    db = await open();
    try {
      const version = await db.get<{ version: number }>('SELECT version FROM schema_version WHERE id = 1');
      expect(Number(version?.version)).toBe(SCHEMA_VERSION);
      expect(await tablesNamed(db, store, ['search_terms', 'search_hashtags', 'search_user_terms'])).toEqual([]);
      // user_search's index is filled from the current profile too.
      expect(await searchUsers(db, { query: 'kávés', limit: 10 })).toEqual([notes.anna.pk]);
      expect(await searchUsers(db, { query: 'régi', limit: 10 })).toEqual([]);
      const find = async (query: string, kinds = [1]) =>
        (await searchItems(db, parseQuery(query, now), { defaultKinds: kinds, page: { limit: 20, offset: 0 } })).map((i) => i.id);
      expect(await find('kave')).toEqual([tagged.id, notes.compound.id, notes.inflected.id, notes.word.id]);
      expect(await find('"forró kávé"')).toEqual([notes.word.id]);
      expect(await find('#kávészünet')).toEqual([tagged.id]);
      // Only the current profile version is indexed.
      expect(await find('kávés', [0])).toEqual([profile.id]);
      expect(await find('régi', [0])).toEqual([]);
      // New events keep being indexed after the upgrade.
      const later = sign(notes.anna, 1, now - 600, 'Még egy kávé délután');
      await db.transaction((tx) => applyEvent(tx, later, now));
      expect(await find('"egy kávé"')).toEqual([later.id]);
    } finally {
      await db.close();
    }
  }, 60_000);
});

describe.each(['sqlite', 'postgres'] as const)('a schema 4 store on %s', (store) => {
  let dir: string;
  let pgServer: TempPostgres | undefined;
  const open = async (): Promise<Database> =>
    store === 'sqlite' ? openSqlite(join(dir, 'strucc.sqlite')) : openPostgres(pgServer!.url);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strucc-upgrade4-'));
    if (store === 'postgres') pgServer = await startTempPostgres();
  }, 60_000);
  afterAll(async () => {
    pgServer?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("moves user_search to the engine when opened: filled from the current kind 0s, search_user_terms dropped", async () => {
    const now = Math.floor(Date.now() / 1000);
    const people = namedPeople((s) => now - 1000 + s);
    const older = sign(people.adrienn, 0, now - 1000, JSON.stringify({ name: 'Régi Név', lud16: 'regi@pelda.hu' }));
    const note = sign(people.adam, 1, now - 900, 'Egy kávé délután');
    let db = await open();
    await db.transaction(async (tx) => {
      for (const e of [older, ...people.events, note]) await applyEvent(tx, e, now);
    });
    await db.transaction(async (tx) => {
      await rewindUserSearch(tx, store);
      await tx.run('UPDATE schema_version SET version = 4 WHERE id = 1');
    });
    await db.close();

    db = await open();
    try {
      const version = await db.get<{ version: number }>('SELECT version FROM schema_version WHERE id = 1');
      expect(Number(version?.version)).toBe(SCHEMA_VERSION);
      expect(await tablesNamed(db, store, ['search_user_terms'])).toEqual([]);
      const find = (query: string, extra: { followedBy?: string } = {}) => searchUsers(db, { query, limit: 10, ...extra });
      const { adam, szabo, adrienn, adamne } = people;
      expect(await find('adam')).toEqual([adam.pk, szabo.pk, adamne.pk]);
      expect(await find('ád')).toEqual([adam.pk, szabo.pk, ...[adrienn.pk, adamne.pk].sort()]);
      expect(await find('kovács ád')).toEqual([adam.pk]);
      expect(await find('ad', { followedBy: people.f1.pk })).toEqual([adam.pk, szabo.pk]);
      // Only the current profile version, and its lightning address for user_of_ln_address.
      expect(await find('regi')).toEqual([]);
      const byLud16 = async (addr: string) => (await db.all<{ pubkey: string }>('SELECT pubkey FROM search_users WHERE lud16 = ?', [addr])).map((r) => r.pubkey);
      expect(await byLud16('adam@kavezo.hu')).toEqual([adam.pk]);
      expect(await byLud16('regi@pelda.hu')).toEqual([]);
      // The note index of schema 4 is kept as it was.
      expect((await searchItems(db, parseQuery('kave', now), { defaultKinds: [1], page: { limit: 20, offset: 0 } })).map((i) => i.id)).toEqual([note.id]);
      // New profiles keep being indexed after the upgrade.
      const later = sign(adrienn, 0, now - 500, JSON.stringify({ name: 'Ádéla' }));
      await db.transaction((tx) => applyEvent(tx, later, now));
      expect(await find('adel')).toEqual([adrienn.pk]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
