/**
 * The cache server's tables, in SQL that both SQLite and PostgreSQL accept.
 * Raw events are the source of truth; every other table is derived at import
 * (see server/ingest/apply.ts) so reads never recompute counters.
 */
import { LIGHTNING_SCHEMA } from '../lightning/schema.ts';
import { MINT_SCHEMA } from '../mint/schema.ts';
import { PUSH_SCHEMA } from '../push/schema.ts';

/**
 * 4: search on FTS5 / tsvector instead of the term tables of 3; 5: user_search too (search_user_terms
 * gone). Opening a 3 or a 4 upgrades it in place.
 */
export const SCHEMA_VERSION = 5;
/** Versions a store upgrades from when it opens them: the search indexes are rebuilt from the stored events. */
export const UPGRADABLE_FROM = [3, 4];

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
  // Covers the per-author page of the follows feed (no table lookups): 130 ms → 2 ms per page at 1M events.
  // has_media rides along so user_profile's counts over all of an author's posts are covered too (a busy
  // author's 4,400 posts: 11-66 ms through table lookups, under 1 ms from the index); it replaces the
  // index without has_media, so ingest keeps the same number of indexes to update.
  `CREATE INDEX IF NOT EXISTS posts_author_feed_media ON posts (pubkey, is_reply, created_at, kind, event_id, has_media)`,
  `DROP INDEX IF EXISTS posts_author_feed`,

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

  // Notifications (S §3.8), stored ready to send: content is the notification JSON with its id.
  // source_id is the event that caused it, so a deletion can take it back and live pushes find it.
  `CREATE TABLE IF NOT EXISTS notifications (
     pubkey TEXT NOT NULL, id TEXT NOT NULL, created_at BIGINT NOT NULL, type INTEGER NOT NULL,
     source_id TEXT NOT NULL, content TEXT NOT NULL, PRIMARY KEY (pubkey, id))`,
  `CREATE INDEX IF NOT EXISTS notifications_user_time ON notifications (pubkey, created_at)`,
  `CREATE INDEX IF NOT EXISTS notifications_user_type_time ON notifications (pubkey, type, created_at)`,
  `CREATE INDEX IF NOT EXISTS notifications_source ON notifications (source_id)`,
  `CREATE TABLE IF NOT EXISTS notification_counts (
     pubkey TEXT NOT NULL, type INTEGER NOT NULL, cnt BIGINT NOT NULL, PRIMARY KEY (pubkey, type))`,
  `CREATE TABLE IF NOT EXISTS notifications_seen (pubkey TEXT PRIMARY KEY, seen_until BIGINT NOT NULL)`,

  // NIP-04 direct messages (S §3.6). pair is the two pubkeys sorted and joined, so a conversation
  // in both directions is one index range.
  `CREATE TABLE IF NOT EXISTS dm_messages (
     event_id TEXT PRIMARY KEY, sender TEXT NOT NULL, receiver TEXT NOT NULL, pair TEXT NOT NULL, created_at BIGINT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS dm_messages_pair_time ON dm_messages (pair, created_at)`,
  // One row per (owner, peer) for every conversation either side started; cnt is the owner's unread
  // count from that peer. peer '' is the owner's total (PostgreSQL keys cannot hold NULL).
  `CREATE TABLE IF NOT EXISTS dm_threads (
     owner TEXT NOT NULL, peer TEXT NOT NULL, cnt BIGINT NOT NULL, latest_at BIGINT NOT NULL, latest_event_id TEXT NOT NULL,
     PRIMARY KEY (owner, peer))`,
  `CREATE INDEX IF NOT EXISTS dm_threads_owner_time ON dm_threads (owner, latest_at)`,

  // Media and link URLs per event (server/ingest/index-media.ts). A URL is only fetched by the media
  // cache when some stored event uses it, so the server cannot be turned into an open proxy.
  `CREATE TABLE IF NOT EXISTS event_media (event_id TEXT NOT NULL, url TEXT NOT NULL, PRIMARY KEY (event_id, url))`,
  `CREATE INDEX IF NOT EXISTS event_media_url ON event_media (url)`,
  `CREATE TABLE IF NOT EXISTS event_links (event_id TEXT NOT NULL, url TEXT NOT NULL, PRIMARY KEY (event_id, url))`,
  `CREATE INDEX IF NOT EXISTS event_links_url ON event_links (url)`,
  // What is known about a media URL: dimensions for the 10000119 variants, and the original's hash on disk.
  // status: ok | failed (failed rows are retried after a while).
  `CREATE TABLE IF NOT EXISTS media (
     url TEXT PRIMARY KEY, status TEXT NOT NULL, mimetype TEXT NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL,
     animated INTEGER NOT NULL, size BIGINT NOT NULL, sha256 TEXT NOT NULL, updated_at BIGINT NOT NULL)`,
  // Link previews (GET /link-preview and 10000128).
  `CREATE TABLE IF NOT EXISTS preview (
     url TEXT PRIMARY KEY, mimetype TEXT NOT NULL, md_title TEXT NOT NULL, md_description TEXT NOT NULL,
     md_image TEXT NOT NULL, icon_url TEXT NOT NULL, ok INTEGER NOT NULL, fetched_at BIGINT NOT NULL)`,
  // A preview's image is fetched by the media cache like an event's media (server/media/store.ts knownMedia).
  `CREATE INDEX IF NOT EXISTS preview_image ON preview (md_image)`,
  // Blossom blobs by sha256, and who uploaded each (a blob is removed when its last owner deletes it).
  `CREATE TABLE IF NOT EXISTS blobs (sha256 TEXT PRIMARY KEY, size BIGINT NOT NULL, type TEXT NOT NULL, created_at BIGINT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS blob_owners (
     sha256 TEXT NOT NULL, pubkey TEXT NOT NULL, uploaded BIGINT NOT NULL, PRIMARY KEY (sha256, pubkey))`,
  `CREATE INDEX IF NOT EXISTS blob_owners_pubkey ON blob_owners (pubkey, uploaded)`,

  // Hashtag uses of notes, lowercased (server/ingest/index-hashtags.ts). weight is the author's followers per
  // post at import, so trending_hashtags can rank by it without recounting.
  `CREATE TABLE IF NOT EXISTS hashtag_uses (
     event_id TEXT NOT NULL, hashtag TEXT NOT NULL, created_at BIGINT NOT NULL, weight DOUBLE PRECISION NOT NULL,
     PRIMARY KEY (event_id, hashtag))`,
  `CREATE INDEX IF NOT EXISTS hashtag_uses_time ON hashtag_uses (created_at)`,
  // Follower gain per account and UTC day from contact-list diffs (server/ingest/index-followers.ts);
  // cnt is the follower count after that day's latest change.
  `CREATE TABLE IF NOT EXISTS follower_days (
     pubkey TEXT NOT NULL, day BIGINT NOT NULL, increase BIGINT NOT NULL, cnt BIGINT NOT NULL, PRIMARY KEY (pubkey, day))`,
  `CREATE INDEX IF NOT EXISTS follower_days_day ON follower_days (day, pubkey)`,
  // Current version of each long-form article with its sort key and length, and its topics
  // (server/ingest/index-reads.ts); the reads feeds page over these.
  `CREATE TABLE IF NOT EXISTS articles (
     pubkey TEXT NOT NULL, d TEXT NOT NULL, event_id TEXT NOT NULL, created_at BIGINT NOT NULL,
     published_at BIGINT NOT NULL, words BIGINT NOT NULL, PRIMARY KEY (pubkey, d))`,
  `CREATE INDEX IF NOT EXISTS articles_published ON articles (published_at)`,
  `CREATE INDEX IF NOT EXISTS articles_author ON articles (pubkey, published_at)`,
  `CREATE INDEX IF NOT EXISTS articles_event ON articles (event_id)`,
  `CREATE TABLE IF NOT EXISTS article_topics (
     pubkey TEXT NOT NULL, d TEXT NOT NULL, topic TEXT NOT NULL, published_at BIGINT NOT NULL, PRIMARY KEY (pubkey, d, topic))`,
  `CREATE INDEX IF NOT EXISTS article_topics_topic ON article_topics (topic, published_at)`,
  // Zap lists ranked by amount per receiver (user_zaps_by_satszapped) and explore_zaps' time window.
  `CREATE INDEX IF NOT EXISTS zaps_receiver_amount ON zaps (receiver, amount_sats)`,
  `CREATE INDEX IF NOT EXISTS zaps_time ON zaps (created_at)`,
  // report_user / report_note (S §3.10): one row per reporter and target, the latest report winning.
  // target_type is pubkey | event; reason is the signed event's content, kept for the operator.
  `CREATE TABLE IF NOT EXISTS reports (
     reporter TEXT NOT NULL, target_type TEXT NOT NULL, target TEXT NOT NULL, reason TEXT NOT NULL,
     event_id TEXT NOT NULL, created_at BIGINT NOT NULL, PRIMARY KEY (reporter, target_type, target))`,
  `CREATE INDEX IF NOT EXISTS reports_target ON reports (target_type, target)`,
  // set_last_time_user_was_online: the latest time each user said they were online.
  `CREATE TABLE IF NOT EXISTS user_last_online (pubkey TEXT PRIMARY KEY, online_at BIGINT NOT NULL)`,

  // Full-text search (server/search) has its tables per store: search-schema.ts.
  // Premium and legend memberships, kept by the membership service; the leaderboards read them.
  `CREATE TABLE IF NOT EXISTS memberships (
     pubkey TEXT PRIMARY KEY, tier TEXT NOT NULL DEFAULT 'none', name TEXT, premium_since BIGINT, legend_since BIGINT,
     expires_on BIGINT, donated_sats BIGINT NOT NULL DEFAULT 0, last_donation BIGINT)`,
  `CREATE INDEX IF NOT EXISTS memberships_tier ON memberships (tier)`,
  // Premium names are stored lower-case; the unique index is what finally settles two buyers of one name.
  `CREATE UNIQUE INDEX IF NOT EXISTS memberships_name ON memberships (name)`,
  // Membership quotes: one lightning invoice each; paid ones are the purchase history.
  `CREATE TABLE IF NOT EXISTS membership_quotes (
     id TEXT PRIMARY KEY, payer TEXT NOT NULL, receiver TEXT NOT NULL, product_id TEXT NOT NULL, name TEXT,
     amount_sats BIGINT NOT NULL, amount_usd_cents BIGINT NOT NULL, invoice TEXT NOT NULL, status TEXT NOT NULL,
     created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, paid_at BIGINT)`,
  `CREATE INDEX IF NOT EXISTS membership_quotes_payer ON membership_quotes (payer, paid_at)`,
  `CREATE INDEX IF NOT EXISTS membership_quotes_receiver ON membership_quotes (receiver, paid_at)`,
  `CREATE TABLE IF NOT EXISTS membership_legend_customization (
     pubkey TEXT PRIMARY KEY, style TEXT NOT NULL DEFAULT '', custom_badge INTEGER NOT NULL DEFAULT 0,
     avatar_glow INTEGER NOT NULL DEFAULT 0, in_leaderboard INTEGER NOT NULL DEFAULT 1, current_shoutout TEXT NOT NULL DEFAULT '',
     updated_at BIGINT NOT NULL)`,
  // Content rebroadcast jobs, one per user; the cursor makes a job resumable after a restart.
  `CREATE TABLE IF NOT EXISTS membership_rebroadcasts (
     pubkey TEXT PRIMARY KEY, kinds TEXT NOT NULL, relays TEXT NOT NULL, status TEXT NOT NULL, total BIGINT NOT NULL,
     done BIGINT NOT NULL, cursor_created_at BIGINT NOT NULL, cursor_id TEXT NOT NULL, error TEXT NOT NULL DEFAULT '',
     started_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)`,
  // Per author and UTC day, that day's kind 3 with the most follows, newest 30 days only
  // (server/ingest/contact-history.ts): superseded versions are not kept in events.
  `CREATE TABLE IF NOT EXISTS contact_list_history (
     pubkey TEXT NOT NULL, day BIGINT NOT NULL, event_id TEXT NOT NULL, created_at BIGINT NOT NULL, follows BIGINT NOT NULL,
     tags TEXT NOT NULL, content TEXT NOT NULL, sig TEXT NOT NULL, PRIMARY KEY (pubkey, day))`,
  `CREATE INDEX IF NOT EXISTS contact_list_history_event ON contact_list_history (event_id)`,
  // Ids of superseded versions of addressable posts (articles), newest 200 per address: replies and zaps
  // may still point at an old id after the version itself is dropped from events.
  `CREATE TABLE IF NOT EXISTS replaced_versions (
     pubkey TEXT NOT NULL, kind INTEGER NOT NULL, d TEXT NOT NULL, event_id TEXT NOT NULL, created_at BIGINT NOT NULL,
     PRIMARY KEY (pubkey, kind, d, event_id))`,
  `CREATE INDEX IF NOT EXISTS replaced_versions_event ON replaced_versions (event_id)`,
  // Size and last use of each entry of a bounded cache (server/media/lru.ts): area preview keyed by URL,
  // area media keyed by the original's sha256 (its variants count towards it).
  `CREATE TABLE IF NOT EXISTS cache_usage (
     area TEXT NOT NULL, key TEXT NOT NULL, bytes BIGINT NOT NULL, last_access BIGINT NOT NULL, PRIMARY KEY (area, key))`,
  `CREATE INDEX IF NOT EXISTS cache_usage_lru ON cache_usage (area, last_access)`,
  // NIP-47 connections to the custodial demo wallet: the client key's pubkey only, never its secret.
  `CREATE TABLE IF NOT EXISTS wallet_nwc_connections (
     client_pubkey TEXT PRIMARY KEY, pubkey TEXT NOT NULL, appname TEXT NOT NULL, created_at BIGINT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS wallet_nwc_connections_user ON wallet_nwc_connections (pubkey)`,
  ...LIGHTNING_SCHEMA,
  ...MINT_SCHEMA,
  ...PUSH_SCHEMA,
];

// Its own table rather than a meta row, so meta stays free for whatever the rest of the server keeps there.
export const SCHEMA_VERSION_TABLE = `CREATE TABLE IF NOT EXISTS schema_version (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)`;

/**
 * Refuses a database written by another schema version (derived tables cannot be patched in place),
 * except UPGRADABLE_FROM, whose only difference is the search index: returns the version to upgrade
 * from when it must be rebuilt, else null.
 */
export function checkSchemaVersion(found: number | undefined): number | null {
  if (found !== undefined && UPGRADABLE_FROM.includes(Number(found))) return Number(found);
  if (found !== undefined && Number(found) !== SCHEMA_VERSION) {
    throw new Error(
      `Az adatbázis sémaverziója ${found}, a szerveré ${SCHEMA_VERSION}: töröld az adatkönyvtárat (npm run demo:reset). ` +
        `(database schema version ${found}, server expects ${SCHEMA_VERSION})`,
    );
  }
  return null;
}
