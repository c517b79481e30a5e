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
import { searchItems } from '../../server/search/engine.ts';
import { parseQuery } from '../../server/search/grammar.ts';
import type { Database } from '../../server/store/db.ts';
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
      await tx.run('UPDATE schema_version SET version = 3 WHERE id = 1');
    });
    await db.close();

    db = await open();
    try {
      const version = await db.get<{ version: number }>('SELECT version FROM schema_version WHERE id = 1');
      expect(Number(version?.version)).toBe(SCHEMA_VERSION);
      const tables = store === 'sqlite'
        ? await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('search_terms', 'search_hashtags')")
        : await db.all<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE tablename IN ('search_terms', 'search_hashtags')");
      expect(tables).toEqual([]);
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
