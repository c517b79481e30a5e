/**
 * The cache server's tables, in SQL that both SQLite and PostgreSQL accept.
 * Raw events are the source of truth; every other table is derived at import
 * (see server/ingest/apply.ts) so reads never recompute counters.
 */
export const SCHEMA_VERSION = 2;

export const SCHEMA: string[] = [
  `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,

  // Every stored event, verbatim. tags is the JSON text of the tag array.
  `CREATE TABLE IF NOT EXISTS events (
     id TEXT PRIMARY KEY, pubkey TEXT NOT NULL, created_at BIGINT NOT NULL, kind INTEGER NOT NULL,
     tags TEXT NOT NULL, content TEXT NOT NULL, sig TEXT NOT NULL, imported_at BIGINT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS events_kind_time ON events (kind, created_at)`,
  `CREATE INDEX IF NOT EXISTS events_author_kind_time ON events (pubkey, kind, created_at)`,
  `CREATE INDEX IF NOT EXISTS events_time ON events (created_at)`,

  // Single-letter tags, for NIP-01 #x filters and reverse lookups (who tags this id or pubkey).
  // Superseded versions of replaceable events have no rows here, so a tag lookup never finds stale lists.
  `CREATE TABLE IF NOT EXISTS event_tags (
     event_id TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, kind INTEGER NOT NULL, created_at BIGINT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS event_tags_lookup ON event_tags (name, value, created_at)`,
  `CREATE INDEX IF NOT EXISTS event_tags_event ON event_tags (event_id)`,

  // Current version of each replaceable (d = '') and addressable event.
  `CREATE TABLE IF NOT EXISTS replaceable (
     pubkey TEXT NOT NULL, kind INTEGER NOT NULL, d TEXT NOT NULL, event_id TEXT NOT NULL, created_at BIGINT NOT NULL,
     PRIMARY KEY (pubkey, kind, d))`,
  `CREATE INDEX IF NOT EXISTS replaceable_event ON replaceable (event_id)`,

  // Deleted ids and addresses ("kind:pubkey:d"), kept so a late arrival is refused. Keyed with the
  // deleter too: a stranger's deletion of an id that has not arrived yet must not shadow the author's.
  // For addresses, created_at bounds the versions that stay deleted (NIP-09).
  `CREATE TABLE IF NOT EXISTS tombstones (
     target TEXT NOT NULL, pubkey TEXT NOT NULL, deletion_id TEXT NOT NULL, created_at BIGINT NOT NULL,
     PRIMARY KEY (target, pubkey))`,

  // Kind 1 / 6 / 30023 (and other post kinds) per author, with the reply rule already applied.
  `CREATE TABLE IF NOT EXISTS posts (
     event_id TEXT PRIMARY KEY, pubkey TEXT NOT NULL, created_at BIGINT NOT NULL, kind INTEGER NOT NULL,
     is_reply INTEGER NOT NULL, parent_id TEXT, root_id TEXT, has_media INTEGER NOT NULL DEFAULT 0)`,
  `CREATE INDEX IF NOT EXISTS posts_author_time ON posts (pubkey, created_at)`,
  `CREATE INDEX IF NOT EXISTS posts_time ON posts (created_at)`,
  `CREATE INDEX IF NOT EXISTS posts_parent ON posts (parent_id, created_at)`,
  `CREATE INDEX IF NOT EXISTS posts_root ON posts (root_id, created_at)`,

  // Rows are created by the first action on an event even before the event itself arrives (author '' and
  // created_at 0 until then), so counts are right whatever order relays deliver in.
  `CREATE TABLE IF NOT EXISTS event_stats (
     event_id TEXT PRIMARY KEY, author TEXT NOT NULL, created_at BIGINT NOT NULL, kind INTEGER NOT NULL,
     likes BIGINT NOT NULL DEFAULT 0, replies BIGINT NOT NULL DEFAULT 0, mentions BIGINT NOT NULL DEFAULT 0,
     reposts BIGINT NOT NULL DEFAULT 0, zaps BIGINT NOT NULL DEFAULT 0, satszapped BIGINT NOT NULL DEFAULT 0,
     score BIGINT NOT NULL DEFAULT 0, score24h BIGINT NOT NULL DEFAULT 0)`,
  `CREATE INDEX IF NOT EXISTS event_stats_score ON event_stats (score)`,
  `CREATE INDEX IF NOT EXISTS event_stats_score24h ON event_stats (score24h)`,
  `CREATE INDEX IF NOT EXISTS event_stats_sats ON event_stats (satszapped)`,
  `CREATE INDEX IF NOT EXISTS event_stats_time ON event_stats (created_at)`,
  // score24h increments to take back once the acting event is 24 h old; ref_event_id lets a deletion take
  // back an increment that has not expired yet.
  `CREATE TABLE IF NOT EXISTS score_expiry (
     event_id TEXT NOT NULL, ref_event_id TEXT NOT NULL, change BIGINT NOT NULL, expire_at BIGINT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS score_expiry_at ON score_expiry (expire_at)`,
  `CREATE INDEX IF NOT EXISTS score_expiry_ref ON score_expiry (ref_event_id)`,

  // What one viewer did to one event (10000115), and which events did it (event_actions lists).
  // action is like | reply | repost | quote | zap; score is what this ref added to event_stats.score,
  // so deleting the acting event can take exactly that back.
  `CREATE TABLE IF NOT EXISTS event_actions (
     event_id TEXT NOT NULL, pubkey TEXT NOT NULL, liked INTEGER NOT NULL DEFAULT 0, replied INTEGER NOT NULL DEFAULT 0,
     reposted INTEGER NOT NULL DEFAULT 0, zapped INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (event_id, pubkey))`,
  `CREATE TABLE IF NOT EXISTS event_action_refs (
     event_id TEXT NOT NULL, ref_event_id TEXT NOT NULL, ref_pubkey TEXT NOT NULL, ref_kind INTEGER NOT NULL,
     ref_created_at BIGINT NOT NULL, action TEXT NOT NULL DEFAULT '', score BIGINT NOT NULL DEFAULT 0,
     PRIMARY KEY (event_id, ref_event_id))`,
  `CREATE INDEX IF NOT EXISTS event_action_refs_kind ON event_action_refs (event_id, ref_kind, ref_created_at)`,
  `CREATE INDEX IF NOT EXISTS event_action_refs_actor ON event_action_refs (event_id, ref_pubkey)`,
  `CREATE INDEX IF NOT EXISTS event_action_refs_ref ON event_action_refs (ref_event_id)`,

  // Follow graph from each author's current kind 3.
  `CREATE TABLE IF NOT EXISTS follows (pubkey TEXT NOT NULL, follows TEXT NOT NULL, PRIMARY KEY (pubkey, follows))`,
  `CREATE INDEX IF NOT EXISTS follows_reverse ON follows (follows)`,

  // Zaps on notes and articles (target set) and on profiles (target NULL); top zaps read from here.
  `CREATE TABLE IF NOT EXISTS zaps (
     receipt_id TEXT PRIMARY KEY, target_event_id TEXT, sender TEXT NOT NULL, receiver TEXT NOT NULL,
     amount_sats BIGINT NOT NULL, created_at BIGINT NOT NULL, message TEXT NOT NULL DEFAULT '')`,
  `CREATE INDEX IF NOT EXISTS zaps_target ON zaps (target_event_id, amount_sats)`,
  `CREATE INDEX IF NOT EXISTS zaps_receiver ON zaps (receiver, created_at)`,
  `CREATE INDEX IF NOT EXISTS zaps_sender ON zaps (sender, created_at)`,

  `CREATE TABLE IF NOT EXISTS app_settings (pubkey TEXT PRIMARY KEY, event TEXT NOT NULL, updated_at BIGINT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS app_subsettings (
     pubkey TEXT NOT NULL, subkey TEXT NOT NULL, settings TEXT NOT NULL, updated_at BIGINT NOT NULL,
     PRIMARY KEY (pubkey, subkey))`,

  // Per upstream relay, where the firehose left off.
  `CREATE TABLE IF NOT EXISTS relay_cursors (url TEXT PRIMARY KEY, since BIGINT NOT NULL)`,
];

// Its own table rather than a meta row, so meta stays free for whatever the rest of the server keeps there.
export const SCHEMA_VERSION_TABLE = `CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)`;

/** Refuses a database written by another schema version: derived tables cannot be patched in place. */
export function checkSchemaVersion(found: number | undefined): void {
  if (found !== undefined && Number(found) !== SCHEMA_VERSION) {
    throw new Error(
      `Az adatbázis sémaverziója ${found}, a szerveré ${SCHEMA_VERSION}: töröld az adatkönyvtárat (npm run demo:reset). ` +
        `(database schema version ${found}, server expects ${SCHEMA_VERSION})`,
    );
  }
}
