/**
 * The full-text search tables (server/search), which differ per store: SQLite keeps the text in
 * an FTS5 index beside search_docs, PostgreSQL in a tsvector column of search_docs with a GIN index.
 *
 * search_docs holds one row per indexed event with the filter columns the grammar needs. Its key
 * `doc` is the event's created_at times 2^20 plus the id's first 20 bits (server/search/tokens.ts
 * docKey): ordering by doc is ordering by time, so a search for a common word reads the FTS index
 * newest first and stops when the page is full, instead of sorting every match.
 */
import type { Database } from './db.ts';

/** The search tables of schema version 3 (hand-made term lists), dropped by the upgrade to 4. */
const V3_SEARCH_TABLES = ['search_terms', 'search_hashtags', 'search_docs'];
/** user_search's name terms of schema 3 and 4, dropped by the upgrade to 5 (with the user index, rebuilt whole). */
const V4_USER_TABLES = ['search_user_terms', 'search_users', 'search_user_fts'];

/** The tables an upgrade from schema `from` drops before the schema is created again and refilled. */
export function tablesDroppedFrom(from: number): string[] {
  return from <= 3 ? [...V3_SEARCH_TABLES, ...V4_USER_TABLES] : V4_USER_TABLES;
}

const DOC_COLUMNS = `event_id TEXT NOT NULL, pubkey TEXT NOT NULL, kind INTEGER NOT NULL, created_at BIGINT NOT NULL,
     address TEXT NOT NULL DEFAULT '', is_reply INTEGER NOT NULL DEFAULT 0, parent_id TEXT,
     chars INTEGER NOT NULL DEFAULT 0, words INTEGER NOT NULL DEFAULT 0, long_reply INTEGER NOT NULL DEFAULT 0,
     long_replies INTEGER NOT NULL DEFAULT 0, has_image INTEGER NOT NULL DEFAULT 0, has_video INTEGER NOT NULL DEFAULT 0,
     has_audio INTEGER NOT NULL DEFAULT 0, has_url INTEGER NOT NULL DEFAULT 0, has_summary INTEGER NOT NULL DEFAULT 0`;

const DOC_INDEXES = [
  `CREATE UNIQUE INDEX IF NOT EXISTS search_docs_event ON search_docs (event_id)`,
  `CREATE INDEX IF NOT EXISTS search_docs_kind_time ON search_docs (kind, created_at)`,
  `CREATE INDEX IF NOT EXISTS search_docs_author_time ON search_docs (pubkey, created_at)`,
];

/** PostgreSQL's text search configuration: Hungarian stems without stop words, accents folded first. */
export const PG_TS_CONFIG = 'strucc_hu';

/**
 * user_search's index: one row per user with a current kind 0. names holds the folded words of the
 * name fields (server/ingest/index-search.ts), matched as prefixes of any length; lud16 is the exact,
 * lowercased lightning address for user_of_ln_address, a plain indexed column.
 */
function userSchema(dialect: Database['dialect']): string[] {
  if (dialect === 'sqlite') {
    return [
      `CREATE TABLE IF NOT EXISTS search_users (id INTEGER PRIMARY KEY, pubkey TEXT NOT NULL UNIQUE, lud16 TEXT)`,
      `CREATE INDEX IF NOT EXISTS search_users_lud16 ON search_users (lud16)`,
      // rowid = search_users.id. Prefix indexes down to one character: people type "á" and expect names.
      `CREATE VIRTUAL TABLE IF NOT EXISTS search_user_fts USING fts5(names, content='', contentless_delete=1,
         tokenize='unicode61 remove_diacritics 2', prefix='1 2 3')`,
    ];
  }
  return [
    // names are lexemes as they are (no stems): a name is matched by its prefixes, not by its word family.
    // The default lets a copy without the column (bench/server-pg.ts) in; the indexer always sets it.
    `CREATE TABLE IF NOT EXISTS search_users (pubkey TEXT PRIMARY KEY, lud16 TEXT, names TSVECTOR NOT NULL DEFAULT ''::tsvector)`,
    `CREATE INDEX IF NOT EXISTS search_users_lud16 ON search_users (lud16)`,
    `CREATE INDEX IF NOT EXISTS search_users_names ON search_users USING GIN (names)`,
  ];
}

export function searchSchema(dialect: Database['dialect']): string[] {
  return [...docSchema(dialect), ...userSchema(dialect)];
}

function docSchema(dialect: Database['dialect']): string[] {
  if (dialect === 'sqlite') {
    return [
      // INTEGER PRIMARY KEY: doc is the rowid, so joining the FTS index's rowid to it is a direct lookup.
      `CREATE TABLE IF NOT EXISTS search_docs (doc INTEGER PRIMARY KEY, ${DOC_COLUMNS})`,
      ...DOC_INDEXES,
      // Contentless (the text lives in events) with deletes by rowid. body is the folded text with a
      // separator word between fields, tags the hashtags as one token each (tokens.ts tagToken).
      // Prefix indexes for 3 and 4 characters: shorter prefixes are not searched (PREFIX_MIN) and
      // longer ones cover few enough terms to merge on the fly.
      `CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5(body, tags, content='', contentless_delete=1,
         tokenize='unicode61 remove_diacritics 2', prefix='3 4')`,
      // orderby:<metric> reads the counts of its 5,000-match window in event_id order (sql.ts): with the counts
      // in the index beside the key, each is one step on from the last instead of a random table row.
      `CREATE INDEX IF NOT EXISTS event_stats_metrics ON event_stats (event_id, likes, replies, reposts, zaps, satszapped, score)`,
    ];
  }
  return [
    `CREATE EXTENSION IF NOT EXISTS unaccent`,
    // A snowball dictionary without the Hungarian stop-word list: "a", "az", "mint" stay searchable
    // as they were with the term tables. unaccent runs first, so "kávét" and "kavet" stem alike.
    `DO $$ BEGIN
       IF NOT EXISTS (SELECT 1 FROM pg_ts_dict WHERE dictname = 'strucc_hu_stem') THEN
         CREATE TEXT SEARCH DICTIONARY strucc_hu_stem (TEMPLATE = snowball, Language = hungarian);
       END IF;
       IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = '${PG_TS_CONFIG}') THEN
         CREATE TEXT SEARCH CONFIGURATION ${PG_TS_CONFIG} (COPY = hungarian);
         ALTER TEXT SEARCH CONFIGURATION ${PG_TS_CONFIG}
           ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part, numword, numhword, hword_numpart
           WITH unaccent, strucc_hu_stem;
       END IF;
     END $$`,
    // fts: the stemmed body words with positions, and each hashtag as the lexeme '#tag'.
    `CREATE TABLE IF NOT EXISTS search_docs (doc BIGINT PRIMARY KEY, ${DOC_COLUMNS}, fts TSVECTOR NOT NULL)`,
    ...DOC_INDEXES,
    `CREATE INDEX IF NOT EXISTS search_docs_fts ON search_docs USING GIN (fts)`,
  ];
}
