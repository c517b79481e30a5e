/**
 * The hot commands' queries stay on indexes (issue 18): every statement that mega_feed_directive,
 * thread_view, user_profile, explore, get_notifications, feed and search send to the store is
 * recorded and explained. A full scan of a table that grows with the network fails the test,
 * naming the statement: one missing index turns a 5 ms command into a 5 s one at a million events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable, SqlValue } from '../../server/store/db.ts';
import { followsFeedItems } from '../../server/cache/follows-feed.ts';
import { EVENTS_BY_ID, GROUP_FACTS } from '../../server/ingest/action-facts.ts';
import { ARRIVALS } from '../../server/ingest/delete.ts';
import { weighedInsert } from '../../server/ingest/index-hashtags.ts';
import { GROUP_RECIPIENTS } from '../../server/ingest/recipients-sql.ts';
import { actionFactsSql } from '../../server/ingest/scores.ts';
import {
  PG_DOC_INSERT_FREE_KEY, PG_DOC_INSERT_FREE_KEY_COUNTING, PG_DOC_INSERT_FREE_KEY_LONG, PG_DOC_INSERT_FREE_KEY_LONG_COUNTING,
} from '../../server/ingest/index-search.ts';
import { toPgPlaceholders } from '../../server/store/postgres.ts';
import { startCacheServer, watchReads, type CacheTestServer, type StoreKind } from './cache-server.ts';
import { sign } from './people.ts';

/** Tables whose size follows the number of events or people. */
const GROWING = [
  'events', 'event_tags', 'posts', 'event_stats', 'replaceable', 'follows', 'zaps', 'notifications', 'search_docs',
  'search_terms', 'search_hashtags', 'search_users', 'reactions', 'reposts', 'event_action_refs', 'media', 'hashtags',
];

/** SQLite's plan names a table by its alias: alias → table, from every `FROM/JOIN table [AS] alias`. */
function aliases(sql: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+(\w+)(?:\s+(?:AS\s+)?(?!WHERE|ON|JOIN|LEFT|INNER|CROSS|GROUP|ORDER|LIMIT|USING|UNION|NATURAL)(\w+))?/gi)) {
    out.set(m[2] ?? m[1], m[1]);
  }
  return out;
}

interface Recorded {
  sql: string;
  params: SqlValue[];
}

/**
 * Full scans of growing tables in a statement's plan. SQLite plans without statistics here, as a
 * fresh store does. PostgreSQL would seq-scan tiny tables whatever the indexes, so it plans with
 * seq scans switched off: a Seq Scan it still picks means no index can serve the statement.
 */
async function scansOf(srv: CacheTestServer, store: StoreKind, sql: string, params: SqlValue[]): Promise<string[]> {
  const tables = aliases(sql);
  if (store === 'sqlite') {
    const plan = await srv.ctx.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params);
    return plan
      .map((r) => r.detail)
      .filter((detail) => {
        const m = /^SCAN (\w+)/.exec(detail);
        const table = m ? (tables.get(m[1]) ?? m[1]) : '';
        return GROWING.includes(table) && !/USING (?:COVERING )?INDEX|USING INTEGER PRIMARY KEY/.test(detail);
      });
  }
  const plan = await srv.ctx.db.transaction(async (tx) => {
    await tx.run('SET LOCAL enable_seqscan = off');
    return tx.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
  });
  return plan
    .map((r) => r['QUERY PLAN'].trim().replace(/^->\s*/, ''))
    .filter((line) => {
      const m = /^Seq Scan on (\w+)/.exec(line);
      return m !== null && GROWING.includes(m[1]);
    });
}

/**
 * The plan PostgreSQL runs a named statement with once it settles on a generic one (after five runs, when
 * the custom plans cost no less): made with the parameters unknown, as PREPARE + EXPLAIN EXECUTE under
 * force_generic_plan shows it (the values passed are then irrelevant). Inside `tx`, whose settings apply.
 */
async function genericPlan(tx: Queryable, sql: string): Promise<string[]> {
  const text = toPgPlaceholders(sql);
  const params = new Set(text.match(/\$\d+/g) ?? []).size;
  await tx.run('SET LOCAL plan_cache_mode = force_generic_plan');
  await tx.run(`PREPARE strucc_generic_probe AS ${text}`);
  try {
    const args = params ? `(${Array(params).fill('NULL').join(', ')})` : '';
    return (await tx.all<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE strucc_generic_probe${args}`)).map((r) => r['QUERY PLAN']);
  } finally {
    await tx.run('DEALLOCATE strucc_generic_probe');
  }
}

const seqScans = (plan: string[]) => plan.map((l) => l.trim().replace(/^->\s*/, '')).filter((l) => /^Seq Scan on (\w+)/.test(l));

describe.each(['sqlite', 'postgres'] as const)('hot command queries use indexes (%s)', (store) => {
  let srv: CacheTestServer;
  const seen = new Map<string, Recorded>();

  beforeAll(async () => {
    srv = await startCacheServer(store);
    watchReads(srv, (sql, params) => {
      if (!seen.has(sql)) seen.set(sql, { sql, params });
    });
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  it('no statement of the hot commands scans a growing table', async () => {
    const { alice, bob, carol, n1, r1 } = srv.net;
    const c = await srv.connect();
    const spec = (s: object) => ({ spec: JSON.stringify(s), user_pubkey: alice.pk, limit: 20 });
    const now = srv.ctx.now();
    const own = (op: string) => sign(alice, 30078, now, JSON.stringify({ description: op }), [['d', 'Primal-Web App', op]]);
    const calls: [string, Record<string, unknown>][] = [
      ['mega_feed_directive', spec({ id: 'latest', kind: 'notes' })],
      ['mega_feed_directive', spec({ id: 'global-trending', kind: 'notes' })],
      ['mega_feed_directive', spec({ id: 'most-zapped', kind: 'notes' })],
      ['mega_feed_directive', spec({ id: 'all-notes', kind: 'notes' })],
      ['mega_feed_directive', spec({ kind: 'reads', minwords: 100 })],
      ['mega_feed_directive', spec({ id: 'feed', kind: 'notes', pubkey: bob.pk })],
      ['thread_view', { event_id: r1.id, limit: 20, user_pubkey: alice.pk }],
      ['thread_view', { event_id: n1.id, limit: 20, user_pubkey: alice.pk }],
      ['user_profile', { pubkey: bob.pk, user_pubkey: alice.pk }],
      ['explore', { timeframe: 'trending', scope: 'global', limit: 20, user_pubkey: alice.pk }],
      ['explore', { timeframe: 'popular', scope: 'global', limit: 20, user_pubkey: alice.pk }],
      ['explore', { timeframe: 'mostzapped', scope: 'network', limit: 20, user_pubkey: alice.pk }],
      ['explore', { timeframe: 'popular', scope: 'tribe', limit: 20, user_pubkey: alice.pk }],
      ['explore', { timeframe: 'latest', scope: 'follows', limit: 20, user_pubkey: alice.pk }],
      ['feed', { pubkey: bob.pk, user_pubkey: alice.pk, limit: 20 }],
      ['get_notifications', { pubkey: alice.pk, limit: 20, event_from_user: own('get_notifications') }],
      ['search', { query: 'bejegyzés', limit: 20, user_pubkey: alice.pk }],
      ['search', { query: '"első bejegyzés"', limit: 20 }],
      ['search', { query: `bejegyzés from:${bob.pk} orderby:likes`, limit: 20 }],
      ['search', { query: 'bejegy', limit: 20 }],
      ['user_search', { query: 'ali', limit: 10 }],
    ];
    for (const [i, [command, args]] of calls.entries()) {
      const r = await c.req(`q${i}`, command, args);
      expect(r.notices, `${command} ${JSON.stringify(args).slice(0, 80)}`).toEqual([]);
    }
    // The orderby window in memory (server/search/window-cache.ts) reads again, after a like and a new note,
    // the counts of the notes it holds and the span of the new note: statements of their own.
    await srv.ctx.importer.importEvents([
      sign(carol, 7, now - 5, '+', [['e', n1.id], ['p', bob.pk]]),
      sign(bob, 1, now - 5, 'Harmadik bejegyzés'),
    ]);
    const again = await c.req('again', 'search', { query: `bejegyzés from:${bob.pk} orderby:likes`, limit: 20 });
    expect(again.notices).toEqual([]);
    const windowStatements = [...seen.values()].filter(({ sql }) => /AS packed/.test(sql));
    expect(windowStatements.filter(({ sql }) => /json_each|unnest/.test(sql)), 'the counts re-read').toHaveLength(1);
    expect(windowStatements.filter(({ sql }) => /d\.created_at >= \?/.test(sql)), 'the new note\'s span').toHaveLength(1);
    expect(seen.size).toBeGreaterThan(20);

    const scans: string[] = [];
    for (const { sql, params } of seen.values()) {
      if (!/^\s*(SELECT|WITH)\b/i.test(sql)) continue;
      for (const detail of await scansOf(srv, store, sql, params)) scans.push(`${detail}\n    in: ${sql.replace(/\s+/g, ' ').slice(0, 300)}`);
    }
    expect(scans).toEqual([]);
    // orderby:<count> on SQLite reads its window's counts through the covering index (server/search/sql.ts):
    // without it, 5,000 event_stats rows a page at 1M events.
    if (store === 'sqlite') {
      const ranked = [...seen.values()].find(({ sql }) => sql.includes('event_stats_metrics'));
      expect(ranked, 'the orderby:likes search statement').toBeDefined();
      const plan = await srv.ctx.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${ranked!.sql}`, ranked!.params);
      expect(plan.map((r) => r.detail)).toContain('SEARCH s USING COVERING INDEX event_stats_metrics (event_id=?) LEFT-JOIN');
      for (const { sql, params } of windowStatements) {
        const detail = (await srv.ctx.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params)).map((r) => r.detail);
        expect(detail, sql).toContain('SEARCH s USING COVERING INDEX event_stats_metrics (event_id=?) LEFT-JOIN');
      }
    }
  });

  // The follows feed asks SQL one author at a time on SQLite for the authors its memory cache cannot answer
  // (follows-feed.ts): each statement must stay one range of the covering author index, newest first, or a
  // 70-follow page turns into 70 table walks. A handle without the server's caches takes that path every time.
  it.runIf(store === 'sqlite')('the follows feed reads each author from the covering author index', async () => {
    const db = srv.ctx.db;
    const statements: Recorded[] = [];
    const bare: Queryable = {
      dialect: db.dialect,
      all: (sql, params = []) => (statements.push({ sql, params }), db.all(sql, params)),
      get: (sql, params = []) => (statements.push({ sql, params }), db.get(sql, params)),
      run: (sql, params = []) => db.run(sql, params),
    };
    const { alice, n1 } = srv.net;
    const items = await followsFeedItems(bare, alice.pk, [1, 6], false, { limit: 20, offset: 0 });
    expect(items.map((i) => i.id)).toContain(n1.id);
    const feed = statements.filter(({ sql }) => /FROM posts WHERE pubkey = \? AND kind IN/.test(sql));
    expect(feed.length).toBeGreaterThan(1);
    for (const { sql, params } of feed) {
      expect(sql.match(/UNION ALL/g)).toBeNull();
      const plan = (await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params)).map((r) => r.detail);
      expect(plan.filter((d) => /^(SEARCH|SCAN) posts/.test(d))).toEqual([
        expect.stringMatching(/^SEARCH posts USING COVERING INDEX posts_author_feed_media \(pubkey=\? AND is_reply=\?( AND created_at[<>]\?)?\)$/),
      ]);
    }
    // Past the page's cut the rest go 32 to a statement (pubkey IN …): still a seek per author in the same index.
    for (const { sql, params } of statements.filter(({ sql }) => /FROM posts\s+WHERE pubkey IN \(/.test(sql))) {
      const plan = (await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params)).map((r) => r.detail);
      expect(plan).toEqual([expect.stringMatching(/^SEARCH posts USING COVERING INDEX posts_author_feed_media \(pubkey=\? AND is_reply=\? AND created_at>\?\)$/)]);
    }
  });

  // user_profile counts every post of the author: through table lookups a busy author costs tens of ms.
  it.runIf(store === 'sqlite')("user_profile's counts over an author's posts read one covering index", async () => {
    const counts = [...seen.values()].filter(({ sql }) => /^\s*SELECT/i.test(sql) && /AS note_count/.test(sql));
    expect(counts.length).toBe(1);
    const plan = (await srv.ctx.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${counts[0].sql}`, counts[0].params)).map((r) => r.detail);
    expect(plan).toEqual([expect.stringMatching(/^SEARCH posts USING COVERING INDEX \w+ \(pubkey=\?\)$/)]);
  });
  // The search document insert finds its key's first free neighbour in SQL (server/ingest/index-search.ts).
  // Written as a NOT EXISTS per candidate key, the generic plan hashed the whole of search_docs on every
  // insert once the table had a few hundred rows: it must read the taken keys from the primary key.
  it.runIf(store === 'postgres')("the search document insert's generic plan reads search_docs by its key", async () => {
    const plans = await srv.ctx.db
      .transaction(async (tx) => {
        await tx.run(
          `INSERT INTO search_docs (doc, event_id, pubkey, kind, created_at, fts)
           SELECT g, 'generic-probe-' || g, 'p', 1, g, ''::tsvector FROM generate_series(1, 5000) AS g`,
        );
        await tx.run('ANALYZE search_docs');
        const out = [await genericPlan(tx, PG_DOC_INSERT_FREE_KEY), await genericPlan(tx, PG_DOC_INSERT_FREE_KEY_LONG)];
        throw Object.assign(new Error('undo the filler rows'), { plans: out });
      })
      .catch((err: { plans?: string[][] }) => err.plans);
    expect(plans).toHaveLength(2);
    for (const plan of plans!) {
      expect(plan.join('\n')).toMatch(/Index Only Scan using search_docs_pkey on search_docs/);
      expect(seqScans(plan)).toEqual([]);
    }
  });

  // The statements a pipelined import sends instead of reads (a group's arrivals, the long-reply count in
  // the search document insert, the hashtag weight in its insert, an action's facts, a group's action facts and recipients) run for every event: each lookup in
  // them must stay on an index in the generic plan, as the reads they replace did.
  it.runIf(store === 'postgres')("the pipelined import's statements read growing tables by index in their generic plans", async () => {
    const plans = await srv.ctx.db
      .transaction(async (tx) => {
        const g = 'FROM generate_series(1, 5000) AS g';
        await tx.run(`INSERT INTO search_docs (doc, event_id, pubkey, kind, created_at, long_reply, parent_id, fts)
          SELECT g, 'probe-' || g, 'p' || (g % 50), 1, g, g % 2, 'probe-' || (g / 3), ''::tsvector ${g}`);
        await tx.run(`INSERT INTO posts (event_id, pubkey, created_at, kind, is_reply, parent_id, root_id, has_media)
          SELECT 'probe-' || g, 'p' || (g % 50), g, 1, 1, 'probe-' || (g / 3), 'probe-1', 0 ${g}`);
        await tx.run(`INSERT INTO events (id, pubkey, created_at, kind, tags, content, sig, imported_at)
          SELECT 'probe-' || g, 'p' || (g % 50), g, 1, '[]', '', 's', g ${g}`);
        await tx.run(`INSERT INTO tombstones (target, pubkey, deletion_id, created_at) SELECT 'gone-' || g, 'p' || (g % 50), 'd', g ${g}`);
        await tx.run(`INSERT INTO replaceable (pubkey, kind, d, event_id, created_at) SELECT 'p' || g, 30023, 'd', 'probe-' || g, g ${g}`);
        await tx.run(`INSERT INTO follows (pubkey, follows) SELECT 'p' || g, 'p' || (g % 50) ${g} ON CONFLICT DO NOTHING`);
        await tx.run(`INSERT INTO event_stats (event_id, author, created_at, kind) SELECT 'probe-' || g, 'p' || (g % 50), g, 1 ${g}`);
        await tx.run(`INSERT INTO event_action_refs (event_id, ref_event_id, ref_pubkey, ref_kind, ref_created_at, action, score)
          SELECT 'probe-' || (g / 5), 'ref-' || g, 'p' || (g % 50), 7, g, 'like', 1 ${g}`);
        await tx.run(`INSERT INTO app_settings (pubkey, event, updated_at) SELECT 'p' || g, '{}', g ${g}`);
        for (const table of ['search_docs', 'posts', 'events', 'tombstones', 'replaceable', 'follows', 'event_action_refs', 'event_stats', 'app_settings']) {
          await tx.run(`ANALYZE ${table}`);
        }
        const out = [];
        const statements = [
          PG_DOC_INSERT_FREE_KEY_COUNTING, PG_DOC_INSERT_FREE_KEY_LONG_COUNTING, ARRIVALS, weighedInsert(2),
          actionFactsSql(['like'], true), actionFactsSql(['repost', 'quote'], false), GROUP_FACTS,
          GROUP_RECIPIENTS, EVENTS_BY_ID,
        ];
        for (const sql of statements) out.push(await genericPlan(tx, sql));
        throw Object.assign(new Error('undo the filler rows'), { plans: out });
      })
      .catch((err: { plans?: string[][] }) => err.plans);
    expect(plans).toHaveLength(9);
    for (const plan of plans!) expect(seqScans(plan)).toEqual([]);
  });

  // A Gather's worker processes cost 30-70 ms to start on a busy 2-core machine, where explore's ranking
  // reads its page in under 1 ms serially (bench/RESULTS.md s8-pg1m): the server's connections plan none,
  // even when parallel plans are made to look free.
  it.runIf(store === 'postgres')("explore's ranking plans no parallel workers on PostgreSQL", async () => {
    const ranking = [...seen.values()].filter(({ sql }) => /FROM event_stats s JOIN posts p/.test(sql));
    expect(ranking.length).toBeGreaterThan(0);
    for (const { sql, params } of ranking) {
      const plan = await srv.ctx.db.transaction(async (tx) => {
        for (const s of ['parallel_setup_cost = 0', 'parallel_tuple_cost = 0', 'min_parallel_table_scan_size = 0', 'min_parallel_index_scan_size = 0']) {
          await tx.run(`SET LOCAL ${s}`);
        }
        return tx.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
      });
      expect(plan.map((r) => r['QUERY PLAN']).filter((l) => /Gather|Parallel/.test(l))).toEqual([]);
    }
  });
});
